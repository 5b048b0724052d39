"""Property-based: every format the upload path accepts (GIFT, Aiken, CSV, YAML, Moodle XML),
fed text built from each format's own pieces (near-valid files, where parsers break) and plain
junk.

Two levels: the parsers alone (fast, many examples: never raise, every problem has a line of
the file), and the whole upload check (`check_upload`, parser + importer + checker: never
raises, a refused file always says what is wrong, every line it names is in the file).
Each test stays within a few seconds (`max_examples`)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.content import default_content_dir
from bot.content.formats import parse, parse_bytes
from bot.content.uploads import check_upload

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
PARSERS = settings(max_examples=400, deadline=None, database=None)
UPLOADS = settings(max_examples=100, deadline=None, database=None,
                   suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
GUIDES = default_content_dir()

words = st.sampled_from(["What", "is", "2+2?", "x", "`code`", "café", "Dakar", "ü", "", " "])
junk = st.text(max_size=40)
letter = st.sampled_from([*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "a", "1", "", "AB", "Z"])
phrase = st.lists(st.one_of(words, junk), max_size=5).map(" ".join)


def lines_of(parts: st.SearchStrategy[str], most: int = 40) -> st.SearchStrategy[str]:
    return st.lists(parts, max_size=most).map("\n".join)


aiken = lines_of(
    st.one_of(
        phrase,
        st.builds("{}. {}".format, letter, phrase),
        st.builds("{}) {}".format, letter, phrase),
        st.builds("ANSWER: {}".format, st.one_of(letter, st.sampled_from(["A, C", "A C", ""]))),
        st.just(""),
        # a whole question with many options: past the letters there are (A to Z and beyond)
        st.integers(0, 30).map(
            lambda n: (
                "Q?\n" + "\n".join(f"{chr(65 + i % 26)}. o{i}" for i in range(n)) + "\nANSWER: A"
            )
        ),
    )
)
gift_pieces = st.sampled_from(
    ["::t::", "::", "{", "}", "=", "~", "#", "####", "%50%", "%-100%", "%x%", "$CATEGORY: c",
     "$CATEGORY:", "// c", "\n", "\n\n", "T", "FALSE", "#3.5:0.1", "#1..5", "#=", "->", "\\",
     "\\{", "\\n", "[html]", "[markdown]", "text", "nan", "1e999", "-1", ":", "..", " "]
)  # fmt: skip
gift = st.lists(st.one_of(gift_pieces, words, junk), max_size=60).map("".join)
columns = st.sampled_from(
    ["id", "language", "prompt", *"abcdefghijk", "answer", "explanation", "title",
     "description", "ID", "Prompt", "", "x"]
)  # fmt: skip
cell = st.one_of(phrase, letter, st.sampled_from(['"', '""', "a,b", "a\nb", "en", "fr", "zz9"]))


def _csv(header: list[str], rows: list[list[str]]) -> str:
    def quoted(value: str) -> str:
        return '"' + value.replace('"', '""') + '"' if any(c in value for c in ',"\n') else value

    return "\n".join(",".join(quoted(c) for c in row) for row in [header, *rows])


csv_files = st.one_of(
    st.builds(_csv, st.lists(columns, max_size=14), st.lists(st.lists(cell, max_size=14),
                                                              max_size=12)),
    junk,
    st.lists(st.one_of(cell, st.sampled_from([",", '"', "\n", "\r\n"])), max_size=40).map("".join),
)  # fmt: skip
GOOD_YAML = (Path(__file__).resolve().parents[2] / "examples" / "quiz.yaml").read_text("utf-8")


YAML_JUNK = st.sampled_from(
    ["- ", ": :", "&a x", "*a", "? ", "{", "[", "!!python/object x", "a: !!binary x", "\t"]
)


@st.composite
def yaml_files(draw: st.DrawFn) -> str:
    """The shipped example with lines dropped, repeated or replaced by YAML-ish junk."""
    lines = GOOD_YAML.splitlines()
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(lines) - 1))
        match draw(st.sampled_from(["drop", "repeat", "junk", "indent"])):
            case "drop":
                del lines[at]
            case "repeat":
                lines.insert(at, lines[at])
            case "junk":
                lines[at] = draw(YAML_JUNK)
            case "indent":
                lines[at] = "  " + lines[at]
        if not lines:
            lines = [""]
    return "\n".join(lines)


def assert_line_numbered(problems: list[tuple[int, str]], text: str, *, zero_ok: bool) -> None:
    # The lines an editor counts (\n, \r\n, \r); a problem may point just past the last one.
    last = len(re.split(r"\r\n|\r|\n", text)) + 1
    for line, message in problems:
        assert message
        assert (0 if zero_ok else 1) <= line <= last, (line, message)


FORMAT_TEXTS = {"aiken": aiken, "gift": gift, "csv": csv_files}


@pytest.mark.parametrize("fmt", list(FORMAT_TEXTS))
def test_a_parser_never_raises_and_every_problem_has_a_line(fmt: str) -> None:
    @PARSERS
    @given(text=st.one_of(FORMAT_TEXTS[fmt], junk))
    def run(text: str) -> None:
        result = parse(fmt, text, "fuzz")
        assert_line_numbered([(p.line, p.message) for p in result.problems], text, zero_ok=False)

    run()


UPLOAD_FILES = {
    "quiz.txt": aiken,
    "quiz.gift": gift,
    "quiz.csv": csv_files,
    "quiz.yaml": yaml_files(),
}


@pytest.mark.parametrize("name", list(UPLOAD_FILES))
def test_the_upload_check_never_raises_and_a_refusal_says_where(name: str) -> None:
    @UPLOADS
    @given(text=UPLOAD_FILES[name])
    def run(text: str) -> None:
        checked = check_upload(name, text.encode("utf-8"), GUIDES)
        if checked.quiz is None:
            assert checked.errors, "a refused file must say why"
        assert_line_numbered(
            [(p.line, p.detail or p.code) for p in checked.problems], text, zero_ok=True
        )

    run()


# Moodle XML, read as bytes: questions built from its own elements and attribute values (types,
# fractions, formats, pictures, categories), well-formed or not, and plain junk.
moodle_values = st.sampled_from(
    ["100", "50", "-50", "0", "33.33333", "x", "nan", "1e999", "", "true", "false", "1", "0.5",
     "*", "html", "plain_text", "moodle_auto_format", "markdown", "&amp;", "&lt;b&gt;", "café"]
)  # fmt: skip
moodle_pieces = st.one_of(
    st.sampled_from(
        ['<question type="multichoice">', '<question type="truefalse">', "</question>",
         '<question type="numerical">', '<question type="shortanswer">', '<question type="x">',
         '<question type="description">', '<question type="category">', "<category>",
         "</category>", "<name><text>n</text></name>", "<questiontext", ">", "</questiontext>",
         "<text>", "</text>", "<answer", "</answer>", ' fraction="', ' format="', '"',
         "<single>", "</single>", "<tolerance>", "</tolerance>", "<feedback>", "</feedback>",
         "<generalfeedback>", "</generalfeedback>", "<units><unit><multiplier>1</multiplier>"
         "<unit_name>m</unit_name></unit></units>", "<tags><tag><text>quizbot-flashcard</text>"
         "</tag></tags>", '&lt;img src="@@PLUGINFILE@@/p.png" alt="a"&gt;',
         '<file name="p.png" path="/" encoding="base64">iVBORw0KGgo=</file>', "$course$/top/c",
         "<![CDATA[<p>x</p>]]>", "\n", " "]
    ),
    moodle_values,
    words,
)  # fmt: skip
moodle_text = st.one_of(
    phrase, st.sampled_from(["<p>x</p>", "<b>y", "<img src='@@PLUGINFILE@@/p.png'>", "<pre>c"])
).map(lambda text: html.escape(re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "", text)))
moodle_answer = st.builds(
    '<answer fraction="{}"><text>{}</text><tolerance>{}</tolerance>'
    "<feedback><text>{}</text></feedback></answer>".format,
    moodle_values, moodle_text, moodle_values, moodle_text,
)  # fmt: skip
moodle_question = st.builds(
    '<question type="{}"><name><text>{}</text></name><questiontext format="{}"><text>{}</text>'
    '{}</questiontext><generalfeedback><text>{}</text></generalfeedback><single>{}</single>'
    "{}{}</question>\n".format,
    st.sampled_from(["multichoice", "truefalse", "numerical", "shortanswer", "description",
                     "essay", "category", "matching"]),
    moodle_text, moodle_values, moodle_text,
    st.sampled_from(["", '<file name="p.png" path="/" encoding="base64">iVBORw0KGgo=</file>']),
    moodle_text, moodle_values, st.lists(moodle_answer, max_size=12).map("".join),
    st.sampled_from(["", "<tags><tag><text>quizbot-flashcard</text></tag></tags>",
                     "<units><unit><multiplier>1</multiplier><unit_name>m</unit_name></unit>"
                     "</units>"]),
)  # fmt: skip
moodle = st.one_of(
    st.lists(moodle_pieces, max_size=80).map("".join),
    st.lists(moodle_question, max_size=8).map("".join),
).map(lambda body: '<?xml version="1.0"?>\n<quiz>\n' + body + "\n</quiz>\n")


# Fewer examples than the text formats: each is a whole XML file, several questions long.
MOODLE = settings(max_examples=150, deadline=None, database=None)


def test_the_moodle_parser_never_raises_and_every_problem_has_a_line() -> None:
    @MOODLE
    @given(text=st.one_of(moodle, junk))
    def run(text: str) -> None:
        result = parse_bytes("moodle", text.encode("utf-8"), "fuzz.xml")
        assert_line_numbered([(p.line, p.message) for p in result.problems], text, zero_ok=False)

    run()


def test_an_uploaded_moodle_file_never_raises_and_a_refusal_says_where() -> None:
    @settings(UPLOADS, max_examples=60)
    @given(text=moodle)
    def run(text: str) -> None:
        checked = check_upload("bank.xml", text.encode("utf-8"), GUIDES)
        if checked.quiz is None:
            assert checked.errors, "a refused file must say why"
        assert_line_numbered(
            [(p.line, p.detail or p.code) for p in checked.problems], text, zero_ok=True
        )

    run()
