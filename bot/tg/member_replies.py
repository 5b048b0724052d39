"""The one place a group command's reply to a member who is not an admin is decided and sent.

The rules are `bot/core/courtesy.py`'s (once a minute per command and member, a few a minute per
group, never in the group while a run plays); the use case claims each reply in the store. `guard`
wraps every group command at registration (bot/tg/handler_order.py): an admin's runs as before; a
member's is decided first, and an admin-only command is refused here without running. Handlers that
answer members (/help, /top, /me) send through `say`, which follows the decision:

* in the group, as a courtesy reply: behind the run's sends, and refused by the rate limiter
  when the group's budget is short (`Shed`), in which case it goes privately instead;
* privately, in the member's language, headed with the group and the reason, without the
  group's buttons (they work only in the group);
* when the member never started the bot (Telegram refuses to write first), nothing: the one
  other way to reach them is a post in the group, which is the flood this avoids. They can ask
  again once the run is over, or start the bot.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from telegram import Update, User
from telegram.error import TelegramError

from bot.core.courtesy import Reply
from bot.i18n import Translator, translator
from bot.tg.context import BotContext
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.long_lists import whole_lines
from bot.tg.screen_render import Screen, shown_name
from bot.tg.wire.retry import Courtesy, Shed
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_courtesy import GroupCourtesy
from bot.usecases.group_settings import GroupSettingsCases

log = logging.getLogger(__name__)

Handler = Callable[[Update, BotContext], Coroutine[Any, Any, None]]  # as PTB's handlers take
Render = Callable[[Translator], "Screen | str"]  # the reply, in the language it is read in


class Say(Protocol):
    """`CourtesyReplies.say`, as handlers receive it."""

    def __call__(
        self,
        update: Update,
        context: BotContext,
        render: Render,
        /,
        *,
        privately: Render | None = None,
    ) -> Awaitable[None]: ...


def _refusal(tr: Translator) -> str:
    return tr._("Sorry, only the group's admins can do that.")


class CourtesyReplies:
    def __init__(
        self,
        cases: GroupCourtesy,
        admins: AdminCache,
        settings: GroupSettingsCases,
        runner: GroupRunner,
    ) -> None:
        self.cases = cases
        self.admins = admins
        self.settings = settings
        self.runner = runner

    def guard(
        self, topic: str, handler: Handler, *, admins_only: bool = False, own_words: bool = False
    ) -> Handler:
        """`handler` for a group command, behind the courtesy rules for members (`topic`: what
        counts as the same command, e.g. "help" for /help and /start). `own_words`: an
        admin-only command refused in the sender's language (uploads), not the group's."""

        async def guarded(update: Update, context: BotContext) -> None:
            message, chat = update.effective_message, update.effective_chat
            if message is None or chat is None:
                return
            user = message.from_user
            sender_chat = message.sender_chat.id if message.sender_chat else None
            try:
                admin = await self.admins.is_admin(chat.id, user.id if user else 0, sender_chat)
            except TelegramError as exc:  # Telegram would not say: a member, as far as we know
                log.info("admin check in %s failed (%s): taken as a member's command", chat.id, exc)
                admin = False
            if admin:
                await handler(update, context)
                return
            if user is None or user.is_bot or sender_chat is not None:
                log.info("/%s in %s from a channel or a bot: not answered", topic, chat.id)
                return
            reply = await self.cases.command(chat.id, user.id, topic)
            if reply is Reply.NONE:
                log.info("/%s of %s in %s: answered lately, not again", topic, user.id, chat.id)
                return
            context.courtesy = reply
            if admins_only:
                await self.say(update, context, _refusal, own_words=own_words)
            else:
                await handler(update, context)

        return guarded

    async def say(
        self,
        update: Update,
        context: BotContext,
        render: Render,
        /,
        *,
        own_words: bool = False,
        privately: Render | None = None,
    ) -> None:
        """Answer the command of `update` where the guard decided (in the group for an admin),
        in the group's language there (`own_words`: the sender's). `privately`: the reply as
        sent to the member's private chat, where its heading names the group already (/me's
        own "in this group" heading would be a second one, and wrong there)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None:
            return
        reply = context.courtesy
        if reply is None or reply is Reply.IN_GROUP or user is None:
            group = await self.settings.settings(chat.id, chat.title or "")
            tr = context.tr if own_words and user is not None else translator(group.language)
            screen = _screen(render(tr))
            try:
                await self.runner.send(chat.id, screen, courtesy=reply is not None)
                return
            except Shed:  # the group's budget is kept for its run: privately instead
                log.info("courtesy reply in %s shed: answered privately if possible", chat.id)
                reply = Reply.PRIVATELY_BUSY
        if user is not None:
            await self._privately(update, chat.id, user, context, reply, privately or render)

    async def _privately(
        self,
        update: Update,
        chat_id: int,
        user: User,
        context: BotContext,
        reply: Reply,
        render: Render,
    ) -> None:
        tr = context.tr
        group = await self.settings.settings(chat_id)
        names = {"command": html.escape(_command(update)), "group": shown_name(group.title)}
        if reply is Reply.PRIVATELY_PLAYING:
            heading = tr._(
                "💬 Your {command} in {group}: answered here while a quiz plays there.", **names
            )
        else:
            heading = tr._(
                "💬 Your {command} in {group}: answered here, so the group's chat is not flooded.",
                **names,
            )
        # The group's screen fits a message; with the heading it is cut between whole lines.
        text = whole_lines([f"<i>{heading}</i>", "", *_screen(render(tr)).text.split("\n")])
        try:
            # After the bot's other sends too (a private chat is never shed: no group's budget).
            await self.runner.ext_bot.send_message(user.id, text, rate_limit_args=Courtesy())
        except TelegramError as exc:  # never started the bot, or blocked it: nobody to tell
            log.info("courtesy reply to %s in %s not sent privately: %s", user.id, chat_id, exc)

    async def hint(self, chat_id: int, user_id: int, run_id: int, index: int, text: str) -> None:
        """A hint after a member's unreadable reply to the open number question: posted if the
        question has had fewer than its few (claimed in the store), as a courtesy reply."""
        if not await self.cases.hint(chat_id, user_id, run_id, index):
            return
        try:
            await self.runner.send(chat_id, Screen(text), courtesy=True)
        except Shed:  # the run's budget comes first; the question itself says how to reply
            log.info("hint in %s shed: the group's budget is kept for its run", chat_id)


def _screen(shown: Screen | str) -> Screen:
    return Screen(shown) if isinstance(shown, str) else shown


def _command(update: Update) -> str:
    """The command as the member typed it (without arguments), for the private heading."""
    message = update.effective_message
    words = ((message.text or message.caption or "") if message is not None else "").split()
    return (words[0] if words else "/").partition("@")[0]
