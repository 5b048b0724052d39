"""`/reload` in a private chat, for the bot's owners (QUIZBOT_OWNER_IDS): content without a restart.

The reload itself (check first, keep the old catalogue on error) is `QuizBot.reload_content`;
this handler only decides who may ask and shows the outcome in the asker's language. Content
errors are shown as the checker writes them (file:line: key: message), in a code block.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable

from telegram import Update

from bot.content.reload import ReloadResult
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.tg.context import BotContext
from bot.tg.screen_render import Screen
from bot.tg.screen_send import send

Reload = Callable[[], Awaitable[ReloadResult]]


class OwnerHandlers:
    def __init__(self, owner_ids: frozenset[int], reload: Reload) -> None:
        self.owner_ids = owner_ids
        self.reload_content = reload

    async def reload(self, update: Update, context: BotContext) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        tr = context.tr
        if user.id not in self.owner_ids:
            await send(message, Screen(tr._("Sorry, only the bot's owners can do that.")))
            return
        result = await self.reload_content()
        if result.ok and result.changed:
            text = tr._(
                "✅ Content reloaded. Quizzes changed: {quizzes}.",
                quizzes=html.escape(", ".join(result.changed)),
            )
        elif result.ok:
            text = tr._("✅ Content reloaded. No quiz changed.")
        else:
            head = tr._("❌ The new content has errors, so I kept the previous one:")
            details = "\n".join(problem.format() for problem in result.errors)
            room = MESSAGE_MAX_CHARS - len(head) - 20
            text = f"{head}\n<pre>{html.escape(details[:room])}</pre>"
        await send(message, Screen(text))
