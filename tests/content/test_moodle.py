"""Moodle XML: ours -> moodle -> ours keeps every question, option, key, explanation and picture;
files written by hand after MoodleDocs' examples (fixtures/formats/moodle, each naming its
source) import with every problem named by line and question; what we write follows what
Moodle's importer (question/format/xml/format.php) reads and checks."""

from __future__ import annotations

import base64
import itertools
import shutil
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest

from bot.cli.content import main
from bot.content import check
from bot.content.exporter import draft
from bot.content.formats import (
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    ParseResult,
    parse_bytes,
    write_bytes,
)
from bot.content.formats.draft import FLASHCARD, MULTIPLE, NUMBER, SINGLE, TRUE_FALSE
from bot.content.formats.moodle import category_title
from bot.content.formats.safe_xml import parse_xml
from bot.content.loader import load_catalog
from bot.content.uploads import check_upload
from bot.core.kinds import NumberAnswer, score_multiple
from tests.content.media_kit import jpeg, png

SHIPPED = Path(__file__).resolve().parents[2] / "content"
FIXTURES = Path(__file__).parent / "fixtures"
MOODLE = FIXTURES / "formats" / "moodle"
# Every hand-written file under fixtures/formats/moodle, and the test that reads it.
USED = {
    "docs-examples.xml": "test_the_docs_examples_import_with_what_is_left_out_named_by_line",
    "pictures.xml": "test_embedded_pictures_come_with_their_alt_text_and_tags",
    "categories.xml": "test_each_category_is_a_quiz_titled_after_its_last_part",
}
# Moodle's grade options (question_bank::fraction_options_full), as percentages.
GRADES = {
    100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667,
    14.28571, 12.5, 11.11111, 10, 5, 0,
}  # fmt: skip


def read(name: str, lang: str = "en") -> ParseResult:
    return parse_bytes("moodle", (MOODLE / name).read_bytes(), name, lang)


def messages(result: ParseResult) -> list[str]:
    return [p.format("bank.xml") for p in result.problems]


def interval(key: NumberAnswer | None) -> tuple[float, float] | None:
    """The values a key accepts (Moodle writes a range as its middle ± half its width)."""
    if key is None:
        return None
    if key.value is not None:
        return (key.value - key.tolerance, key.value + key.tolerance)
    assert key.low is not None and key.high is not None
    return (key.low, key.high)


def kept(question: DraftQuestion) -> tuple[object, ...]:
    """What a round trip must keep."""
    low_high = interval(question.number)
    number = None if low_high is None else tuple(round(x, 9) for x in low_high)
    pictures = [
        (p.data, p.alt) if p is not None else None
        for p in (question.image, question.explanation_image)
    ]
    options = tuple((o.text, o.correct) for o in question.options)
    return (question.id, question.kind, question.prompt, options, question.explanation, number,
            question.unit, pictures, question.tags)  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_every_shipped_quiz_comes_back_from_moodle_xml(lang: str) -> None:
    catalog = load_catalog(SHIPPED)
    for quiz in catalog.quizzes.values():
        source, _ = draft(quiz, lang)
        result = parse_bytes("moodle", write_bytes("moodle", [source]), "x", lang)
        assert result.problems == [], (quiz.id, messages(result))
        (back,) = result.quizzes
        assert (back.title, back.description, back.lang) == (
            source.title,
            source.description,
            lang,
        )
        # Flashcards too: written as tagged descriptions, read back as flashcards.
        assert [kept(q) for q in back.questions] == [kept(q) for q in source.questions]


def _pictured_quizzes() -> list[DraftQuiz]:
    picture = png(40, 30)
    questions = (
        DraftQuestion(
            "sign",
            "Read the sign:\n```text\nNEVER LEAVE\n  LUGGAGE\n```\nWhat does it ask? <b>&</b>",
            (DraftOption("Stay with `it`", True), DraftOption("Leave it & go", False)),
            "Unattended luggage is removed.\nSee `rules.md`.",
            image=DraftPicture("Photos/Sign (1).PNG", picture, "A red sign"),
            explanation_image=DraftPicture("why.jpg", jpeg(64, 48), "The rule, drawn"),
            tags=("signs", "week 1"),
        ),
        DraftQuestion(
            "three",
            "Which are even?",
            (
                DraftOption("2", True),
                DraftOption("3"),
                DraftOption("4", True),
                DraftOption("6", True),
                DraftOption("7"),
            ),
            "2, 4 and 6.",
            kind=MULTIPLE,
        ),
        DraftQuestion(
            "range",
            "Pick a number between 1 and 5",
            (),
            "",
            kind=NUMBER,
            number=NumberAnswer(low=1.0, high=5.5),
        ),
        DraftQuestion(
            "pi",
            "π to two decimals?",
            (),
            "3.14",
            kind=NUMBER,
            number=NumberAnswer(value=3.14159, tolerance=0.005),
            unit="rad",
        ),
        DraftQuestion(
            "sky",
            "The sky is green.",
            (DraftOption("True"), DraftOption("False", True)),
            "",
            kind=TRUE_FALSE,
        ),
        DraftQuestion(
            "card",
            "Front",
            (),
            "Back",
            kind=FLASHCARD,
            image=DraftPicture("front.png", picture, "The front"),
        ),
    )
    english = DraftQuiz("signs", "Signs & <rules> / 2", "en", questions, "Two\nlines")
    return [english, DraftQuiz("other", "Other", "en", questions[:1], "")]


def test_pictures_units_ranges_tags_and_flashcards_survive_a_round_trip() -> None:
    quizzes = _pictured_quizzes()
    data = write_bytes("moodle", quizzes)
    assert data == write_bytes("moodle", quizzes)  # the same drafts, the same bytes
    result = parse_bytes("moodle", data, "x", "en")
    assert messages(result) == []
    assert [(q.id, q.title, q.description) for q in result.quizzes] == [
        ("signs-rules-2", "Signs & <rules> / 2", "Two\nlines"),
        ("other", "Other", ""),
    ]
    for source, back in zip(quizzes, result.quizzes, strict=True):
        assert [kept(q) for q in back.questions] == [kept(q) for q in source.questions]


def _questions(root: Element) -> list[Element]:
    return [q for q in root.findall("question") if q.get("type") != "category"]


def test_the_file_is_what_moodles_importer_reads_and_accepts() -> None:
    root = parse_xml(write_bytes("moodle", _pictured_quizzes()[:1]))
    assert root.tag == "quiz"
    category = root.find("question[@type='category']")
    assert category is not None
    assert category.findtext("category/text") == "$course$/Signs & <rules> // 2"
    assert category_title(category.findtext("category/text") or "") == "Signs & <rules> / 2"
    questions = _questions(root)
    assert [(q.get("type"), q.findtext("name/text")) for q in questions] == [
        ("multichoice", "sign"),
        ("multichoice", "three"),
        ("numerical", "range"),
        ("numerical", "pi"),
        ("truefalse", "sky"),
        ("description", "card"),
    ]
    for question in questions:  # every question has the fields import_headers reads
        assert question.find("questiontext/text") is not None
        assert question.find("generalfeedback/text") is not None
    sign, three, ranged, pi, sky, card = questions
    assert sign.findtext("single") == "true"
    assert [a.get("fraction") for a in sign.findall("answer")] == ["100", "0"]
    text = sign.findtext("questiontext/text") or ""
    assert '<img src="@@PLUGINFILE@@/Sign-1.png" alt="A red sign" />' in text
    assert '<pre><code class="language-text">NEVER LEAVE\n  LUGGAGE</code></pre>' in text
    file = sign.find("questiontext/file")
    assert file is not None
    assert (file.get("name"), file.get("path"), file.get("encoding")) == (
        "Sign-1.png",
        "/",
        "base64",
    )
    assert base64.b64decode(file.text or "") == png(40, 30)
    assert [t.text for t in sign.findall("tags/tag/text")] == ["signs", "week 1"]
    # A select-all question: +100/k and -100/k, each one of Moodle's grade options, and the
    # positive ones adding up to 100 % (qtype_multichoice refuses a file otherwise).
    fractions = [float(a.get("fraction") or "") for a in three.findall("answer")]
    assert three.findtext("single") == "false"
    assert fractions == [33.33333, -33.33333, 33.33333, 33.33333, -33.33333]
    assert all(abs(f) in GRADES for f in fractions)
    assert round(sum(f for f in fractions if f > 0) / 100, 2) == 1
    assert (ranged.findtext("answer/text"), ranged.findtext("answer/tolerance")) == (
        "3.25",
        "2.25",
    )
    assert ranged.findtext("showunits") == "3"
    assert (pi.findtext("units/unit/unit_name"), pi.findtext("units/unit/multiplier")) == (
        "rad",
        "1",
    )
    assert [(a.findtext("text"), a.get("fraction")) for a in sky.findall("answer")] == [
        ("true", "0"),
        ("false", "100"),
    ]
    assert card.findtext("defaultgrade") == "0"
    assert [t.text for t in card.findall("tags/tag/text")] == ["quizbot-flashcard"]


@pytest.mark.parametrize("right", [1, 2, 3, 4, 5, 6, 7])
def test_every_select_all_weight_we_write_is_a_moodle_grade(right: int) -> None:
    options = tuple(DraftOption(str(i), i < right) for i in range(8))
    question = DraftQuestion("m", "Pick", options, "", kind=MULTIPLE)
    root = parse_xml(write_bytes("moodle", [DraftQuiz("m", "M", "en", (question,))]))
    fractions = [float(a.get("fraction") or "") for a in root.iter("answer")]
    assert all(abs(f) in GRADES for f in fractions), fractions
    assert round(sum(f for f in fractions if f > 0) / 100, 2) == 1


def test_moodle_scores_a_select_all_question_as_quizbot_does() -> None:
    """Moodle's multiple-answer grade: the chosen answers' fractions added up, kept in [0, 1]."""
    options = tuple(DraftOption(t, c) for t, c in [("a", True), ("b", False), ("c", True),
                                                  ("d", False), ("e", True)])  # fmt: skip
    question = DraftQuestion("m", "Pick", options, "", kind=MULTIPLE)
    root = parse_xml(write_bytes("moodle", [DraftQuiz("m", "M", "en", (question,))]))
    fractions = [float(a.get("fraction") or "") / 100 for a in root.iter("answer")]
    for size in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), size):
            moodle = min(1.0, max(0.0, sum(fractions[i] for i in chosen)))
            ours = score_multiple(chosen, question.answers).fraction
            assert moodle == pytest.approx(ours, abs=1e-6), chosen


def test_the_docs_examples_import_with_what_is_left_out_named_by_line() -> None:
    result = read("docs-examples.xml")
    (quiz,) = result.quizzes
    assert (quiz.id, quiz.title, quiz.description) == (
        "docs-examples",
        "Docs examples",
        "The question types of the Moodle XML page.",
    )
    choice, primes, even, sun, legs, pool = quiz.questions
    assert (choice.id, choice.kind, choice.prompt) == (
        "multiple-choice",
        SINGLE,
        "Which is the correct answer?",
    )
    assert [(o.text, o.correct) for o in choice.options] == [
        ("The correct answer", True),
        ("A distractor", False),
        ("Another distractor", False),
    ]
    assert choice.explanation == (
        "Only one answer is right.\nCorrect!\n“A distractor”: Ooops!\n“Another distractor”: Ooops!"
    )
    assert primes.kind == MULTIPLE and primes.answers == {0, 1}
    assert even.kind == MULTIPLE and even.answers == {0, 2}
    assert sun.kind == TRUE_FALSE
    assert [(o.text, o.correct) for o in sun.options] == [("True", True), ("False", False)]
    assert sun.explanation == "Correct!\n“False”: Ooops!"
    assert (legs.kind, legs.number, legs.explanation) == (
        NUMBER,
        NumberAnswer(value=8.0),
        "Eight legs.",
    )
    assert (pool.kind, pool.number, pool.unit, pool.explanation) == (
        NUMBER,
        NumberAnswer(value=23.0, tolerance=0.5),
        "m",
        "Feedback",
    )
    assert [o.line for o in choice.options] == [28, 32, 36]
    assert messages(result) == [
        "bank.xml:18: note: question “Multiple choice”: feedback on wrong answer B appended to "
        "the explanation (quizbot shows one explanation per question)",
        "bank.xml:18: note: question “Multiple choice”: feedback on wrong answer C appended to "
        "the explanation (quizbot shows one explanation per question)",
        "bank.xml:18: note: question “Multiple choice”: formatting not kept: strong",
        "bank.xml:64: note: question “Even”: answer weights 50, 0, 50 not kept: quizbot scores "
        "(right answers selected - wrong ones selected) / right answers, floored at 0",
        "bank.xml:78: note: question “True or false”: feedback on wrong answer B appended to the "
        "explanation (quizbot shows one explanation per question)",
        "bank.xml:96: skipped: question “Short answer”: a short-answer question (typed words): "
        "not supported; quizbot's typed answers are numbers",
        "bank.xml:114: note: question “Spider legs”: short answer read as a number question "
        "(every answer is a number)",
        "bank.xml:129: note: question “Numerical”: numerical answers left out (quizbot keeps one "
        "value or range): 20 ± 1 (50%)",
        "bank.xml:129: note: question “Numerical”: units left out (quizbot shows one unit): cm",
        "bank.xml:159: skipped: question “Essay”: an essay question (a teacher marks it): not "
        "supported",
        "bank.xml:172: skipped: question “Description”: a description (text without a "
        "question): left out",
        "bank.xml:182: skipped: question “Matching”: matching questions are not supported "
        "(quizbot reads multichoice, truefalse, numerical, and shortanswer when its answers are "
        "numbers)",
    ]


def test_a_french_file_gets_french_true_false_labels() -> None:
    (quiz,) = read("docs-examples.xml", "fr").quizzes
    sun = next(q for q in quiz.questions if q.kind == TRUE_FALSE)
    assert [(o.text, o.correct) for o in sun.options] == [("Vrai", True), ("Faux", False)]


def test_embedded_pictures_come_with_their_alt_text_and_tags() -> None:
    result = read("pictures.xml")
    (quiz,) = result.quizzes
    assert (quiz.id, quiz.title) == ("flags-and-maps", "Flags and maps")
    square, drawn = quiz.questions
    assert square.prompt == "What colour is this square?"
    assert square.image is not None
    assert (square.image.name, square.image.data, square.image.alt) == (
        "grey square.png",
        png(16, 16),
        "A small square",
    )
    assert square.explanation == "Grey: every pixel is 0x80."
    assert square.explanation_image is not None
    assert (square.explanation_image.data, square.explanation_image.alt) == (jpeg(32, 24), "")
    assert square.tags == ("colours", "week 2")
    assert drawn.kind == TRUE_FALSE and drawn.answer == 1 and drawn.image is None
    # Moodle's own "Your answer is correct." and the like are not reported: nobody wrote them.
    assert messages(result) == [
        "bank.xml:51: note: question “Map”: picture https://example.org/map.png is not in the "
        "file (quizbot fetches nothing): left out",
        "bank.xml:51: note: question “Map”: picture legend.png is not in the file: left out",
    ]


def test_each_category_is_a_quiz_titled_after_its_last_part() -> None:
    result = read("categories.xml")
    first, second = result.quizzes
    assert (first.id, first.title, [q.id for q in first.questions]) == (
        "categories",
        "categories",
        ["before-any-category"],
    )
    # moodle_auto_format: the line break is Moodle's <br>.
    assert first.questions[0].prompt == "Water boils at 100 °C\nat sea level."
    assert (second.id, second.title, second.description) == (
        "input-output",
        "Input/output",
        "Questions on input and output.",
    )
    assert [q.id for q in second.questions] == ["keyboard", "keyboard-2"]
    assert [q.answer for q in second.questions] == [0, 1]
    assert messages(result) == ["bank.xml:34: note: question id 'keyboard' taken: using "
                                "'keyboard-2'"]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("$course$/top/Week 1", "Week 1"),
        ("$course$/Week 1/Day 2", "Day 2"),
        ("$system$/top", ""),
        ("Loose//ends", "Loose/ends"),
        ("$course$/top/Default for Course 1", "Default for Course 1"),
    ],
)
def test_a_category_path_names_its_last_part(path: str, title: str) -> None:
    assert category_title(path) == title


def test_every_moodle_fixture_is_exercised() -> None:
    assert {p.name for p in MOODLE.iterdir()} == set(USED)
    for test in USED.values():
        assert test in globals(), test


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    shutil.copy(FIXTURES / "valid" / "guides.yaml", root / "guides.yaml")
    return root


def test_the_command_line_imports_pictures_and_tags_and_exports_them_again(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["import", str(MOODLE / "pictures.xml"), "--format", "moodle", "--out", str(content)]
    assert main(args) == 1  # the answer's picture has no alt text: the checker asks for it
    out = capsys.readouterr().out
    assert "pictures.xml:51: note: question “Map”: picture legend.png is not in the file" in out
    assert (
        "pictures.xml:13: questions.grey-square.explanation_image.alt: empty text: write the text"
    ) in out
    assert not (content / "quizzes").exists()
    with_alt = tmp_path / "pictures.xml"
    data = (MOODLE / "pictures.xml").read_bytes()
    src = b'"@@PLUGINFILE@@/answer.jpg"'
    with_alt.write_bytes(data.replace(src, src + b' alt="The grey square again"'))
    status = main([*args[:1], str(with_alt), *args[2:]])
    out = capsys.readouterr().out
    assert status == 0, out
    written = (content / "quizzes" / "flags-and-maps.yaml").read_text("utf-8")
    assert "    # tags: colours, week 2\n" in written
    assert '      file: "flags-and-maps-grey-square.png"\n      alt: "A small square"' in written
    media = content / "media"
    assert (media / "flags-and-maps-grey-square.png").read_bytes() == png(16, 16)
    assert (media / "flags-and-maps-answer.jpg").read_bytes() == jpeg(32, 24)
    assert check(content).errors == []
    target = tmp_path / "out.xml"
    args = ["export", "flags-and-maps", "--format", "moodle", "--content", str(content)]
    assert main([*args, "--out", str(target)]) == 0
    (back,) = parse_bytes("moodle", target.read_bytes(), "out.xml").quizzes
    square = back.questions[0]
    assert square.image is not None and square.image.data == png(16, 16)
    assert square.tags == ()  # the YAML keeps tags as a comment only


def test_an_uploaded_moodle_file_is_checked_and_its_pictures_left_out() -> None:
    checked = check_upload("bank.xml", (MOODLE / "pictures.xml").read_bytes(), SHIPPED)
    assert checked.fmt == "moodle" and checked.quiz is not None, checked.errors
    assert [q.id for q in checked.quiz.questions] == ["grey-square", "map"]
    said = [(p.line, p.code, str(p.detail)) for p in checked.warnings]
    assert (13, "format", "pictures are not kept in an uploaded quiz: the question is kept "
            "without its picture") in said  # fmt: skip
    refused = check_upload("bank.xml", b"<quiz><question", SHIPPED)
    assert refused.quiz is None


def test_the_shipped_example_imports() -> None:
    """examples/quiz.moodle.xml (our export of examples/quiz.gift under its own category, so the
    upload test can put every example in one group) is what README offers."""
    example = SHIPPED.parent / "examples" / "quiz.moodle.xml"
    result = parse_bytes("moodle", example.read_bytes(), example.name)
    assert result.problems == []
    (quiz,) = result.quizzes
    assert (quiz.id, quiz.title) == (
        "arithmetic-and-geography-moodle",
        "Arithmetic and geography (Moodle)",
    )
    assert [(q.id, q.answer, q.explanation) for q in quiz.questions] == [
        ("sum", 0, "Two and two make four."),
        ("capital", 1, "Dakar has been the capital since independence in 1960."),
    ]


@pytest.mark.parametrize(
    ("single", "kind"),
    [(None, SINGLE), ("true", SINGLE), ("1", SINGLE), ("false", MULTIPLE), ("0", MULTIPLE),
     ("", MULTIPLE)],
)  # fmt: skip
def test_single_is_read_as_moodles_importer_reads_it(single: str | None, kind: str) -> None:
    """qformat_xml::trans_single: "false", and anything PHP finds empty ("", "0"), is several
    answers; a missing <single> is one answer."""
    tag = "" if single is None else f"<single>{single}</single>"
    data = (
        '<?xml version="1.0"?><quiz><question type="multichoice"><name><text>q</text></name>'
        f'<questiontext><text>Pick</text></questiontext>{tag}<answer fraction="100"><text>a'
        '</text></answer><answer fraction="0"><text>b</text></answer></question></quiz>'
    ).encode()
    (quiz,) = parse_bytes("moodle", data, "x").quizzes
    assert quiz.questions[0].kind == kind


def test_answers_and_feedback_take_the_question_texts_format_unless_they_say() -> None:
    """As Moodle's importer: an answer or feedback without `format` is in the question text's."""
    data = (
        b'<?xml version="1.0"?><quiz><question type="multichoice"><name><text>q</text></name>'
        b'<questiontext format="plain_text"><text>Is a &lt;b&gt; tag bold?</text></questiontext>'
        b"<generalfeedback><text>&lt;b&gt; is kept as typed.</text></generalfeedback>"
        b'<answer fraction="100"><text>&lt;b&gt;yes&lt;/b&gt;</text></answer>'
        b'<answer fraction="0" format="html"><text>&lt;b&gt;no&lt;/b&gt;</text></answer>'
        b"</question></quiz>"
    )
    result = parse_bytes("moodle", data, "x")
    (question,) = result.quizzes[0].questions
    assert question.prompt == "Is a <b> tag bold?"
    assert question.explanation == "<b> is kept as typed."
    assert [o.text for o in question.options] == ["<b>yes</b>", "no"]


def test_an_embedded_file_that_is_no_picture_in_the_text_is_named() -> None:
    """A language course's audio (`<a href="@@PLUGINFILE@@/bonjour.mp3">`) has nowhere to go."""
    data = (
        b'<?xml version="1.0"?><quiz><question type="truefalse"><name><text>q</text></name>'
        b'<questiontext format="html"><text>&lt;a href="@@PLUGINFILE@@/bonjour.mp3"&gt;Listen'
        b"&lt;/a&gt;: is it French?</text>"
        b'<file name="bonjour.mp3" encoding="base64">SUQz</file></questiontext>'
        b'<answer fraction="100"><text>true</text></answer>'
        b'<answer fraction="0"><text>false</text></answer></question></quiz>'
    )
    result = parse_bytes("moodle", data, "x")
    assert result.quizzes[0].questions[0].prompt == "Listen: is it French?"
    assert messages(result) == [
        "bank.xml:1: note: question “q”: file bonjour.mp3 left out (quizbot keeps the pictures "
        "a text shows, not sound or documents)"
    ]


def test_a_large_export_is_read_with_a_larger_max_mb(
    content: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A teacher's Moodle export with pictures easily passes 1 MB: the command refuses it by
    default, says how to read it, and reads it with `--max-mb`."""
    data = (MOODLE / "pictures.xml").read_bytes()
    src = b'"@@PLUGINFILE@@/answer.jpg"'
    data = data.replace(src, src + b' alt="The grey square again"')
    big = tmp_path / "big.xml"
    big.write_bytes(data + b"<!-- " + b"x" * 1_200_000 + b" -->\n")  # 1.2 MB
    args = ["import", str(big), "--format", "moodle", "--out", str(content)]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "at most 1000000 are accepted" in out
    assert "larger than --max-mb 1: give a larger --max-mb to read it" in out
    assert not (content / "quizzes").exists()
    assert main([*args, "--max-mb", "5"]) == 0, capsys.readouterr().out
    assert (content / "quizzes" / "flags-and-maps.yaml").is_file()
