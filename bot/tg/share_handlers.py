"""Passing a quiz on: inline queries (`@bot words` in any chat) and `/start@bot <quiz id>`,
which Telegram sends in a group when the bot was added to it by a `startgroup` link."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot.i18n import translator
from bot.tg import group_render as gr
from bot.tg import share_render
from bot.tg.context import BotContext
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.member_replies import Say
from bot.tg.quiz_links import PLAIN_GROUP_LINK, QuizLinks
from bot.tg.screen_render import Screen
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.quiz_sharing import Invited, QuizSharing

log = logging.getLogger(__name__)
INLINE_CACHE_SECONDS = 30  # Telegram may reuse an answer this long (per user: is_personal)
# Group /start with a payload other than the plain link's: a quiz (PTB's CommandHandler has
# already dropped a /start addressed to another bot).
GROUP_START_WITH_QUIZ = rf"^/start(@\w+)?\s+(?!{PLAIN_GROUP_LINK}\s*$)\S"


class ShareHandlers:
    def __init__(
        self,
        sharing: QuizSharing,
        settings: GroupSettingsCases,
        runner: GroupRunner,
        say: Say,
    ) -> None:
        self.sharing = sharing
        self.settings = settings
        self.runner = runner
        self.say = say

    async def inline_query(self, update: Update, context: BotContext) -> None:
        """The matching quizzes, in the asker's language; any text (hostile, 10 KB) is cut
        and answered, and Telegram refusing the answer is logged, never raised."""
        query = update.inline_query
        if query is None:
            return
        lang, tr = context.learner.lang, context.tr
        found = await self.sharing.search(query.query, lang)
        links = QuizLinks.of(context.bot)
        results = [share_render.inline_result(tr, quiz, lang, links) for quiz in found]
        try:
            await context.bot.answer_inline_query(
                query.id, results, cache_time=INLINE_CACHE_SECONDS, is_personal=True
            )
        except TelegramError as exc:  # too late (over 10 s), or the query is gone
            log.info("inline answer refused: %s", exc)

    async def group_start(self, update: Update, context: BotContext) -> None:
        """`/start@bot <quiz id>` in a group (behind the courtesy guard): an admin gets the
        quiz's card with ▶️ Push now and 🗓 Schedule; a member, who can start it."""
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None or not context.args:
            return
        user = message.from_user
        group = await self.settings.settings(
            chat.id, chat.title or "", user.language_code if user else None
        )
        lang, tr = group.language, translator(group.language)
        found = self.sharing.invited(chat.id, context.args[0])
        invited = found if isinstance(found, Invited) else None
        # Behind the guard (bot/tg/member_replies.py), which decided a reply for a member
        # only: no decision means the sender is an admin.
        if context.courtesy is not None:
            quiz = invited.quiz if invited is not None else None
            await self.say(update, context, lambda tr: share_render.member_note(tr, quiz, tr.lang))
            return
        if invited is None:
            await self.runner.send(chat.id, Screen(gr.unknown_quiz(tr, "", None)))
            return
        card = share_render.group_card(
            tr, invited.quiz, invited.typed, chat.id, lang, invited.guessed_from
        )
        await self.runner.send(chat.id, card)
