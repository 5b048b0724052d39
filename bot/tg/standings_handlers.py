"""Handlers of lasting standings: /top and its window buttons, /me in a group, and members
leaving or coming back (the groups part of /stats is rendered by the progress handlers).

/top and its buttons are open to every member (standings are no secret inside a group); a button
works only in the group it was posted in. A member's /top and /me are courtesy replies
(bot/tg/member_replies.py): once a minute, and privately while a run plays (a post would push the
question up the chat), or not at all when the member never started the bot.

Who left: a bot sees `left_chat_member` service messages in every group it is in (privacy mode
does not hide service messages), and `chat_member` updates when it is an administrator and asks
for them. Either marks the member as gone; a `new_chat_members` message or a `chat_member`
update back to member lists them again. A member who leaves unseen (a large supergroup can hide
the service message) stays listed until then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import CallbackQuery, Chat, ChatMemberRestricted, Update
from telegram.error import BadRequest

from bot.core.standings import Window
from bot.i18n import translator
from bot.tg import callbacks as cb
from bot.tg import standings_render as sr
from bot.tg.context import BotContext
from bot.tg.member_replies import Say
from bot.tg.screen_render import Screen
from bot.tg.screen_send import acknowledge
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.group_standings import GroupStandings
from bot.usecases.learner_profile import Learner

log = logging.getLogger(__name__)
PRESENT = frozenset({"member", "administrator", "creator", "restricted"})


class StandingsHandlers:
    def __init__(
        self,
        standings: GroupStandings,
        settings: GroupSettingsCases,
        say: Say,
        status_changed: Callable[[int, int], None] = lambda chat_id, user_id: None,
    ) -> None:
        self.standings = standings
        self.settings = settings
        self.say = say
        self.status_changed = status_changed  # (chat, user): the admin cache forgets them

    async def top(self, update: Update, context: BotContext) -> None:
        chat = update.effective_chat
        if chat is None:
            return
        view = await self.standings.table(chat.id, Window.WEEK)
        await self.say(update, context, lambda tr: sr.table(tr, view))

    async def window(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.TopWindow
    ) -> None:
        """A window button (the router checked it comes from a group): any member may switch,
        only in the group the table belongs to, and only on a table (forged on a live question,
        it would replace the question for everyone); the message is edited in place."""
        tapped = query.message
        if data.chat_id != chat.id or not sr.is_table(getattr(tapped, "text", None)):
            # The popup is the tapper's alone: their language, not the group's.
            await acknowledge(query, translator(member.lang)._("This button has expired."))
            return
        settings = await self.settings.settings(chat.id)
        tr = translator(settings.language)
        view = await self.standings.table(chat.id, Window(data.window))
        screen = sr.table(tr, view)
        await acknowledge(query)
        try:
            await query.edit_message_text(screen.text, reply_markup=screen.keyboard)
        except BadRequest as exc:  # "message is not modified": the same window tapped again
            log.info("standings edit refused: %s", exc)

    async def me(self, update: Update, context: BotContext) -> None:
        chat, user, message = update.effective_chat, update.effective_user, update.effective_message
        if chat is None or user is None:
            return
        if message is not None and message.sender_chat is not None:
            if message.sender_chat.id == chat.id:  # an anonymous admin: nobody's place to show
                await self.say(update, context, lambda tr: Screen(sr.me_anonymous(tr)))
            return
        if user.is_bot:
            return
        settings = await self.settings.settings(chat.id, chat.title or "")
        mine = await self.standings.places(chat.id, user.id, settings.title)
        await self.say(
            update,
            context,
            lambda tr: Screen(sr.me(tr, user.first_name, mine)),
            privately=lambda tr: Screen(sr.me_privately(tr, mine)),
        )

    async def membership(self, update: Update, context: BotContext) -> None:
        """Service messages: members who left are no longer listed; who (re)joined are."""
        message = update.effective_message
        if message is None:
            return
        if message.left_chat_member is not None and not message.left_chat_member.is_bot:
            await self.standings.member_left(message.chat_id, message.left_chat_member.id)
        for joined in message.new_chat_members or ():
            if not joined.is_bot:
                await self.standings.member_joined(message.chat_id, joined.id)

    async def chat_member(self, update: Update, context: BotContext) -> None:
        """`chat_member` updates (administrator bots that ask for them)."""
        change = update.chat_member
        if change is None or change.new_chat_member.user.is_bot:
            return
        new = change.new_chat_member
        user_id = new.user.id
        self.status_changed(change.chat.id, user_id)  # promoted or demoted: at once
        # A restricted member who left is still "restricted", with is_member false.
        gone = isinstance(new, ChatMemberRestricted) and not new.is_member
        if new.status in PRESENT and not gone:
            await self.standings.member_joined(change.chat.id, user_id)
        else:
            await self.standings.member_left(change.chat.id, user_id)
