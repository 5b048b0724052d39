"""A review or practice round's number card: the question, then a ForceReply prompt (as in a
quiz), answered by the learner's typed reply (bot/usecases/round_replies.py), and edited into
the card once answered. Called by rounds_handlers.py to show a card, and first among the
private texts (number_handlers.py) to take a reply.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import tzinfo

from telegram import Message, Update
from telegram.error import BadRequest

from bot.i18n import translator
from bot.tg import number_render
from bot.tg import rounds_render as rr
from bot.tg.context import BotContext
from bot.tg.number_handlers import delete_prompt
from bot.tg.screen_render import guide_line
from bot.tg.wire import calls
from bot.usecases import round_replies as tv
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import Asked, NotAsked, OldQuestion, Unreadable
from bot.usecases.review_rounds import ReviewRounds
from bot.usecases.round_answers import RoundCard

log = logging.getLogger(__name__)


class TypedCards:
    def __init__(
        self, typed: tv.RoundReplies, rounds: ReviewRounds, zone: Callable[[int], Awaitable[tzinfo]]
    ) -> None:
        self.typed = typed
        self.rounds = rounds
        self.zone = zone  # the learner's own days (SpacedReview.zone)

    async def show(self, message: Message, learner: Learner, card: RoundCard) -> None:
        """Send a round's number card and its reply prompt; remember them for the reply."""
        lang, tr = learner.lang, translator(learner.lang)
        bot, chat_id = message.get_bot(), message.chat_id
        header = rr.header(tr, card, lang)
        screen = number_render.round_question(tr, header, card.question, lang)
        sent = await calls.send_text(bot, chat_id, screen.text)
        # Bound before the prompt goes out: a quick reply to the prompt must find its card.
        asked = Asked(card.index, sent)
        shown = tv.TypedCard(card.round_id, card.index, card.item_id, card.question, asked)
        before = self.typed.shown(learner.user_id, shown)
        await self.rounds.card_sent(card.round_id, sent)
        text, placeholder = number_render.prompt(tr, card.question)
        prompt = await calls.send_force_reply(bot, chat_id, text, placeholder)
        await self.typed.prompted(learner.user_id, card.round_id, card.index, prompt)
        if before is not None:
            await delete_prompt(bot, chat_id, before.asked.prompt_message)

    async def reply(self, update: Update, context: BotContext) -> bool:
        """The learner's text as the answer to their open number card; False when none is open
        (the text is then someone else's to handle)."""
        message = update.effective_message
        if message is None or message.text is None:
            return False
        learner, tr = context.learner, context.tr
        replied = message.reply_to_message
        reply_to = replied.message_id if replied is not None else None
        outcome = await self.typed.answer(
            learner.user_id, message.text, reply_to, learner.lang, tr.decimal_separator
        )
        bot, chat_id = message.get_bot(), message.chat_id
        match outcome:
            case NotAsked():
                return False
            case OldQuestion():
                text = tr._("This review question is closed. /review for the next one.")
                await calls.send_text(bot, chat_id, text)
            case Unreadable(question, ambiguous):
                await calls.send_text(
                    bot, chat_id, number_render.unreadable(tr, question, learner.lang, ambiguous)
                )
            case tv.CardTyped(answered, typed, asked):
                card, lang = answered.card, learner.lang
                tz = await self.zone(learner.user_id)
                screen, separate = number_render.round_answered(
                    tr,
                    rr.header(tr, card, lang),
                    card.question,
                    guide_line(tr, card.quiz.guide, lang),
                    typed,
                    answered.judgement.is_correct,
                    rr.where(tr, card.practice, answered.after, tz),
                    rr.answered_keyboard(tr, card.round_id, card.index, answered.last),
                    lang,
                )
                await delete_prompt(bot, chat_id, asked.prompt_message)
                try:
                    await calls.edit_text(
                        bot, chat_id, asked.question_message, screen.text, screen.keyboard
                    )
                except BadRequest as exc:  # gone: a new message, never a learner without Next
                    log.info("edit refused: %s", exc)
                    await calls.send_text(bot, chat_id, screen.text, screen.keyboard)
                if separate is not None:
                    await calls.send_text(bot, chat_id, separate.text, separate.keyboard)
        return True
