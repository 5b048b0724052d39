"""Handlers for review and practice rounds in private: /review (and the reminder's button),
"Practise my mistakes now", every button on a round's card, and /stop of a round. A number card,
answered by a typed reply, is round_reply_handlers.py. (/stats, /groupstats and the notice after
a group run: progress_handlers.py.)
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, CallbackQuery, Message, Update
from telegram.error import BadRequest
from telegram.ext import Application

from bot.i18n import translator
from bot.tg import callbacks as cb
from bot.tg import round_status_render as rs
from bot.tg import rounds_render as rr
from bot.tg.context import BotContext
from bot.tg.round_reply_handlers import TypedCards
from bot.tg.screen_render import Screen
from bot.tg.screen_send import acknowledge, drop_keyboard, edit, is_photo, send
from bot.tg.select_render import nothing_selected
from bot.tg.wire import calls
from bot.tg.wire.photos import PhotoSender
from bot.usecases import round_replies as tv
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import (
    AlreadyAnswered,
    NothingSelected,
    NotYours,
)
from bot.usecases.review_rounds import (
    AlreadyShown,
    InExam,
    NothingDue,
    NothingToPractise,
    ReviewRounds,
    RoundSummary,
    Stopped,
)
from bot.usecases.round_answers import AnswerOutcome, CardAnswered, CardToggled, RoundCard
from bot.usecases.spaced_review import SpacedReview

log = logging.getLogger(__name__)
Waiting = Callable[[], Awaitable[bool]]  # whether a quiz waits, asked only when it is said


async def _no_quiz() -> bool:
    return False


Context = BotContext


class RoundHandlers:
    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        review: SpacedReview,
        rounds: ReviewRounds,
        replies: tv.RoundReplies,
    ) -> None:
        self.app = app
        self.service = review
        self.rounds = rounds
        # A number question's card (question + reply prompt, answered by a typed reply).
        self.typed_cards = TypedCards(replies, rounds, review.zone)
        self.photos: PhotoSender | None = None  # content pictures on cards (bot/tg/wire/photos.py)

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    async def review(self, update: Update, context: Context) -> None:
        if update.effective_message is not None:
            await self._start(update.effective_message, context.learner)

    async def start_review(self, message: Message, learner: Learner) -> None:
        """What /review does, for a button that starts it (the daily reminder's)."""
        await self._start(message, learner)

    async def _start(self, message: Message, learner: Learner) -> None:
        tr = translator(learner.lang)
        match await self.rounds.start_review(learner.user_id):
            case NothingDue() as nothing:
                await send(
                    message, rs.nothing_due(tr, nothing, await self.service.zone(learner.user_id))
                )
            case RoundCard() | RoundSummary() as outcome:
                await self._show(message, learner, outcome)
            case InExam():
                await send(message, Screen(rs.in_exam(tr)))
            case _:  # another /review of the same moment showed it
                pass

    async def _show(
        self, message: Message, learner: Learner, outcome: RoundCard | RoundSummary
    ) -> None:
        """A new card (remembered as the round's open one) or the round's summary."""
        tr = translator(learner.lang)
        if isinstance(outcome, RoundSummary):
            await send(message, rs.summary(tr, outcome, await self.service.zone(learner.user_id)))
            return
        if outcome.question.typed:
            await self.typed_cards.show(message, learner, outcome)
            return
        sent = await send(message, rr.card(tr, outcome, learner.lang), self.photos)
        await self._remember(message.chat_id, outcome.round_id, sent)

    async def stop(
        self, update: Update, context: Context, *, quiz_waiting: Waiting = _no_quiz
    ) -> bool:
        """/stop in private, for a review or practice round: it ends, its open card loses its
        buttons, and a quiz still running is named (a second /stop abandons it). False when no
        round was open (then /stop is about the quiz)."""
        message, tr = update.effective_message, context.tr
        if message is None:
            return False
        outcome = await self.rounds.stop(context.learner.user_id)
        if not isinstance(outcome, Stopped):
            return False
        if outcome.message_id is not None:
            await self._strip(message.chat_id, outcome.message_id)
        await send(message, Screen(rs.stopped(tr, outcome, await quiz_waiting())))
        return True

    async def _remember(self, chat_id: int, round_id: int, message_id: int) -> None:
        """Record a round's new open card. Updates of one chat are handled concurrently, and the
        learner sees the card before its send returns: a /stop handled in between found no id
        for it, so its buttons go here."""
        if not await self.rounds.card_sent(round_id, message_id):
            await self._strip(chat_id, message_id)

    async def _strip(self, chat_id: int, message_id: int) -> None:
        try:
            await calls.drop_keyboard(self.bot, chat_id, message_id)
        except BadRequest as exc:  # gone, or already without buttons
            log.info("keyboard removal refused: %s", exc)

    # -- review buttons -----------------------------------------------------------------------

    async def callback(self, query: CallbackQuery, learner: Learner, data: cb.Callback) -> None:
        """A review or practice button (the router checked it was tapped in a private chat)."""
        tr, user_id = translator(learner.lang), learner.user_id
        message = query.message if isinstance(query.message, Message) else None
        match data:
            case cb.ReviewNext():  # the reminder's button: used once, it goes
                await acknowledge(query)
                await drop_keyboard(query)
                if message is not None:
                    await self._start(message, learner)
            case cb.PractiseNow(for_user):
                match await self.rounds.start_practice(user_id, for_user):
                    case RoundCard() | RoundSummary() as started:
                        await acknowledge(query)
                        await drop_keyboard(query)  # the offer is taken
                        if message is not None:
                            await self._show(message, learner, started)
                    case NothingToPractise() as nothing:
                        await acknowledge(query, rs.nothing_to_practise(tr, nothing))
                    case InExam():
                        await acknowledge(query, rs.in_exam(tr), show_alert=True)
                    case AlreadyShown():
                        await acknowledge(query)
                    case _:
                        await acknowledge(query, rs.not_yours(tr))
            case cb.ReviewAnswer(round_id, index, item_id, order, position):
                outcome = await self.rounds.answer(
                    user_id, round_id, index, item_id, order, position
                )
                await self._answered(query, learner, outcome)
            case cb.ReviewFlip(round_id, index, item_id):
                match await self.rounds.flip(user_id, round_id, index, item_id):
                    case RoundCard() as flipped:
                        await acknowledge(query)
                        caption = is_photo(query.message)  # a pictured front: 1024 characters
                        back = rr.flashcard_back(tr, flipped, learner.lang, caption=caption)
                        await self._show_back(query, flipped.round_id, back)
                    case outcome:
                        await self._answered(query, learner, outcome)
            case cb.ReviewToggle(round_id, index, item_id, order, position):
                toggled = await self.rounds.toggle(
                    user_id, round_id, index, item_id, order, position
                )
                if isinstance(toggled, CardToggled):
                    # The redraw goes before the popup, as in a quiz: a quick Submit then
                    # edits the card after it, and its verdict is never drawn over.
                    await edit(query, rr.card(tr, toggled.card, learner.lang, toggled.positions))
                    await acknowledge(query)
                else:
                    await self._answered(query, learner, toggled)
            case cb.ReviewSubmit(round_id, index, item_id, order):
                submitted = await self.rounds.submit(user_id, round_id, index, item_id, order)
                if isinstance(submitted, NothingSelected):
                    await acknowledge(query, nothing_selected(tr), show_alert=True)
                else:
                    await self._answered(query, learner, submitted)
            case cb.ReviewStep(round_id, index):
                match await self.rounds.next(user_id, round_id, index):
                    case RoundCard() | RoundSummary() as shown:
                        await acknowledge(query)
                        if message is not None:
                            await self._show(message, learner, shown)
                    case AlreadyShown():
                        await acknowledge(query)
                    case NotYours():
                        await acknowledge(query, rs.not_yours(tr))
                    case _:
                        await acknowledge(query, rs.round_over(tr))
            case _:
                await acknowledge(query, rs.round_over(tr))

    async def _show_back(
        self, query: CallbackQuery, round_id: int, screens: tuple[Screen, Screen | None]
    ) -> None:
        """A flipped flashcard: in the card, or the back (its picture, its ratings) on its own."""
        asked, separate = screens
        await edit(query, asked)
        if separate is not None and isinstance(query.message, Message):
            sent = await send(query.message, separate, self.photos)
            await self._remember(query.message.chat_id, round_id, sent)

    async def _answered(
        self, query: CallbackQuery, learner: Learner, outcome: AnswerOutcome
    ) -> None:
        tr = translator(learner.lang)
        match outcome:
            case CardAnswered(card=card, judgement=judgement):
                # Stored: now the learner may see the verdict, in the card itself.
                await acknowledge(query, rr.verdict(tr, card, judgement))
                caption = is_photo(query.message)  # a pictured card holds 1024 characters
                tz = await self.service.zone(learner.user_id)  # the learner's own days
                asked, separate = rr.answered(tr, outcome, learner.lang, tz, caption=caption)
                if separate is None:
                    if not await edit(query, asked) and isinstance(query.message, Message):
                        sent = await send(query.message, asked)  # never leave them without Next
                        await self._remember(query.message.chat_id, card.round_id, sent)
                    return
                await edit(query, asked)
                if isinstance(query.message, Message):
                    # The way on is in this one (a photo when the explanation has a picture).
                    sent = await send(query.message, separate, self.photos)
                    await self._remember(query.message.chat_id, card.round_id, sent)
            case AlreadyAnswered():
                await acknowledge(query, rs.already_answered(tr))
            case NotYours():
                await acknowledge(query, rs.not_yours(tr))
            case _:
                await acknowledge(query, rs.round_over(tr))
