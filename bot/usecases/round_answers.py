"""Every kind of answer on a review or practice round's card, bound and judged one way.

A card takes a tap (an option, or a flashcard's rating), a typed value (a number question), or
select-all toggles and then Submit. Each is bound by one rule (`awaiting`): the answer is bound
to its round, the round to its learner, the card to the round's progress (`index` must be the
card it waits for), and the queue item a review card's buttons name to the question that card
showed (a practice card names none), so another learner's forged data, the learner's own other
due item, a double tap, a stale card after /stop or a newer round all change nothing and say
why. Each is judged by one rule (bot/core/answers.py `judge`) and settled in one place
(`_settle`): a review answer moves its question by FSRS (bot/usecases/spaced_review.py), a
practice answer only the round's counters (bot/usecases/review_rounds.py says why).

A card's toggles are not answers: they are kept server-side in `pending_selections`, keyed by
the round (negated id) and the card, and stored only while that learner's round is open and
waits for that card (bot/store/selections.py). The submitted set is the card's one answer,
scored by the partial-credit rule (bot/core/kinds.py); the credit is shown, but only the exact
set is 'right': the spaced schedule moves on 'right' alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core.answers import Answer, Choice, Selection, Typed, judge, positions, tap
from bot.core.clock import Clock
from bot.core.engine import Judgement, SetJudgement
from bot.core.kinds import QuestionKind
from bot.core.models import Question, Quiz
from bot.core.practice import QuestionKey
from bot.core.review import ReviewItem, decode_order
from bot.store.review_sessions import PRACTICE, RoundStore, StoredRound
from bot.store.selections import SelectionStore
from bot.usecases.outcomes import AlreadyAnswered, NothingSelected, NotYours
from bot.usecases.spaced_review import SpacedReview


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
    # The round keeps `order` (review_sessions.card_order), so its buttons carry none: they
    # would tell which letter is the option the author wrote first. False: a card shown before
    # rounds kept it, whose buttons still carry it.
    order_kept: bool = True


@dataclass(frozen=True, slots=True)
class CardAnswered:
    """The answer is stored. `after`: where a reviewed question goes (None: a practice answer,
    which moves nothing); `last`: no card follows, the way on is the summary."""

    card: RoundCard
    judgement: Judgement | SetJudgement  # a set: a select-all card's submitted selection
    after: ReviewItem | None
    last: bool


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round was stopped, replaced by a newer one, or ended: the tap changes nothing."""


@dataclass(frozen=True, slots=True)
class CardToggled:
    """The learner's selection after the toggle, as displayed positions (their ☑), and the card
    to redraw with them."""

    card: RoundCard
    positions: frozenset[int]


AnswerOutcome = CardAnswered | AlreadyAnswered | RoundOver | NotYours
ToggleOutcome = CardToggled | AlreadyAnswered | RoundOver | NotYours
SubmitOutcome = CardAnswered | NothingSelected | AlreadyAnswered | RoundOver | NotYours
# What a card's answer is for its question: the order it was shown in and the answer, or None
# when no card of ours could carry it (forged).
Shape = Callable[[Question], tuple[tuple[int, ...], Answer] | None]


class RoundAnswers:
    """The answers to a round's cards; bot/usecases/review_rounds.py `ReviewRounds` adds the
    round's life (start, next card, summary, /stop)."""

    def __init__(
        self, review: SpacedReview, rounds: RoundStore, selections: SelectionStore, clock: Clock
    ) -> None:
        self.review = review
        self.rounds = rounds
        self.selections = selections
        self.clock = clock

    async def answer(
        self, user_id: int, round_id: int, index: int, item_id: int, order: str, position: int
    ) -> AnswerOutcome:
        """A tap on an option of card `index` (a flashcard's: its rating); the answer is durable
        before `CardAnswered`."""

        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        order_text = _order_text(stored, order)

        def shape(question: Question) -> tuple[tuple[int, ...], Answer] | None:
            if question.flashcard:  # no options: the position is the learner's rating
                return (), tap(question, position)
            shown = decode_order(order_text, len(question.options))
            return None if shown is None else (shown, Choice(position))

        return await self._settle(stored, index, item_id, shape, NotYours())

    async def answer_value(
        self, user_id: int, round_id: int, index: int, item_id: int, value: float
    ) -> AnswerOutcome:
        """A typed value for card `index` (a number question), bound as a tap is."""
        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        return await self._settle(stored, index, item_id, lambda _: ((), Typed(value)), RoundOver())

    async def toggle(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str, position: int
    ) -> ToggleOutcome:
        """Flip the option shown at `position` on select-all card `index` of the learner's round."""
        checked = await self._select_card(user_id, round_id, index, item_id, order_text)
        if not isinstance(checked, tuple):
            return checked
        stored, order = checked
        if not 0 <= position < len(order):
            return NotYours()  # forged: no card of ours has that button
        now = self.clock()
        selected = await self.selections.toggle_card(round_id, index, user_id, order[position], now)
        if selected is None:
            return RoundOver()  # answered, stopped or replaced in between
        located = self.located(stored, index)
        if located is None:
            return RoundOver()
        card = RoundCard(
            round_id, index, stored.total, stored.mode == PRACTICE, *located, order, item_id,
            order_kept=stored.card_order is not None,
        )  # fmt: skip
        return CardToggled(card, frozenset(p for p, o in enumerate(order) if o in selected))

    async def submit(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str
    ) -> SubmitOutcome:
        """The learner's selection as card `index`'s answer (durable before `CardAnswered`)."""
        checked = await self._select_card(user_id, round_id, index, item_id, order_text)
        if not isinstance(checked, tuple):
            return checked
        stored, order = checked
        selected = await self.selections.card_selected(round_id, index, user_id)
        if not selected:
            return NothingSelected()
        answer = Selection(positions(order, selected))
        outcome = await self._settle(stored, index, item_id, lambda _: (order, answer), RoundOver())
        if isinstance(outcome, CardAnswered):
            await self.selections.forget_card(round_id, index, user_id)
        return outcome

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

    def located(self, stored: StoredRound, index: int) -> tuple[Quiz, Question] | None:
        """The question of card `index` (a practice round's, or a review card once claimed)."""
        if not 0 <= index < len(stored.questions):
            return None
        key = stored.questions[index]
        return self.review.question(key.quiz_id, key.question_id)

    def elapsed_ms(self, stored: StoredRound) -> int | None:
        """Milliseconds from the round's current card being shown to now: what its answer is
        rated by (None: a card claimed before rounds kept the time)."""
        if stored.card_shown_at is None:
            return None
        return max(0, round((self.clock() - stored.card_shown_at) * 1000))

    # -- inside --------------------------------------------------------------------------------

    async def _settle(
        self, stored: StoredRound, index: int, item_id: int, shape: Shape, refused: AnswerOutcome
    ) -> AnswerOutcome:
        """Judge and store an answer of any kind to card `index` of a bound round; `refused` is
        what a practice answer no card could carry says (a review answer: AlreadyAnswered, as
        the queue says nothing more)."""
        located = self.located(stored, index)
        if located is None:  # the question left the content since it was shown
            return RoundOver() if stored.mode == PRACTICE else AlreadyAnswered()
        quiz, question = located
        shaped = shape(question)
        if stored.mode != PRACTICE:
            return await self._reviewed(stored, index, item_id, shaped)
        judgement = judge(question, shaped[0], index, shaped[1]) if shaped else None
        if shaped is None or judgement is None:
            return refused
        if not await self.rounds.practised(stored.id, index, judgement.is_correct, self.clock()):
            return AlreadyAnswered()
        card = RoundCard(stored.id, index, stored.total, True, quiz, question, shaped[0])
        return CardAnswered(card, judgement, None, index + 1 >= len(stored.questions))

    async def _reviewed(
        self,
        stored: StoredRound,
        index: int,
        item_id: int,
        shaped: tuple[tuple[int, ...], Answer] | None,
    ) -> AnswerOutcome:
        if shaped is None:
            return AlreadyAnswered()
        order, answer = shaped
        result = await self.review.reviewed(
            stored.user_id,
            item_id,
            order,
            answer,
            round_step=(stored.id, index),
            elapsed_ms=self.elapsed_ms(stored),
        )
        if result is None:
            return AlreadyAnswered()  # a second device or a double tap got there first
        card = RoundCard(
            stored.id, index, stored.total, False, result.card.quiz, result.card.question, order,
            item_id,
        )  # fmt: skip
        last = not await self.review.due_count(stored.user_id)
        return CardAnswered(card, result.judgement, result.after, last)

    async def _select_card(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str
    ) -> tuple[StoredRound, tuple[int, ...]] | AlreadyAnswered | RoundOver | NotYours:
        """The learner's round waiting for card `index` (and `item_id` its own), a select-all
        question, and the card's displayed order; or why the tap changes nothing."""
        stored = await self.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        located = self.located(stored, index)
        question: Question | None = located[1] if located else None
        if question is None or question.kind is not QuestionKind.MULTIPLE:
            return RoundOver()
        order = decode_order(_order_text(stored, order_text), len(question.options))
        if order is None:
            return NotYours()  # forged: no card of ours carries that
        return stored, order


def _order_text(stored: StoredRound, tapped: str) -> str:
    """The order the round's current card was shown in: the one the round kept, else (a card
    shown before rounds kept it) the one its button carries."""
    return stored.card_order if stored.card_order is not None else tapped
