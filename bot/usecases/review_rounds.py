"""Review and practice rounds: /review, "Practise my mistakes now", their cards, Next, /stop.

A *review round* goes through the questions due now, most overdue first; each answer is rated
and rescheduled by FSRS (bot/usecases/spaced_review.py), timed from its card being shown. A
*practice round* asks missed questions that are not due yet, right after a quiz for instance,
when nothing is due.

Practice answers are recorded only as the round's own counters (right answers out of how many,
for its "k of n" and its summary), nowhere else, on purpose:
- not in `answers`: its trigger feeds the review inbox, so a wrong practice answer would rate the
  question Again, due tomorrow, and a right one would count in quiz scores, accuracy and
  /groupstats, which describe quizzes taken, not questions rehearsed with the answer fresh;
- not in `review_log`: that is the schedule's own history (and evidence to tune its intervals);
  answers given before the question is due would read as recall after the interval, which they
  are not.
So the schedule (FSRS states, due dates) is exactly what it was before the round. The round's latest
answer still counts as a day's activity for the streak (bot/store/analytics.py), as /practice does.

Every kind of answer on a card (a tap, a typed value, select-all toggles and Submit) is bound
and judged one way, in bot/usecases/round_answers.py, which `ReviewRounds` extends with the
round's life.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.kinds import QuestionKind
from bot.core.practice import QuestionKey
from bot.core.review import encode_order, review_order
from bot.store.review_sessions import PRACTICE, REVIEW, RoundStore, StoredRound
from bot.store.selections import SelectionStore
from bot.usecases.outcomes import AlreadyAnswered as AlreadyAnswered  # a card's outcomes are
from bot.usecases.outcomes import NotYours  # named here too (tests/store/test_review_rounds.py)
from bot.usecases.round_answers import CardAnswered as CardAnswered
from bot.usecases.round_answers import RoundAnswers, RoundCard, RoundOver
from bot.usecases.spaced_review import SpacedReview

PRACTICE_MAX = 10  # questions in one practice round: a short round, not a second quiz


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round's end: how it went and what comes next (the offer needs `user_id`)."""

    user_id: int
    practice: bool
    answered: int
    correct: int
    next_due_at: float | None  # None: the queue is empty
    due_now: int
    practisable: int  # questions a practice round would ask now (0: no offer)


@dataclass(frozen=True, slots=True)
class NothingDue:
    user_id: int
    next_at: float | None  # None: the queue is empty
    practisable: int


@dataclass(frozen=True, slots=True)
class NothingToPractise:
    """Nothing is waiting that is not due: the queue is empty, or all of it is due (`due_now`)."""

    due_now: int


@dataclass(frozen=True, slots=True)
class InExam:
    """The learner is in an exam: no round starts until it ends, since a card would show the
    verdict or the key of a question the exam asks (bot/usecases/practice_session.py)."""


@dataclass(frozen=True, slots=True)
class AlreadyShown:
    """A second tap on the same Next: what it shows is already in the chat."""


@dataclass(frozen=True, slots=True)
class Stopped:
    practice: bool
    answered: int
    total: int
    correct: int
    message_id: int | None  # the open card, whose buttons go


@dataclass(frozen=True, slots=True)
class NothingOpen:
    pass


StartOutcome = RoundCard | RoundSummary | NothingDue | AlreadyShown | InExam
PractiseOutcome = RoundCard | RoundSummary | NothingToPractise | NotYours | AlreadyShown | InExam
NextOutcome = RoundCard | RoundSummary | AlreadyShown | RoundOver | NotYours


class ReviewRounds(RoundAnswers):
    """A round's life; the answers to its cards are `RoundAnswers`'."""

    # Whether a learner is in an exam (PracticeSession.exam_running); None: exams never wait.
    exam_running: Callable[[int], Awaitable[bool]] | None = None

    def __init__(
        self,
        review: SpacedReview,
        rounds: RoundStore,
        *,
        clock: Clock = time.time,
        exam_running: Callable[[int], Awaitable[bool]] | None = None,
        selections: SelectionStore | None = None,
    ):
        # The select-all cards' pending toggles (bot/compose.py passes them; else the rounds'
        # own database's, for a round built alone as tests/store builds it).
        super().__init__(review, rounds, selections or SelectionStore(rounds.db), clock)
        self.exam_running = exam_running

    # -- starting ------------------------------------------------------------------------------

    async def start_review(self, user_id: int) -> StartOutcome:
        """/review (and a reminder's button): a new round of what is due now, or when the next
        question falls due with the offer to practise the others now."""
        if await self._in_exam(user_id):
            return InExam()
        due = await self.review.due_count(user_id)
        if not due:
            return NothingDue(
                user_id,
                await self.review.store.next_due_at(user_id),
                await self._practisable(user_id, due),
            )
        round_id = await self.rounds.start(user_id, REVIEW, [], self.clock())
        return await self._serve(round_id, 0)

    async def start_practice(self, user_id: int, for_user: int) -> PractiseOutcome:
        """ "Practise my mistakes now" (the button names the learner it was made for)."""
        if user_id != for_user:
            return NotYours()
        if await self._in_exam(user_id):
            return InExam()
        await self.review.sync()
        now = self.clock()
        items = await self.review.store.not_due(user_id, now, PRACTICE_MAX)
        keys = [
            QuestionKey(i.quiz_id, i.question_id)
            for i in items
            if self.review.question(i.quiz_id, i.question_id) is not None
        ]
        if not keys:
            return NothingToPractise(await self.review.due_count(user_id))
        round_id = await self.rounds.start(user_id, PRACTICE, keys, now)
        return await self._serve(round_id, 0)

    async def next(self, user_id: int, round_id: int, index: int) -> NextOutcome:
        """Next after card `index - 1`: card `index`, or the summary once nothing is left."""
        stored = await self.rounds.get(round_id)
        if stored is None or stored.user_id != user_id:
            return NotYours()
        if stored.status == "stopped":
            return RoundOver()
        if stored.shown > index or (stored.status == "done" and index >= stored.answered):
            return AlreadyShown()
        if index != stored.answered:
            return RoundOver()  # forged: no Next of ours points past the card awaited
        return await self._serve(round_id, index)

    async def card_sent(self, round_id: int, message_id: int) -> bool:
        """Record the round's open card; False: the round was stopped while the card was on its
        way (a fast /stop found no message to strip), so the caller removes its buttons."""
        return await self.rounds.card_sent(round_id, message_id)

    async def stop(self, user_id: int) -> Stopped | NothingOpen:
        """/stop: end the learner's open round; what it had reached, for the message. Read
        first: most /stops are about a quiz, and a read is one trip where the write is a
        transaction (issue 32); the write still ends only a round that is open."""
        if await self.rounds.open_round(user_id) is None:
            return NothingOpen()
        stored = await self.rounds.stop(user_id, self.clock())
        if stored is None:
            return NothingOpen()
        return Stopped(
            stored.mode == PRACTICE,
            stored.answered,
            stored.total,
            stored.correct,
            stored.message_id,
        )

    # -- inside --------------------------------------------------------------------------------

    async def _in_exam(self, user_id: int) -> bool:
        return self.exam_running is not None and await self.exam_running(user_id)

    async def _serve(self, round_id: int, index: int) -> RoundCard | RoundSummary | AlreadyShown:
        stored = await self.rounds.get(round_id)
        assert stored is not None
        if stored.mode == PRACTICE:
            located = self.located(stored, index)
            if located is None and index < len(stored.questions):
                stored = await self._without_gone(stored, index)
                located = self.located(stored, index)
            if located is None:
                return await self._finish(stored)
            quiz, question = located
            total = len(stored.questions)
            shuffle = question.kind is not QuestionKind.TRUE_FALSE
            order = review_order(len(question.options), self.review.rng, shuffle)
            kept = encode_order(order)
            if not await self.rounds.claim_card(
                round_id, index, total, now=self.clock(), order=kept
            ):
                return AlreadyShown()
            return RoundCard(round_id, index, total, True, quiz, question, order)
        card = await self.review.next_card(stored.user_id)
        if card is None:
            return await self._finish(stored)
        total = index + await self.review.due_count(stored.user_id)
        key = QuestionKey(card.item.quiz_id, card.item.question_id)  # for its ⚠️ Report
        kept = encode_order(card.order)
        if not await self.rounds.claim_card(
            round_id, index, total, key, now=self.clock(), order=kept
        ):
            return AlreadyShown()
        return RoundCard(
            round_id,
            index,
            total,
            False,
            card.quiz,
            card.question,
            card.order,
            card.item_id,
            await self.review.recall_of(card.item),
        )

    async def _without_gone(self, stored: StoredRound, index: int) -> StoredRound:
        """The practice round without the questions not asked yet that left the content since
        it began (a reload): it goes on to the others, as the queue drops them too."""
        later = stored.questions[index:]
        left = [k for k in later if self.review.question(k.quiz_id, k.question_id) is not None]
        await self.rounds.replan(stored.id, index, [*stored.questions[:index], *left])
        fresh = await self.rounds.get(stored.id)
        assert fresh is not None
        return fresh

    async def _finish(self, stored: StoredRound) -> RoundSummary | AlreadyShown:
        if not await self.rounds.finish(stored.id, self.clock()):
            return AlreadyShown()
        user_id = stored.user_id
        due = await self.review.due_count(user_id)
        return RoundSummary(
            user_id,
            stored.mode == PRACTICE,
            stored.answered,
            stored.correct,
            await self.review.store.next_due_at(user_id),
            due,
            await self._practisable(user_id, due),
        )

    async def _practisable(self, user_id: int, due: int) -> int:
        queued = await self.review.store.queue_size(user_id)
        return min(PRACTICE_MAX, queued - due)
