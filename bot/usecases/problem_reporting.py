"""The "⚠️ Report" flow on an answered private question: open it, pick a reason, add a sentence
or skip it. Each tap returns a typed outcome the adapter only renders.

A button names an attempt and a question index, never a quiz or question id: the attempt must be
the tapper's, its content version still served, and the question answered in it. Anything else
(a forged or foreign attempt id, an index out of range, a question not answered yet) is
`Refused` and nothing is stored. The quiz id, question id and content version stored are the
attempt's, so what the learner saw is what the authors read.

Review and practice cards are no attempts: their button names the round and the card's place in
it (`open_card`), the question is the one the round recorded for that card
(bot/store/review_sessions.py), and only an answered card of the tapper's own round is reportable.
Those cards are served from the content as it is now, so its current version is the one stored.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.engine import Attempt
from bot.core.models import Catalog, Question, Quiz
from bot.core.problem_report import SENTENCE_WAIT_SECONDS, Reason, clean_sentence
from bot.store import LearnerStore
from bot.store.practice_sets import PracticeStore
from bot.store.problem_reports import NewReport, ProblemReportStore
from bot.store.review_sessions import RoundStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref


@dataclass(frozen=True, slots=True)
class Reportable:
    """An answered question of the tapper's own attempt: the reasons may be offered, or the
    answered keyboard shown again."""

    quiz: Quiz
    attempt: Attempt
    index: int


@dataclass(frozen=True, slots=True)
class CardReportable:
    """An answered card of the tapper's own review or practice round (`last`: its way on is
    the round's summary)."""

    quiz: Quiz
    question: Question
    round_id: int
    index: int
    last: bool


@dataclass(frozen=True, slots=True)
class SetReportable:
    """An answered question of the tapper's own /practice set (never an exam's: its verdicts
    wait for its end)."""

    quiz: Quiz
    question: Question
    set_id: int
    index: int


Place = Reportable | CardReportable | SetReportable


@dataclass(frozen=True, slots=True)
class Reported:
    """Stored; the learner's next text within the wait is its sentence (or Skip)."""

    place: Place
    report_id: int
    reason: Reason


@dataclass(frozen=True, slots=True)
class AlreadyReported:
    place: Place
    reason: Reason


@dataclass(frozen=True, slots=True)
class Refused:
    """Not the tapper's attempt, not an answered question of it, or content no longer served."""


@dataclass(frozen=True, slots=True)
class SentenceAdded:
    pass


@dataclass(frozen=True, slots=True)
class NotWaiting:
    """No report waits for a sentence (too late, skipped, already given, or someone else's)."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """The waiting report takes no sentence: the learner's next text is an ordinary one."""


@dataclass(frozen=True, slots=True)
class EmptySentence:
    """Nothing left once control characters are stripped: the report still waits."""


OpenOutcome = Reportable | Refused
CardOutcome = CardReportable | Refused
SetOutcome = SetReportable | Refused
ReportOutcome = Reported | AlreadyReported | Refused
SentenceOutcome = SentenceAdded | NotWaiting | EmptySentence
SkipOutcome = Skipped | NotWaiting | Refused


class ProblemReporting(ServesCatalog):
    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        learners: LearnerStore,
        store: ProblemReportStore,
        *,
        rounds: RoundStore | None = None,
        sets: PracticeStore | None = None,
        clock: Clock = time.time,
    ) -> None:
        self._catalog_ref = catalog_ref(catalog)
        self.learners = learners
        self.store = store
        self.rounds = rounds  # review and practice rounds; None: their cards are not reportable
        self.sets = sets  # /practice sets; None: their questions are not reportable
        self.clock = clock

    async def open(self, user_id: int, attempt_id: int, index: int) -> OpenOutcome:
        """The Report button (and Back from the reasons): only on the tapper's answered question."""
        attempt = await self.learners.attempt(attempt_id)
        if attempt is None or attempt.user_id != user_id:
            return Refused()
        quiz = self.catalog.quiz_at(attempt.quiz_id, attempt.version)
        if quiz is None or (attempt.version and quiz.version != attempt.version):
            return Refused()  # the content changed since: its question ids may not fit
        if not 0 <= index < min(len(quiz), len(attempt.answers)):
            return Refused()
        if attempt.answers[index] is None:
            return Refused()  # a report comes after the answer (and its explanation)
        return Reportable(quiz, attempt, index)

    async def report(
        self, user_id: int, attempt_id: int, index: int, reason: Reason, lang: str
    ) -> ReportOutcome:
        """A reason picked: stored at once (the sentence is optional), once per reason."""
        place = await self.open(user_id, attempt_id, index)
        if isinstance(place, Refused):
            return place
        return await self._store(user_id, place, place.quiz.questions[index].id, reason, lang)

    async def open_card(self, user_id: int, round_id: int, index: int) -> CardOutcome:
        """Report (and Back) on card `index` of a round: the tapper's round, a card answered."""
        stored = await self.rounds.get(round_id) if self.rounds is not None else None
        if stored is None or stored.user_id != user_id:
            return Refused()
        if not 0 <= index < min(stored.answered, len(stored.questions)):
            return Refused()  # not answered yet, or a round begun before cards were kept
        key = stored.questions[index]
        quiz = self.catalog.known(key.quiz_id)
        question = (
            next((q for q in quiz.questions if q.id == key.question_id), None) if quiz else None
        )
        if quiz is None or question is None:
            return Refused()  # the question left the content since
        return CardReportable(quiz, question, round_id, index, index + 1 >= stored.total)

    async def report_card(
        self, user_id: int, round_id: int, index: int, reason: Reason, lang: str
    ) -> ReportOutcome:
        """A reason picked on a round's card: stored as `report` stores a quiz question's."""
        place = await self.open_card(user_id, round_id, index)
        if isinstance(place, Refused):
            return place
        return await self._store(user_id, place, place.question.id, reason, lang)

    async def open_set(self, user_id: int, set_id: int, index: int) -> SetOutcome:
        """Report (and Back) on question `index` of a /practice set: the tapper's own set, that
        question answered; an exam's are refused (no verdict before its end)."""
        stored = await self.sets.get(set_id) if self.sets is not None else None
        if stored is None or stored.user_id != user_id or stored.kind != "practice":
            return Refused()
        if not 0 <= index < min(stored.answered, len(stored.questions)):
            return Refused()
        key = stored.questions[index]
        quiz = self.catalog.known(key.quiz_id)
        question = (
            next((q for q in quiz.questions if q.id == key.question_id), None) if quiz else None
        )
        if quiz is None or question is None:
            return Refused()  # the question left the content since
        return SetReportable(quiz, question, set_id, index)

    async def report_set(
        self, user_id: int, set_id: int, index: int, reason: Reason, lang: str
    ) -> ReportOutcome:
        """A reason picked on a practice set's question: stored as `report` stores one."""
        place = await self.open_set(user_id, set_id, index)
        if isinstance(place, Refused):
            return place
        return await self._store(user_id, place, place.question.id, reason, lang)

    async def _store(
        self, user_id: int, place: Place, question_id: str, reason: Reason, lang: str
    ) -> ReportOutcome:
        now = self.clock()
        new = NewReport(
            user_id=user_id,
            quiz_id=place.quiz.id,
            question_id=question_id,
            lang=lang,
            content_version=place.quiz.version,
            reason=reason.value,
        )
        made = await self.store.add(new, now, now + SENTENCE_WAIT_SECONDS)
        if made is None:
            return AlreadyReported(place, reason)
        return Reported(place, made, reason)

    async def waiting(self, user_id: int) -> bool:
        """Whether the learner's next text would be a report's sentence (a read, no write)."""
        return await self.store.waiting(user_id, self.clock()) is not None

    async def sentence(self, user_id: int, text: str) -> SentenceOutcome:
        """A private text message: the sentence of the learner's waiting report, if one waits."""
        now = self.clock()
        report_id = await self.store.waiting(user_id, now)
        if report_id is None:
            return NotWaiting()
        cleaned = clean_sentence(text)
        if not cleaned:
            return EmptySentence()
        added = await self.store.add_text(user_id, report_id, cleaned, now)
        return SentenceAdded() if added else NotWaiting()

    async def skip(self, user_id: int, report_id: int) -> SkipOutcome:
        """The Skip button: `NotWaiting` when the tapper's report no longer waits (its sentence
        came, or Skip was tapped already), `Refused` when they have no report of that id."""
        skipped = await self.store.skip(user_id, report_id)
        if skipped is None:
            return Refused()
        return Skipped() if skipped else NotWaiting()

    async def counts(self, quiz_ids: Iterable[str]) -> dict[tuple[str, str], int]:
        """Reports per (quiz id, question id), every learner's: /groupstats shows counts only."""
        return await self.store.counts(quiz_ids)
