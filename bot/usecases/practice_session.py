"""Use cases of /practice and /exam: a set of questions answered one by one, the score at the end.

Sets and exams ask the kinds answered by one tap (`kinds.ONE_TAP`: single, true/false); a
select-all question needs toggles and Submit, which these screens do not have, so it is asked
in the quiz itself, in groups and in /review.

Practice: choose guides, a level and a length; each answer is explained at once. Exam: one quiz
against a clock (seconds per question, or a total), no explanation until the end, then every
explanation. Time is checked, with the session's Clock, when an answer arrives: one given after
its time counts as missed, and once a total clock has run out the next tap ends the exam with
every unanswered question missed (no timer needed, nothing to re-arm after a restart).

Questions come from every quiz that matches, drawn by bot/core/practice.py so none repeats until
the learner has seen them all. A missed question joins the review queue as a miss anywhere does
(FSRS's Again, due the next day in the learner's zone), by this use case, since practice
answers are not rows of `answers` that the review inbox trigger would see: a practice set's at
once, an exam's when the exam ends, however it ends (its last answer, its clock, /stop, a new
set or exam in its place; the store queues them in the write that ends it). Until then a review
card of an exam question would give away the verdict the exam keeps for its end, so while an
exam runs review and practice rounds wait too (bot/usecases/review_rounds.py asks `exam_running`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from datetime import tzinfo
from zoneinfo import ZoneInfo

from fsrs import Scheduler

from bot.core.clock import Clock
from bot.core.engine import Judgement, judge
from bot.core.exam import PER_QUESTION_CHOICES, TOTAL_CHOICES, Exam, ExamClock
from bot.core.kinds import ONE_TAP, QuestionKind
from bot.core.models import Catalog, Level, Question, Quiz
from bot.core.practice import LENGTHS, QuestionKey, draw, matching_quizzes, pool_of
from bot.core.review import DEFAULT_SCHEDULER, ReviewItem, after_miss
from bot.store.practice_sets import Ended, PracticeStore, StoredSet
from bot.store.reviews import ReviewStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.practice_outcomes import (
    ExamStopped,
    ExamTimeIsUp,
    ExamUnderWay,
    ExamWaits,
    NothingMatches,
    PracticeAnswered,
    PracticeClosed,
    PracticeQuestion,
    RunningExam,
)

DOUBLE_TAP = 10.0  # seconds in which a second tap on an exam's clock choice is the same tap


class PracticeSession(ServesCatalog):
    # A learner's own zone by user id (LearnerReminders.zone); None: `timezone` for everyone.
    zone_of: Callable[[int], Awaitable[str]] | None = None

    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        store: PracticeStore,
        reviews: ReviewStore,
        *,
        timezone: str = "UTC",
        clock: Clock = time.time,
        rng: random.Random | None = None,
        zone_of: Callable[[int], Awaitable[str]] | None = None,
        fsrs_of: Callable[[], Scheduler] | None = None,
    ) -> None:
        self.zone_of = zone_of  # a /practice miss is due on the learner's next day
        self._catalog_ref = catalog_ref(catalog)
        self.store = store
        self.reviews = reviews
        self.tz = ZoneInfo(timezone)
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        # The deployment's FSRS (SpacedReview.fsrs, its stored parameters once read); None:
        # the package's defaults.
        self.fsrs_of = fsrs_of  # and scheduled by the review's FSRS (its parameters may change)

    def _fsrs(self) -> Scheduler:
        return self.fsrs_of() if self.fsrs_of else DEFAULT_SCHEDULER

    async def _zone(self, user_id: int) -> tzinfo:
        return ZoneInfo(await self.zone_of(user_id)) if self.zone_of else self.tz

    def _ended(self, tz: tzinfo, now: float) -> Ended:
        """What the store queues when a set ends: an exam's misses (questions still in the
        content), rated Again from the moment it ended; nothing for a practice set (queued
        already)."""

        def misses(ended: StoredSet) -> list[ReviewItem]:
            if ended.kind != "exam":
                return []
            return [
                after_miss(ended.user_id, key.quiz_id, key.question_id, now, tz, self._fsrs())
                for key, mark in zip(ended.questions, ended.marks, strict=False)
                if mark != "r" and self._located(key) is not None
            ]

        return misses

    async def exam_running(self, user_id: int) -> bool:
        """Whether the learner is in an exam: its verdicts and keys wait for its end. "No" may
        be kept in memory by the store (one process: bot/store/no_exam.py, docs/caches.md)."""
        return await self.store.running_exam(user_id) is not None

    async def stop_exam(self, user_id: int) -> ExamStopped | None:
        """/stop: the learner's running exam ends here, its misses joining the review queue;
        None when no exam is running. Asked first (most often answered from memory: see
        `exam_running`), so a /stop about a quiz writes nothing here (issue 32)."""
        if not await self.exam_running(user_id):
            return None
        now = self.clock()
        ended = self._ended(await self._zone(user_id), now)
        stopped = await self.store.stop_exam(user_id, now, ended)
        if stopped is None:
            return None
        return ExamStopped(stopped.id, stopped.answered, len(stopped.questions), stopped.correct)

    def _located(self, key: QuestionKey) -> tuple[Quiz, Question] | None:
        quiz = self.catalog.quiz(key.quiz_id)
        found = next((q for q in quiz.questions if q.id == key.question_id), None) if quiz else None
        return (quiz, found) if quiz and found else None

    def _drawn(self, key: QuestionKey, options: int) -> tuple[Quiz, Question] | None:
        """The question a set drew, as the content has it now or else as the newest earlier
        version with it and the options its stored order shuffled: a set under way finishes on
        the questions it started with when a reload removes or reshapes one (as an attempt
        does; earlier versions are kept in memory only, so not across a restart)."""
        for quiz in self.catalog.versions(key.quiz_id):
            found = next((q for q in quiz.questions if q.id == key.question_id), None)
            if found is not None and len(found.options) == options:
                return quiz, found
        return None

    def _question(
        self, stored: StoredSet, index: int, shown_at: float | None = None
    ) -> PracticeQuestion | None:
        order = stored.orders[index]
        located = self._drawn(stored.questions[index], len(order))
        if located is None:
            return None
        quiz, question = located
        exam = None
        if stored.exam_clock is not None and stored.exam_seconds is not None:
            shown = shown_at if shown_at is not None else (stored.shown_at or stored.started_at)
            exam = Exam(ExamClock(stored.exam_clock), stored.exam_seconds, stored.started_at, shown)
        return PracticeQuestion(
            stored.id, index, len(stored.questions), quiz, question, order, exam
        )

    async def start_exam(
        self, user_id: int, quiz_id: str, clock: ExamClock, seconds: float
    ) -> PracticeQuestion | NothingMatches | ExamUnderWay:
        """Quiz `quiz_id` against `clock`; a running set or exam is abandoned, except the same
        exam started within `DOUBLE_TAP` seconds and not yet answered (a double tap)."""
        quiz = self.catalog.quiz(quiz_id)
        allowed = PER_QUESTION_CHOICES if clock is ExamClock.PER_QUESTION else TOTAL_CHOICES
        if quiz is None or not any(q.kind in ONE_TAP for q in quiz.questions):
            return NothingMatches()
        if seconds not in allowed:
            return NothingMatches()
        asked = [q for q in quiz.questions if q.kind in ONE_TAP]  # as in practice sets
        questions = [QuestionKey(quiz.id, q.id) for q in asked]
        running = await self.store.running_exam(user_id)
        if (
            running is not None
            and running.answered == 0
            and running.questions[:1] == tuple(questions[:1])
            and (running.exam_clock, running.exam_seconds) == (clock.value, seconds)
            and self.clock() - running.started_at < DOUBLE_TAP
        ):
            return ExamUnderWay()
        orders = []
        for question in asked:
            order = list(range(len(question.options)))
            if question.kind is not QuestionKind.TRUE_FALSE:
                self.rng.shuffle(order)
            orders.append(order)
        now = self.clock()
        ended = self._ended(await self._zone(user_id), now)
        set_id = await self.store.start(
            user_id, questions, orders, None, now, ended, exam=(clock.value, seconds)
        )
        stored = await self.store.get(set_id)
        first = self._question(stored, 0) if stored else None
        return first if first is not None else NothingMatches()

    async def start(
        self, user_id: int, guides: set[str], level: Level | None, length: int
    ) -> PracticeQuestion | NothingMatches:
        """A new set of `length` questions; any set still running is abandoned."""
        pool = pool_of(matching_quizzes(self.catalog, guides, level))
        if length not in LENGTHS or not pool:
            return NothingMatches()
        drawn = draw(pool, await self.store.seen(user_id), length, self.rng)
        orders = []
        for key in drawn.questions:
            located = self._located(key)
            assert located is not None  # the pool came from the catalogue
            order = list(range(len(located[1].options)))
            if located[1].kind is not QuestionKind.TRUE_FALSE:
                self.rng.shuffle(order)
            orders.append(order)
        now = self.clock()
        set_id = await self.store.start(
            user_id,
            drawn.questions,
            orders,
            sorted(drawn.seen, key=QuestionKey.encode),
            now,
            self._ended(await self._zone(user_id), now),
        )
        stored = await self.store.get(set_id)
        first = self._question(stored, 0) if stored else None
        return first if first is not None else NothingMatches()

    async def answer(
        self, user_id: int, set_id: int, index: int, position: int
    ) -> PracticeAnswered | PracticeClosed | ExamTimeIsUp:
        stored = await self.store.get(set_id)
        if stored is None or stored.user_id != user_id:
            return PracticeClosed()
        if stored.kind == "exam" and 0 <= index < len(stored.marks) and stored.marks[index] == "t":
            return ExamTimeIsUp()  # its timer (or a later tap) already counted it missed
        if stored.status != "active":
            return PracticeClosed()
        if index != stored.answered or not 0 <= index < len(stored.questions):
            return PracticeClosed()
        asked = self._question(stored, index)
        judgement = judge(asked.question, asked.order, index, position) if asked else None
        if asked is None or judgement is None:
            return PracticeClosed()
        now = self.clock()
        total = len(stored.questions)
        if asked.exam is not None and asked.exam.over(now):
            marks = "t" * (total - index)  # the total time ran out: the rest is missed
        elif asked.exam is not None and not asked.exam.accepts(now):
            marks = "t"
        else:
            marks = "r" if judgement.is_correct else "w"
        picks = () if marks[0] == "t" else (asked.question.options[judgement.option_index].id,)
        at = _ran_out_at(asked, marks, total, now)
        return await self._record(stored, asked, judgement, marks, at, picks)

    async def time_up(
        self, set_id: int, index: int
    ) -> PracticeAnswered | PracticeClosed | ExamWaits:
        """An exam's timer for question `index`: once its time is up on the bot's clock, the
        question (a total clock: every question left) counts as missed. Idempotent: a set that
        moved on, ended or was abandoned is left alone, so a timer firing twice, or after a tap
        that beat it, changes nothing."""
        stored = await self.store.get(set_id)
        if stored is None or stored.status != "active" or stored.answered != index:
            return PracticeClosed()
        asked = self._question(stored, index) if 0 <= index < len(stored.questions) else None
        if asked is None or asked.exam is None:
            return PracticeClosed()
        now = self.clock()
        if now < asked.exam.deadline():
            return ExamWaits(asked.exam.deadline() - now)
        total = len(stored.questions)
        per_question = asked.exam.clock is ExamClock.PER_QUESTION
        marks = "t" if per_question else "t" * (total - index)
        at = _ran_out_at(asked, marks, total, now)
        return await self._record(stored, asked, None, marks, at, ())

    async def running_exams(self) -> list[RunningExam]:
        """Every exam still running, with its current deadline (start-up re-arms the timers)."""
        running = []
        for stored in await self.store.running_exams():
            if stored.answered >= len(stored.questions):
                continue
            asked = self._question(stored, stored.answered)
            deadline = asked.exam.deadline() if asked and asked.exam else self.clock()
            running.append(RunningExam(stored.id, stored.user_id, stored.answered, deadline))
        return running

    async def _record(
        self,
        stored: StoredSet,
        asked: PracticeQuestion,
        judgement: Judgement | None,
        marks: str,
        now: float,
        picks: tuple[str, ...] = (),
    ) -> PracticeAnswered | PracticeClosed:
        """Store `marks` from the asked question on, queue the misses for review (an exam's
        once it is over, by the store in the same write), and say what comes next (the next
        question, or the results of an exam that is over)."""
        set_id, index, user_id = stored.id, asked.index, stored.user_id
        total = len(stored.questions)
        tz = await self._zone(user_id)
        ended = self._ended(tz, now)
        if not await self.store.answer(set_id, index, marks, total, now, ended, picks):
            return PracticeClosed()  # a double tap lost the race: the first one counted
        if stored.kind != "exam":  # a practice miss joins the queue at once (an exam's: above)
            misses = [
                after_miss(user_id, key.quiz_id, key.question_id, now, tz, self._fsrs())
                for key, mark in zip(stored.questions[index:], marks, strict=False)
                if mark != "r" and self._located(key) is not None
            ]
            if misses:
                await self.reviews.ingest(misses, [])
        correct = stored.correct + marks.count("r")
        done = index + len(marks)
        following = self._question(stored, done, shown_at=now) if done < total else None
        marked: tuple[tuple[PracticeQuestion, str], ...] = ()
        picked: tuple[str, ...] = ()
        if asked.exam is not None and done >= total:
            all_marks = stored.marks + marks
            before = (*stored.picks, *[""] * (len(stored.marks) - len(stored.picks)))
            all_picks = (*before, *picks, *[""] * (len(marks) - len(picks)))
            shown = [(q, i) for i in range(total) if (q := self._question(stored, i)) is not None]
            marked = tuple((q, all_marks[i]) for q, i in shown)
            picked = tuple(all_picks[i] for _, i in shown)
        return PracticeAnswered(
            asked,
            judgement if judgement is not None and marks[0] != "t" else None,
            following,
            correct,
            done - correct,
            marked,
            picked,
        )


def _ran_out_at(asked: PracticeQuestion, marks: str, total: int, now: float) -> float:
    """When marks that end an exam because its time ran out were earned: at its deadline, not
    when the bot noticed (a timer fired late after a restart, a tap the next day), so that its
    finish, the review of its misses and the streak's day are the clock's. A question timed out
    mid-exam keeps `now`: the next question is shown then, and its own clock starts there."""
    ends = asked.index + len(marks) >= total
    if asked.exam is None or not marks.startswith("t") or not ends:
        return now
    return min(now, asked.exam.deadline())
