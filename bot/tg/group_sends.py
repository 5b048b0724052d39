"""Sending in a group, with the two ways a group can go away: it became a supergroup (Telegram
answers with the new chat id: follow it), or the bot was removed (forget what ran there). Every
group handler posts through this (the group runner is one: `GroupRunner`), so a run's question,
a reply to a command and a scheduled quiz all follow a migration the same way.

A forum topic that was closed or deleted is the third way a send fails: a run or a schedule
names its own topic and gets `TopicGone` to end what played there; a reply to an update is one
log line, since nobody is there to read it (bot/tg/topics.py).
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod

from telegram import Bot, Message
from telegram.error import BadRequest, ChatMigrated, Forbidden
from telegram.ext import Application, ExtBot

from bot.tg.screen_render import Screen
from bot.tg.topics import Muted, TopicGone, muted, reply_thread, topic_gone
from bot.tg.wire import calls
from bot.tg.wire.photos import PhotoSender, send_screen
from bot.tg.wire.retry import Courtesy, LimitArgs, OnWire

log = logging.getLogger(__name__)


class GroupSends(ABC):
    """Posts and edits in groups; what a migration or a removal changes is the subclass's."""

    def __init__(
        self,
        app: Application,  # type: ignore[type-arg]
        photos: PhotoSender | None = None,
    ) -> None:
        self.app = app
        self.photos = photos  # content pictures (bot/tg/wire/photos.py); None: text only

    @abstractmethod
    async def migrated(self, old_id: int, new_id: int) -> None:
        """The group became the supergroup `new_id`: what ran in it follows."""

    @abstractmethod
    async def removed(self, chat_id: int) -> None:
        """The bot was removed from the group: what ran there stops."""

    @property
    def bot(self) -> Bot:
        bot: Bot = self.app.bot
        return bot

    @property
    def ext_bot(self) -> ExtBot[LimitArgs]:
        """The bot with PTB's extensions: `rate_limit_args` reaches the rate limiter."""
        bot = self.app.bot
        assert isinstance(bot, ExtBot)
        return bot

    async def send(
        self,
        chat_id: int,
        screen: Screen,
        on_wire: OnWire | None = None,
        *,
        courtesy: bool = False,
        thread: int | None = None,
    ) -> int | None:
        """Post in a group (the id of the message with the screen's buttons); follow the group
        to its supergroup, or forget it if the bot was removed. `on_wire` runs just before the
        request leaves (bot/tg/wire/retry.py); a `courtesy` reply goes after the run's sends and
        raises `Shed` if the group's budget is short (bot/tg/wire/ratelimit.py).

        `thread`: the forum topic (0: none), as a run or a schedule names its own; a closed or
        deleted topic raises `TopicGone` for the caller to end what played there, and so does a
        chat where the bot may not send (`Muted`, one of them). None: a
        reply to the update being handled, in its topic (bot/tg/topics.py); a gone topic is
        then one log line (nobody is there to read it)."""
        limit: LimitArgs | None = Courtesy() if courtesy else on_wire
        place = reply_thread(chat_id) if thread is None else thread
        try:
            try:
                return await self._post(chat_id, screen, limit, place)
            except ChatMigrated as exc:
                new_id = exc.new_chat_id
                await self.migrated(chat_id, new_id)
                return await self._post(new_id, screen, limit, place)
            except Forbidden:
                log.info("removed from chat %s: stopping what ran there", chat_id)
                await self.removed(chat_id)
                return None
            except BadRequest as exc:
                if place and topic_gone(exc):
                    raise TopicGone(chat_id, place, str(exc)) from None
                if muted(exc):
                    raise Muted(chat_id, str(exc)) from None
                raise
        except TopicGone as gone:
            if thread is not None:
                raise
            log.info("reply not sent: %s", gone)
            return None

    async def _post(
        self, chat_id: int, screen: Screen, limit: LimitArgs | None, thread: int
    ) -> int:
        if screen.photo is not None and self.photos is not None:
            on_wire = limit if isinstance(limit, OnWire) else None
            return await send_screen(self.bot, chat_id, screen, self.photos, on_wire, thread=thread)
        message: Message = await self.ext_bot.send_message(
            chat_id,
            screen.text,
            reply_markup=screen.keyboard,
            rate_limit_args=limit,
            message_thread_id=thread or None,
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int | None, screen: Screen, thread: int) -> None:
        """Edit a run's message in place; if it is gone, post the screen in topic `thread`."""
        try:
            if message_id is None:
                raise BadRequest("message to edit not found")
            bot, shown = self.bot, message_id
            await calls.edit_text(bot, chat_id, shown, screen.text, screen.keyboard)
        except ChatMigrated as exc:
            await self.migrated(chat_id, exc.new_chat_id)
            await self.send(exc.new_chat_id, screen, thread=thread)
        except BadRequest as exc:
            # The question message is gone (deleted, or never stored): post the reveal instead
            # (said after it went: a deleted topic takes neither, and ends the run with one line).
            await self.send(chat_id, screen, thread=thread)
            log.info("edit refused in %s: %s", chat_id, exc)

    async def edit_caption(
        self, chat_id: int, message_id: int, screen: Screen, thread: int
    ) -> None:
        """Edit a photo's caption in place (a pictured question); if it has none (its alt text
        went as a text), edit that text; if it is gone, post the screen in topic `thread`."""
        try:
            await calls.edit_caption(self.bot, chat_id, message_id, screen.text, screen.keyboard)
        except ChatMigrated as exc:
            await self.migrated(chat_id, exc.new_chat_id)
            await self.send(exc.new_chat_id, screen, thread=thread)
        except BadRequest as exc:
            if "no caption" in str(exc).lower():
                # The picture could not be sent and its alt text went as a text: edit that.
                await self.edit(chat_id, message_id, screen, thread)
                return
            log.info("caption edit refused in %s: %s", chat_id, exc)
            await self.send(chat_id, screen, thread=thread)
