"""The neutral quiz draft that every import format parses into and every export format writes.

Pure data and small helpers: no files, no YAML, no Telegram, so the same parsers can later read
a file an admin uploads in chat. The input is untrusted there: `Limits` bounds what a parser
accepts (bytes, questions, options, characters per text), and every parser is a linear scan.

Single-choice questions (`kind="single"`: one option has `correct=True`), true/false
(`kind="true_false"`: the options True then False) and numbers (`kind="number"`: no options,
the key in `number`), select-all (`kind="multiple"`) and flashcards (`kind="flashcard"`: no
options, the prompt is the front and the explanation the back; only YAML and the CSV layout carry
them: GIFT and Aiken have no such question).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from bot.content.problems import N_, Msg
from bot.core.kinds import NumberAnswer

SINGLE = "single"
TRUE_FALSE = "true_false"  # options True then False, ids `true` and `false` in YAML
NUMBER = "number"  # no options; `DraftQuestion.number` is the key
MULTIPLE = "multiple"  # select every right option: several options have `correct=True`
FLASHCARD = "flashcard"  # no options: the prompt is the front, the explanation the back
OPTION_IDS = "abcdefghij"


@dataclass(frozen=True, slots=True)
class Limits:
    """What a parser accepts from one file; beyond these it reports and stops or skips."""

    max_bytes: int = 1_000_000
    max_questions: int = 1_000
    max_options: int = len(OPTION_IDS)
    max_text_chars: int = 4_096

    def __post_init__(self) -> None:
        # Options are lettered A to J (ids a to j): a larger bound would reach past the letters.
        if not 2 <= self.max_options <= len(OPTION_IDS):
            raise ValueError(f"a question has at most {len(OPTION_IDS)} options")


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class FormatProblem:
    """Something in the input that the draft does not carry as written, at a 1-based line.

    `skipped` is True when a whole question (or the rest of the file) was left out; otherwise
    the question was kept and the message says what changed.
    """

    line: int
    message: str
    skipped: bool = False

    def format(self, name: str) -> str:
        what = "skipped" if self.skipped else "note"
        return f"{name}:{self.line}: {what}: {self.message}"


@dataclass(frozen=True, slots=True)
class DraftOption:
    text: str
    correct: bool = False
    # Where it starts in the input (0: not from a file, or on its question's line). Not part of
    # equality: a round trip through a writer need not keep lines.
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class DraftPicture:
    """A picture a file carries inside it (Moodle's base64 `<file>`, a QTI package's or an Anki
    deck's media): its bytes travel with the draft, and the importer writes them under
    content/media/ beside the quiz (`name` is a suggestion: the importer makes it safe and unique).
    `alt` is the file's own description of it ("" when it has none: the checker then asks)."""

    name: str
    data: bytes = field(repr=False)
    alt: str = ""


@dataclass(frozen=True, slots=True)
class DraftQuestion:
    id: str
    prompt: str
    options: tuple[DraftOption, ...]
    explanation: str = ""
    line: int = 0  # where it starts in the input (0: not from a file)
    kind: str = SINGLE
    number: NumberAnswer | None = None  # kind NUMBER only: value ± tolerance or low..high
    unit: str = ""  # kind NUMBER only: the unit shown after the value (Moodle's, QTI's)
    image: DraftPicture | None = None  # shown with the question (single, true_false, flashcard)
    explanation_image: DraftPicture | None = None  # shown with the explanation
    tags: tuple[str, ...] = ()  # the file's own labels (Moodle <tags>, Anki tags), as a comment

    @property
    def keyed(self) -> bool:
        """Whether the draft says what is right (a right option, or a number question's key)."""
        if self.kind == FLASHCARD:
            return True  # nothing to key: the learner rates their own recall
        return self.number is not None if self.kind == NUMBER else self.answer >= 0

    @property
    def answers(self) -> frozenset[int]:
        """Indexes of every right option (several for `multiple`; empty in a translation)."""
        return frozenset(i for i, option in enumerate(self.options) if option.correct)

    @property
    def answer(self) -> int:
        """Index of the right option (single choice); -1 in a translation that leaves it out."""
        return next((i for i, option in enumerate(self.options) if option.correct), -1)


@dataclass(frozen=True, slots=True)
class DraftQuiz:
    """One quiz in one language. A file in several languages parses into one draft each."""

    id: str
    title: str
    lang: str
    questions: tuple[DraftQuestion, ...]
    description: str = ""
    line: int = 0


@dataclass(slots=True)
class ParseResult:
    quizzes: list[DraftQuiz] = field(default_factory=list)
    problems: list[FormatProblem] = field(default_factory=list)

    def note(self, line: int, message: str) -> None:
        self.problems.append(FormatProblem(line, message))

    def skip(self, line: int, message: str) -> None:
        self.problems.append(FormatProblem(line, message, skipped=True))


_NOT_ID = re.compile(r"[^a-z0-9]+")
# C0/C1 controls other than tab and newline: YAML cannot carry them as plain text and Telegram
# shows them as boxes.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")


SEVERAL_ANSWERS = N_(
    "several right answers ({answer}): this format has one right option per question; "
    "write a select-all question (kind: multiple) in YAML or GIFT"
)


def several_letters(answer: str, letters: str) -> bool:
    """Whether an answer cell names several options ("A,C", "A C", "AC")."""
    named = [ch for ch in answer.upper() if ch not in " ,;/"]
    return len(named) > 1 and all(ch in letters for ch in named) and len(set(named)) == len(named)


def slug(text: str, fallback: str, max_chars: int = 32) -> str:
    """A stable id from a title: lowercase letters, digits and dashes, never empty. Accents come
    off first ("Révision générale" -> revision-generale, Wolof "ñeent" -> neent), so that a
    French or Wolof title does not lose its accented letters to dashes."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(ch)
    )
    out = _NOT_ID.sub("-", bare).strip("-")[:max_chars].strip("-")
    return out or fallback


def unique(wanted: str, taken: set[str]) -> str:
    candidate, n = wanted, 2
    while candidate in taken:
        suffix = f"-{n}"
        candidate = wanted[: 32 - len(suffix)] + suffix
        n += 1
    taken.add(candidate)
    return candidate


def clean_text(text: str, line: int, result: ParseResult, limits: Limits) -> str:
    """Control characters removed and overlong text cut, each reported at `line`."""
    if _CONTROL.search(text):
        text = _CONTROL.sub("", text)
        result.note(line, Msg(N_("control characters removed")))
    if len(text) > limits.max_text_chars:
        result.note(line, Msg(N_("text cut to {n} characters"), n=limits.max_text_chars))
        text = text[: limits.max_text_chars]
    return text


def too_big(text: str, result: ParseResult, limits: Limits) -> bool:
    """True (and reported) when the input exceeds the byte limit: nothing is parsed then."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        result.skip(
            1,
            Msg(
                N_("the file is {size} bytes; at most {most} are accepted"),
                size=size,
                most=limits.max_bytes,
            ),
        )
        return True
    return False


def option_letter(index: int) -> str:
    """A, B... for an option's position; past the letters (never for a parsed question, whose
    options `Limits` bounds) its number, so a report never raises."""
    return OPTION_IDS[index].upper() if 0 <= index < len(OPTION_IDS) else f"#{index + 1}"


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines an editor shows: split at \\n, \\r\\n and \\r only. `str.splitlines` also splits
    at form feeds, U+2028 and other separators, which would put every later line number off
    from the uploader's own file."""
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines
