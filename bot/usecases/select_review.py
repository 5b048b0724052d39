"""Select-all questions (kind: multiple) in review and practice rounds: toggles, then Submit.

A card's toggles are not answers: they are kept server-side in `pending_selections`, keyed by
the round (negated id) and the card, and stored only while that learner's round is open and
waits for that card (bot/store/selections.py), so another learner's forged toggle, a stale card
after /stop or Next, or a newer round store nothing. The submitted set is the card's one answer,
scored by the partial-credit rule (bot/core/kinds.py); the credit is shown, but only the exact
set is 'right': the spaced schedule moves on 'right' alone, and a practice answer moves nothing
(bot/usecases/review_rounds.py says why).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.engine import judge_selection
from bot.core.kinds import QuestionKind
from bot.core.models import Question
from bot.core.review import decode_order
from bot.store.review_sessions import PRACTICE, StoredRound
from bot.store.selections import SelectionStore
from bot.usecases import review_rounds as rr
from bot.usecases.outcomes import AlreadyAnswered, NothingSelected, NotYours


@dataclass(frozen=True, slots=True)
class CardToggled:
    """The learner's selection after the toggle, as displayed positions (their ☑), and the card
    to redraw with them."""

    card: rr.RoundCard
    positions: frozenset[int]


ToggleOutcome = CardToggled | AlreadyAnswered | rr.RoundOver | NotYours
SubmitOutcome = rr.CardAnswered | NothingSelected | AlreadyAnswered | rr.RoundOver | NotYours


class SelectReview:
    def __init__(
        self, rounds: rr.ReviewRounds, selections: SelectionStore, *, clock: Clock = time.time
    ) -> None:
        self.rounds = rounds
        self.selections = selections
        self.clock = clock

    async def toggle(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str, position: int
    ) -> ToggleOutcome:
        """Flip the option shown at `position` on card `index` of the learner's round."""
        checked = await self._card(user_id, round_id, index, item_id, order_text)
        if not isinstance(checked, tuple):
            return checked
        stored, order = checked
        if not 0 <= position < len(order):
            return NotYours()  # forged: no card of ours has that button
        now = self.clock()
        selected = await self.selections.toggle_card(round_id, index, user_id, order[position], now)
        if selected is None:
            return rr.RoundOver()  # answered, stopped or replaced in between
        located = self.rounds.located(stored, index)
        if located is None:
            return rr.RoundOver()
        card = rr.RoundCard(
            round_id, index, stored.total, stored.mode == PRACTICE, *located, order, item_id
        )
        return CardToggled(card, frozenset(p for p, o in enumerate(order) if o in selected))

    async def submit(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str
    ) -> SubmitOutcome:
        """The learner's selection as card `index`'s answer (durable before `CardAnswered`)."""
        checked = await self._card(user_id, round_id, index, item_id, order_text)
        if not isinstance(checked, tuple):
            return checked
        stored, order = checked
        selected = await self.selections.card_selected(round_id, index, user_id)
        if not selected:
            return NothingSelected()
        outcome = await self._judged(stored, index, item_id, order, selected)
        if isinstance(outcome, rr.CardAnswered):
            await self.selections.forget_card(round_id, index, user_id)
        return outcome

    async def _judged(
        self,
        stored: StoredRound,
        index: int,
        item_id: int,
        order: tuple[int, ...],
        selected: frozenset[int],
    ) -> rr.CardAnswered | AlreadyAnswered | rr.RoundOver:
        rounds, user_id = self.rounds, stored.user_id
        if stored.mode == PRACTICE:
            located = rounds.located(stored, index)
            judgement = judge_selection(located[1], index, selected) if located else None
            if located is None or judgement is None:
                return rr.RoundOver()
            right, now = judgement.is_correct, self.clock()
            if not await rounds.rounds.practised(stored.id, index, right, now):
                return AlreadyAnswered()
            card = rr.RoundCard(stored.id, index, stored.total, True, located[0], located[1], order)
            return rr.CardAnswered(card, judgement, None, index + 1 >= len(stored.questions))
        result = await rounds.review.answer_set(
            user_id,
            item_id,
            order,
            selected,
            round_step=(stored.id, index),
            elapsed_ms=rounds.elapsed_ms(stored),
        )
        if result is None:
            return AlreadyAnswered()
        card = rr.RoundCard(
            stored.id, index, stored.total, False, result.card.quiz, result.card.question, order,
            item_id,
        )  # fmt: skip
        last = not await rounds.review.due_count(user_id)
        return rr.CardAnswered(card, result.judgement, result.after, last)

    async def _card(
        self, user_id: int, round_id: int, index: int, item_id: int, order_text: str
    ) -> tuple[StoredRound, tuple[int, ...]] | AlreadyAnswered | rr.RoundOver | NotYours:
        """The learner's round waiting for card `index` (and `item_id` its own), a select-all
        question, and the card's displayed order; or why the tap changes nothing."""
        stored = await self.rounds.awaiting(user_id, round_id, index, item_id)
        if not isinstance(stored, StoredRound):
            return stored
        located = self.rounds.located(stored, index)
        question: Question | None = located[1] if located else None
        if question is None or question.kind is not QuestionKind.MULTIPLE:
            return rr.RoundOver()
        order = decode_order(order_text, len(question.options))
        if order is None:
            return NotYours()  # forged: no card of ours carries that
        return stored, order
