"""A learner's text in the chat as the answer to their round's open card: which card it answers,
then the value read from it, answered as any card is (bot/usecases/round_answers.py).

Only a number question's card takes text today (a card of another kind is answered by its
buttons). Which card a reply answers is what this process showed the learner last (kept in
memory, bot/usecases/kept_asked.py; with several workers (a `SharedAsked`, chosen by
bot/compose.py), or after a restart, read from the store: the round's open card);
the answer is then bound as a tap is (round, learner, the card it waits for). An open card takes
the learner's text first (it is the newest question in the chat), unless the text replies to an
older message: then the quiz decides.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.answers import units
from bot.core.kinds import parse_number
from bot.core.models import Question
from bot.store.review_sessions import REVIEW
from bot.usecases.kept_asked import KeptAsked
from bot.usecases.outcomes import (
    Asked,
    NotAsked,
    OldQuestion,
    Unreadable,
    unreadable,
)
from bot.usecases.review_rounds import ReviewRounds
from bot.usecases.round_answers import CardAnswered


@dataclass(frozen=True, slots=True)
class TypedCard:
    """A number question shown in a round: its card and the messages it was asked with."""

    round_id: int
    index: int
    item_id: int
    question: Question
    asked: Asked


@dataclass(frozen=True, slots=True)
class CardTyped:
    """The typed answer is stored (as the round's tap would be): show the verdict."""

    outcome: CardAnswered
    typed: str
    asked: Asked


TypedCardOutcome = CardTyped | Unreadable | OldQuestion | NotAsked


class RoundReplies:
    def __init__(self, rounds: ReviewRounds, shown: KeptAsked[TypedCard] | None = None) -> None:
        self.rounds = rounds
        # user id -> their open number card (several workers: not believed, the store is read)
        self._shown: KeptAsked[TypedCard] = shown if shown is not None else KeptAsked()

    def shown(self, user_id: int, card: TypedCard) -> TypedCard | None:
        """A number card was sent; returns the one it replaces (its prompt is to be deleted)."""
        return self._shown.remember(user_id, card)

    async def prompted(self, user_id: int, round_id: int, index: int, prompt_message: int) -> None:
        """The card's reply prompt went out (deleted once the card is answered, by whichever
        worker takes the reply: its id is stored too)."""
        card = self._shown.last(user_id)
        if card is not None and (card.round_id, card.index) == (round_id, index):
            asked = replace(card.asked, prompt_message=prompt_message)
            self._shown.update(user_id, replace(card, asked=asked))
        await self.rounds.rounds.prompt_sent(round_id, prompt_message)

    async def answer(
        self, user_id: int, text: str, reply_to: int | None, lang: str, separator: str
    ) -> TypedCardOutcome:
        card = self._shown.believed(user_id)
        if card is None:
            card = await self._stored_card(user_id)
        if card is None:
            return NotAsked()
        if reply_to is not None and reply_to < card.asked.question_message:
            return NotAsked()  # to an older message: maybe the quiz's question (it decides)
        typed = text.strip()
        value = parse_number(typed, separator, units(card.question, lang))
        if value is None:
            return unreadable(card.question, typed, separator, lang)
        outcome = await self.rounds.answer_value(
            user_id, card.round_id, card.index, card.item_id, value
        )
        if not isinstance(outcome, CardAnswered):
            self._shown.forget(user_id)  # stopped, replaced or answered: the card is closed
            return OldQuestion()
        self._shown.forget(user_id)
        return CardTyped(outcome, typed, card.asked)

    async def _stored_card(self, user_id: int) -> TypedCard | None:
        """The learner's open number card as the store has it (after a restart, or when another
        worker showed it): the round's card awaiting its answer, its message, its question (and
        for a review, the queue item: the most overdue one, which that card is)."""
        stored = await self.rounds.rounds.open_round(user_id)
        if stored is None or not stored.is_open or stored.message_id is None:
            return None
        index = stored.answered
        if stored.shown <= index or index >= len(stored.questions):
            return None
        key = stored.questions[index]
        located = self.rounds.review.question(key.quiz_id, key.question_id)
        if located is None or not located[1].typed:
            return None
        item_id = 0
        if stored.mode == REVIEW:
            due = await self.rounds.review.next_card(user_id)
            if due is None or (due.item.quiz_id, due.item.question_id) != (
                key.quiz_id,
                key.question_id,
            ):
                return None
            item_id = due.item_id
        prompt = stored.prompt_id or 0  # an older one is an earlier card's
        asked = Asked(index, stored.message_id, prompt if prompt > stored.message_id else 0)
        return TypedCard(stored.id, index, item_id, located[1], asked)

    def forget_cached(self, user_id: int) -> None:
        self._shown.forget(user_id)
