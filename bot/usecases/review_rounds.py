"""Review and practice rounds: /review, the taps on its cards, "Practise my mistakes now", /stop.

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

Each tap is bound to its round, the round to its learner, the card to the round's progress
(`index` must be the card it waits for), and the queue item a review card's buttons name to the
question that card showed (a practice card names none), so another learner's forged data, the
learner's own other due item, a double tap, a stale card after /stop or a newer round all change
nothing and say why.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.engine import Judgement, SetJudgement, judge, judge_number, judge_rating
from bot.core.kinds import QuestionKind
from bot.core.models import Question, Quiz
from bot.core.practice import QuestionKey
from bot.core.review import ReviewItem, decode_order, review_order
from bot.store.review_sessions import PRACTICE, REVIEW, RoundStore, StoredRound
from bot.usecases.outcomes import AlreadyAnswered, NotYours
from bot.usecases.spaced_review import SpacedReview

PRACTICE_MAX = 10  # questions in one practice round: a short round, not a second quiz


@dataclass(frozen=True, slots=True)
class RoundCard:
    """Card `index` (from 0) of `total` in a round, its options in a fresh order; `item_id` is
    the queue item a review card answers (0 in practice)."""

    round_id: int
    index: int
    total: int
    practice: bool
    quiz: Quiz
    question: Question
    order: tuple[int, ...]
    item_id: int = 0
    recall: float | None = None  # a review card: FSRS's predicted recall today (None: practice)


@dataclass(frozen=True, slots=True)
class CardAnswered:
    """The answer is stored. `after`: where a reviewed question goes (None: a practice answer,
    which moves nothing); `last`: no card follows, the way on is the summary."""

    card: RoundCard
    judgement: Judgement | SetJudgement  # a set: a select-all card (bot/usecases/select_review)
    after: ReviewItem | None
    last: bool


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
class RoundOver:
    """The round was stopped, replaced by a newer one, or ended: the tap changes nothing."""


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
AnswerOutcome = CardAnswered | AlreadyAnswered | RoundOver | NotYours
NextOutcome = RoundCard | RoundSummary | AlreadyShown | RoundOver | NotYours


class ReviewRounds:
    # Whether a learner is in an exam (PracticeSession.exam_running); None: exams never wait.
    exam_running: Callable[[int], Awaitable[bool]] | None = None

    def __init__(
        self,
        review: SpacedReview,
        rounds: RoundStore,
        *,
        clock: Clock = time.time,
        exam_running: Callable[[int], Awaitable[bool]] | None = None,
    ):
        self.exam_running = exam_running
        self.review = review
        self.rounds = rounds
        self.clock = clock

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

    # -- taps ----------------------------------------------------------------------------------

    async def awaiting(
        self, user_id: int, round_id: int, index: int, item_id: int
    ) -> StoredRound | AlreadyAnswered | RoundOver | NotYours:
        """The learner's open round waiting for card `index`, and `item_id` the card's own (a
        review card: the queue item of the question the round showed; a practice card: 0), or
        why an answer to it changes nothing: every kind of answer (tap, toggle, selection, typed
        value) is bound by this one rule."""
        stored = await self.rounds.get(round_id)
        if stored is None or stored.user_id != user_id:
            return NotYours()
        if not stored.is_open:
            return RoundOver()
        if index < stored.answered:
            return AlreadyAnswered()
        if index != stored.answered or index >= stored.shown:
            return RoundOver()  # a card this round never showed
        if stored.mode == PRACTICE:
            return stored if item_id == 0 else NotYours()  # no practice card names an item
        # The item is in the button's data, so the learner can name any other of their own due
        # items: it must be the question this card showed (kept by `claim_card`), or it would be
        # judged with this card's option order and move that other question's schedule.
        shown = stored.questions[index] if index < len(stored.questions) else None
        if shown is None or not shown.quiz_id:
            return RoundOver()  # a card shown before rounds kept their cards: /review again
        item = await self.review.store.item(item_id)
        if (
            item is None
            or item.user_id != user_id
            or shown != QuestionKey(item.quiz_id, item.question_id)
        ):
            return NotYours()
        return stored

    async def answer(
        self, user_id: int, round_id: int, index: int, item_id: int, order: str, position: int
    ) -> AnswerOutcome:
        """A tap on an option of card `index`; the answer is durable before `CardAnswered`."""
        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        if stored.mode == PRACTICE:
            return await self._practised(stored, index, order, position)
        result = await self.review.answer(
            user_id,
            item_id,
            order,
            position,
            round_step=(round_id, index),
            elapsed_ms=self.elapsed_ms(stored),
        )
        if result is None:
            return AlreadyAnswered()  # a second device or a double tap got there first
        card = result.card
        shown = RoundCard(
            round_id,
            index,
            stored.total,
            False,
            card.quiz,
            card.question,
            card.order,
            card.item_id,
        )
        last = not await self.review.due_count(user_id)
        return CardAnswered(shown, result.judgement, result.after, last)

    async def answer_value(
        self, user_id: int, round_id: int, index: int, item_id: int, value: float
    ) -> AnswerOutcome:
        """A typed value for card `index` (a number question), bound as a tap is."""
        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        if stored.mode == PRACTICE:
            located = self.located(stored, index)
            judgement = judge_number(located[1], index, value) if located else None
            if located is None or judgement is None:
                return RoundOver()
            if not await self.rounds.practised(round_id, index, judgement.is_correct, self.clock()):
                return AlreadyAnswered()
            card = RoundCard(round_id, index, stored.total, True, located[0], located[1], ())
            return CardAnswered(card, judgement, None, index + 1 >= len(stored.questions))
        result = await self.review.answer_value(
            user_id,
            item_id,
            value,
            round_step=(round_id, index),
            elapsed_ms=self.elapsed_ms(stored),
        )
        if result is None:
            return AlreadyAnswered()
        shown = RoundCard(
            round_id, index, stored.total, False, result.card.quiz, result.card.question, (),
            item_id,
        )  # fmt: skip
        last = not await self.review.due_count(user_id)
        return CardAnswered(shown, result.judgement, result.after, last)

    async def flip(
        self, user_id: int, round_id: int, index: int, item_id: int
    ) -> RoundCard | AlreadyAnswered | RoundOver | NotYours:
        """A flashcard card's "Show answer": the card again, to be drawn with its back and the
        ratings; bound as an answer is (`awaiting`), and it stores nothing."""
        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        located = self.located(stored, index)
        if located is None or not located[1].flashcard:
            return RoundOver()
        quiz, question = located
        practice = stored.mode == PRACTICE
        total = len(stored.questions) if practice else stored.total
        return RoundCard(round_id, index, total, practice, quiz, question, (), item_id)

    def elapsed_ms(self, stored: StoredRound) -> int | None:
        """Milliseconds from the round's current card being shown to now: what its answer is
        rated by (None: a card claimed before rounds kept the time)."""
        if stored.card_shown_at is None:
            return None
        return max(0, round((self.clock() - stored.card_shown_at) * 1000))

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
        """/stop: end the learner's open round; what it had reached, for the message."""
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

    async def _practised(
        self, stored: StoredRound, index: int, order_text: str, position: int
    ) -> AnswerOutcome:
        located = self.located(stored, index)
        if located is None:
            return RoundOver()  # the question left the content since it was shown
        quiz, question = located
        order = decode_order(order_text, len(question.options))
        if question.flashcard:  # no options: the position is the learner's rating
            order, judgement = (), judge_rating(question, index, position)
        else:
            judgement = judge(question, order, index, position) if order else None
        if order is None or judgement is None:
            return NotYours()  # forged: no card of ours carries that
        if not await self.rounds.practised(stored.id, index, judgement.is_correct, self.clock()):
            return AlreadyAnswered()
        card = RoundCard(stored.id, index, stored.total, True, quiz, question, order)
        return CardAnswered(card, judgement, None, index + 1 >= len(stored.questions))

    def located(self, stored: StoredRound, index: int) -> tuple[Quiz, Question] | None:
        """The question of card `index` (a practice round's, or a review card once claimed)."""
        if not 0 <= index < len(stored.questions):
            return None
        key = stored.questions[index]
        return self.review.question(key.quiz_id, key.question_id)

    async def _serve(self, round_id: int, index: int) -> RoundCard | RoundSummary | AlreadyShown:
        stored = await self.rounds.get(round_id)
        assert stored is not None
        if stored.mode == PRACTICE:
            located = self.located(stored, index)
            if located is None:
                return await self._finish(stored)
            quiz, question = located
            total = len(stored.questions)
            shuffle = question.kind is not QuestionKind.TRUE_FALSE
            order = review_order(len(question.options), self.review.rng, shuffle)
            if not await self.rounds.claim_card(round_id, index, total, now=self.clock()):
                return AlreadyShown()
            return RoundCard(round_id, index, total, True, quiz, question, order)
        card = await self.review.next_card(stored.user_id)
        if card is None:
            return await self._finish(stored)
        total = index + await self.review.due_count(stored.user_id)
        key = QuestionKey(card.item.quiz_id, card.item.question_id)  # for its ⚠️ Report
        if not await self.rounds.claim_card(round_id, index, total, key, now=self.clock()):
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
