"""Quiz content as the rest of the bot sees it: frozen, validated, language-aware.

The content loader builds these from YAML; nothing here knows about files, Telegram or SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from bot.core.kinds import NUMBER_RIGHT, NumberAnswer, QuestionKind

SOURCE_LANGUAGE = "en"


@dataclass(frozen=True, slots=True)
class Text:
    """A translatable string: the English source plus translations, read with fallback."""

    values: Mapping[str, str]

    def get(self, lang: str) -> str:
        """The string in `lang`, falling back to English field by field (never raises)."""
        return self.values.get(lang) or self.values.get(SOURCE_LANGUAGE) or ""

    def has(self, lang: str) -> bool:
        return bool(self.values.get(lang))

    @classmethod
    def plain(cls, text: str) -> Text:
        return cls({SOURCE_LANGUAGE: text})


class Level(StrEnum):
    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"


@dataclass(frozen=True, slots=True)
class GuidePath:
    """A learning guide that quizzes link back to."""

    id: str
    title: Text
    url: Text  # per-language URL where a translated guide exists, else the English one


@dataclass(frozen=True, slots=True)
class Option:
    id: str
    text: Text


@dataclass(frozen=True, slots=True)
class MediaFile:
    """A picture file as checked at load: where to read it and what identifies its bytes.

    `name` is its path under the content's media/ folder; with `sha256` it is the key under
    which Telegram's file_id for it is remembered (a changed file gets a new upload)."""

    name: str
    path: str
    sha256: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Image:
    """A picture with a question or an explanation: one file shared by every language unless
    a language names its own, and alt text per language (for whoever cannot see it)."""

    files: Mapping[str, MediaFile]  # language -> file; the English one always present
    alt: Text

    def file(self, lang: str) -> MediaFile:
        return self.files.get(lang) or self.files[SOURCE_LANGUAGE]


@dataclass(frozen=True, slots=True)
class Question:
    """One question; `correct` indexes `options`, the same in every language.

    `kind` says how it is asked and scored (see `bot.core.kinds`); a `true_false` question has
    the options `true` and `false`, in that order. A `number` question has no options: its key
    is `number`, `unit` its unit per language (empty Text: none), and `correct` is 0, the
    "option" an accepted typed answer is recorded as (`kinds.NUMBER_RIGHT`), so scoring,
    reviews and stats that compare an answer with `correct` need no case of their own.
    A `flashcard` has no options either: `prompt` (and `image`) is its front, `explanation` (and
    `explanation_image`) its back, `correct` is 0, and a rating is recorded as its index
    (`kinds.FLASHCARD_RATINGS`).
    A `multiple` question's key is the set `correct_set` (option indexes); its `correct` is the
    first of them, so that code reading one correct option (a reveal's marker, an old export)
    still names a right one.
    """

    id: str
    prompt: Text
    options: tuple[Option, ...]
    correct: int
    explanation: Text
    kind: QuestionKind = QuestionKind.SINGLE
    number: NumberAnswer | None = None
    unit: Text = Text({})
    correct_set: frozenset[int] = frozenset()
    image: Image | None = None
    explanation_image: Image | None = None

    def __post_init__(self) -> None:
        if self.kind is QuestionKind.NUMBER:
            if self.number is None or self.options or self.correct != NUMBER_RIGHT:
                raise ValueError(f"question {self.id}: a number question has a key, no options")
        elif self.kind is QuestionKind.FLASHCARD:
            if self.options or self.correct != 0 or self.number is not None:
                raise ValueError(f"question {self.id}: a flashcard has no options and no key")
        elif not 0 <= self.correct < len(self.options):
            raise ValueError(f"question {self.id}: correct option {self.correct} out of range")
        if self.kind is QuestionKind.MULTIPLE:
            if not self.correct_set or not all(
                0 <= i < len(self.options) for i in self.correct_set
            ):
                raise ValueError(f"question {self.id}: correct options out of range")
            if self.correct != min(self.correct_set):
                raise ValueError(f"question {self.id}: correct is not the first correct option")
        elif self.correct_set:
            raise ValueError(f"question {self.id}: only a multiple question has correct_set")

    @property
    def key(self) -> frozenset[int]:
        """Every correct option's index: one for single and true_false, a set for multiple."""
        return self.correct_set if self.kind is QuestionKind.MULTIPLE else frozenset({self.correct})

    @property
    def typed(self) -> bool:
        """Whether the learner types the answer (a reply) instead of tapping a button."""
        return self.kind is QuestionKind.NUMBER

    @property
    def flashcard(self) -> bool:
        """Whether it is a flashcard: rated by the learner, never scored (`bot.core.kinds`)."""
        return self.kind is QuestionKind.FLASHCARD


@dataclass(frozen=True, slots=True)
class Quiz:
    id: str
    # None: a group's uploaded quiz whose file names no guide and whose admins picked none.
    guide: GuidePath | None
    level: Level
    title: Text
    description: Text
    questions: tuple[Question, ...]
    # Languages the authors declare complete; others fall back to English per field.
    languages: tuple[str, ...] = (SOURCE_LANGUAGE,)
    # A hash of the quiz's source files: stored with every attempt and answer, so an attempt
    # started before a reload finishes on the content it started with.
    version: str = ""
    # Languages whose translation a native speaker has not reviewed yet (`reviewed: false` in
    # the translation file): the quiz's intro says so and asks for reports.
    unreviewed: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.questions)


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every guide and quiz the bot serves, in the authors' order."""

    guides: Mapping[str, GuidePath]
    quizzes: Mapping[str, Quiz] = field(default_factory=dict)
    # Earlier versions of quizzes, kept after a reload for the attempts still running on them.
    previous: Mapping[tuple[str, str], Quiz] = field(default_factory=dict)

    def quiz(self, quiz_id: str) -> Quiz | None:
        return self.quizzes.get(quiz_id)

    def quiz_at(self, quiz_id: str, version: str) -> Quiz | None:
        """The quiz as it was at `version` (an attempt's), else as it is now."""
        current = self.quizzes.get(quiz_id)
        if not version or (current is not None and current.version == version):
            return current
        return self.previous.get((quiz_id, version), current)

    def succeeding(self, old: Catalog) -> Catalog:
        """This catalogue, remembering `old`'s quizzes whose version changed (see `quiz_at`)."""
        kept = dict(old.previous)
        for quiz in old.quizzes.values():
            kept[quiz.id, quiz.version] = quiz
        for quiz in self.quizzes.values():
            kept.pop((quiz.id, quiz.version), None)
        return Catalog(self.guides, self.quizzes, kept)

    def with_versions(self, quizzes: Iterable[Quiz]) -> Catalog:
        """This catalogue also serving `quizzes` by id and version only: never listed, found by
        `quiz_at` and `known` (a group's uploaded quizzes, reached through their group)."""
        kept = dict(self.previous)
        for quiz in quizzes:
            kept.pop((quiz.id, quiz.version), None)
            kept[quiz.id, quiz.version] = quiz  # last: the latest of its id
        return Catalog(self.guides, self.quizzes, kept)

    def known(self, quiz_id: str) -> Quiz | None:
        """The quiz as listed, else the latest version served by id only (see `with_versions`):
        what a learner's review of a group's own quiz reads."""
        current = self.quizzes.get(quiz_id)
        if current is not None:
            return current
        found = [quiz for (qid, _), quiz in self.previous.items() if qid == quiz_id]
        return found[-1] if found else None

    def versions(self, quiz_id: str) -> list[Quiz]:
        """The quiz as listed, then the earlier versions kept since (newest first): where a set
        under way finds a question a reload took away or changed."""
        current = self.quizzes.get(quiz_id)
        earlier = [quiz for (qid, _), quiz in self.previous.items() if qid == quiz_id]
        return [*([current] if current is not None else []), *reversed(earlier)]

    def known_quizzes(self) -> list[Quiz]:
        """Every quiz `known` finds: the listed ones, then the latest of each id served only by
        version (statistics read answers of both)."""
        latest = {qid: quiz for (qid, _), quiz in self.previous.items() if qid not in self.quizzes}
        return [*self.quizzes.values(), *latest.values()]

    def __iter__(self) -> Iterator[Quiz]:
        return iter(self.quizzes.values())

    def by_guide(self) -> list[tuple[GuidePath, list[Quiz]]]:
        """Quizzes grouped by guide path, guides in declaration order, empty guides left out."""
        groups: dict[str, list[Quiz]] = {}
        for quiz in self.quizzes.values():
            if quiz.guide is not None:
                groups.setdefault(quiz.guide.id, []).append(quiz)
        return [(self.guides[g], qs) for g, qs in groups.items()]
