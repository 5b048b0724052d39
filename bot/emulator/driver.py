"""The driver: simulated users and chat views that tests, the sandbox and the benchmark act through.

Waiting is event-driven: a wait registers a future on the chat, and every new or edited message
is offered to the chat's waiters as it is stored. Nothing polls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .attachments import attachment
from .inline import InlineAnswer
from .serialize import ANONYMOUS_ADMIN
from .state import MEMBER_STATUSES, PRESENT, ChatState, EmuMessage, UserState, Waiter
from .world import CallbackAnswer

if TYPE_CHECKING:
    from .world import World


class TapTimeout(TimeoutError):
    """The bot did not answer a callback query in time (the user's spinner would keep turning)."""


@dataclass(frozen=True)
class Mark:
    """A point in a chat's history: later waits only consider what changes after it."""

    seq: int
    next_message_id: int


class ChatView:
    """What one chat shows, and ways to wait for the bot to show something."""

    def __init__(self, world: World, chat: ChatState) -> None:
        self._world = world
        self._chat = chat

    def __repr__(self) -> str:
        return f"<ChatView {self._chat.type} {self.id}>"

    @property
    def id(self) -> int:
        return self._chat.id

    @property
    def type(self) -> str:
        return self._chat.type

    @property
    def title(self) -> str | None:
        return self._chat.title

    @property
    def migrated_to(self) -> int | None:
        return self._chat.migrated_to

    @property
    def bot_status(self) -> str:
        return self._chat.bot_status

    @property
    def messages(self) -> list[EmuMessage]:
        """Every message in order, latest version of each, deleted ones flagged."""
        return list(self._chat.messages.values())

    @property
    def bot_messages(self) -> list[EmuMessage]:
        """The bot's messages still shown."""
        return [m for m in self._chat.messages.values() if m.from_bot and not m.deleted]

    @property
    def last(self) -> EmuMessage | None:
        """The bot's latest message still shown."""
        shown = self.bot_messages
        return shown[-1] if shown else None

    def message(self, message_id: int) -> EmuMessage:
        """The current version of a message."""
        return self._chat.messages[message_id]

    def transcript(self, last: int = 10) -> str:
        """The last messages as text, for failure messages and the sandbox."""
        lines = []
        for m in self.messages[-last:]:
            who = "bot" if m.from_bot else str(m.sender_id)
            flags = (" (edited)" if m.edited else "") + (" (deleted)" if m.deleted else "")
            buttons = " | ".join(f"[{b.text}]" for row in m.buttons for b in row)
            shown = m.text or m.service
            if m.document is not None:
                shown = f"[file {m.document.get('file_name')}] {m.text}".rstrip()
            if m.photo is not None:
                shown = f"[photo: {m.photo_name}] {m.text}".rstrip()
            lines.append(f"#{m.message_id} {who}{flags}: {shown}  {buttons}".rstrip())
        return "\n".join(lines) or "(no messages)"

    def mark(self) -> Mark:
        return Mark(self._chat.seq, self._chat.next_message_id)

    async def _wait(
        self,
        predicate: Callable[[EmuMessage], bool],
        timeout: float,
        new_only: bool,
        what: str,
    ) -> EmuMessage:
        future: asyncio.Future[EmuMessage] = asyncio.get_running_loop().create_future()
        waiter = Waiter(predicate, future, new_only)
        self._chat.waiters.append(waiter)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(
                f"chat {self.id}: no {what} within {timeout}s. Last messages:\n" + self.transcript()
            ) from None
        finally:
            if waiter in self._chat.waiters:
                self._chat.waiters.remove(waiter)

    async def wait_for(
        self,
        predicate: Callable[[EmuMessage], bool],
        *,
        timeout: float = 5.0,
        after: Mark | None = None,
        from_bot: bool = True,
    ) -> EmuMessage:
        """A shown message satisfying `predicate`: one already there (newest first) or the next
        new or edited one. With `after`, only versions that appeared after that mark count."""

        def matches(m: EmuMessage) -> bool:
            return (m.from_bot or not from_bot) and predicate(m)

        for m in reversed(self._chat.messages.values()):
            if not m.deleted and (after is None or m.seq > after.seq) and matches(m):
                return m
        return await self._wait(matches, timeout, False, "matching message")

    async def next_message(self, *, timeout: float = 5.0, after: Mark | None = None) -> EmuMessage:
        """The first message the bot posts after `after` (default: now); edits do not count."""
        first_id = (after or self.mark()).next_message_id
        for m in self._chat.messages.values():
            if m.message_id >= first_id and m.from_bot:
                return m

        def is_new(m: EmuMessage) -> bool:
            return m.from_bot and m.message_id >= first_id

        return await self._wait(is_new, timeout, True, "new message from the bot")

    # --- groups ---------------------------------------------------------------------------

    def add_member(self, user: SimUser, status: str = "member") -> None:
        """Put a user in this group with a ChatMember status (no update: the bot is not told)."""
        if self._chat.type == "private":
            raise ValueError("private chats have no members to add")
        if status not in MEMBER_STATUSES:
            raise ValueError(f"status must be one of {MEMBER_STATUSES}")
        self._chat.members[user.id] = status

    @property
    def is_forum(self) -> bool:
        return self._chat.is_forum

    def create_topic(self, name: str, *, by: SimUser | None = None) -> int:
        """A new forum topic (the forum_topic_created service message); returns its thread id."""
        actor = by.state if by is not None else ANONYMOUS_ADMIN
        return self._world.create_topic(self._chat, actor, name)

    def edit_topic(
        self,
        thread_id: int,
        *,
        name: str | None = None,
        icon_custom_emoji_id: str | None = None,
        by: SimUser | None = None,
    ) -> None:
        """Rename a topic or change its icon (the forum_topic_edited service message)."""
        actor = by.state if by is not None else ANONYMOUS_ADMIN
        self._world.edit_topic(self._chat, actor, thread_id, name, icon_custom_emoji_id)

    def close_topic(self, thread_id: int, *, by: SimUser | None = None) -> None:
        actor = by.state if by is not None else ANONYMOUS_ADMIN
        self._world.close_topic(self._chat, actor, thread_id)

    def reopen_topic(self, thread_id: int, *, by: SimUser | None = None) -> None:
        actor = by.state if by is not None else ANONYMOUS_ADMIN
        self._world.close_topic(self._chat, actor, thread_id, closed=False)

    def delete_topic(self, thread_id: int) -> None:
        self._world.delete_topic(self._chat, thread_id)

    def in_topic(self, thread_id: int | None) -> list[EmuMessage]:
        """The bot's messages in topic `thread_id` (None: General, or a chat without topics)."""
        return [m for m in self.bot_messages if m.thread_id == thread_id]

    def member_status(self, user: SimUser) -> str:
        return self._chat.members.get(user.id, "left")

    async def send_as_anonymous_admin(self, text: str) -> EmuMessage:
        """A message from GroupAnonymousBot on behalf of the group (sender_chat is the group)."""
        msg = self._world.user_message(ANONYMOUS_ADMIN, self._chat, text, anonymous=True)
        await asyncio.sleep(0)
        return msg

    async def send_document_as_anonymous_admin(
        self, filename: str, data: bytes, *, caption: str = "", mime_type: str = "text/plain"
    ) -> EmuMessage:
        """A file from GroupAnonymousBot on behalf of the group, with an optional caption."""
        document = self._world.store_user_file(filename, data, mime_type)
        msg = self._world.user_message(
            ANONYMOUS_ADMIN, self._chat, caption, anonymous=True, document=document
        )
        await asyncio.sleep(0)
        return msg


class SimUser:
    """A simulated Telegram user; their private chat with the bot has the user's id."""

    def __init__(self, world: World, state: UserState) -> None:
        self._world = world
        self.state = state
        self.private = ChatView(world, world.chats[state.id])

    def __repr__(self) -> str:
        return f"<SimUser {self.id} {self.state.first_name}>"

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def language_code(self) -> str | None:
        return self.state.language_code

    @property
    def started(self) -> bool:
        return self.state.started

    def _chat(self, chat: ChatView | int | None) -> ChatState:
        if chat is None:
            return self._world.chats[self.id]
        return self._world.chats[chat if isinstance(chat, int) else chat.id]

    async def send(
        self,
        text: str,
        *,
        chat: ChatView | int | None = None,
        reply_to: EmuMessage | int | None = None,
        thread: int | None = None,
    ) -> EmuMessage:
        """Write `text` in the private chat (or `chat`, in its topic `thread`: else the topic of
        `reply_to`, else General); the bot receives a message update."""
        reply_id = reply_to.message_id if isinstance(reply_to, EmuMessage) else reply_to
        msg = self._world.user_message(
            self.state, self._chat(chat), text, reply_to=reply_id, thread=thread
        )
        await asyncio.sleep(0)
        return msg

    async def send_attachment(
        self, kind: str, *, caption: str = "", chat: ChatView | int | None = None
    ) -> EmuMessage:
        """Send what is neither text nor a file: `kind` is one of `ATTACHMENTS` (a sticker, a
        photo, a voice note, a location, a contact), as a Telegram client sends it."""
        msg = self._world.user_message(
            self.state, self._chat(chat), caption, attachment=attachment(kind, self.id)
        )
        await asyncio.sleep(0)
        return msg

    async def edit(self, msg: EmuMessage, text: str) -> EmuMessage:
        """Edit one of this user's own text messages to `text`; the bot receives an
        edited_message update (if it saw the message)."""
        edited = self._world.edit_user_message(self.state, msg, text)
        await asyncio.sleep(0)
        return edited

    async def send_document(
        self,
        filename: str,
        data: bytes,
        *,
        caption: str = "",
        chat: ChatView | int | None = None,
        reply_to: EmuMessage | int | None = None,
        mime_type: str = "text/plain",
        file_size: int | None = None,
        thread: int | None = None,
    ) -> EmuMessage:
        """Send a file (a Document) with an optional caption; the bot can getFile and download
        it. `file_size` makes the Document claim another size than `data` has."""
        reply_id = reply_to.message_id if isinstance(reply_to, EmuMessage) else reply_to
        document = self._world.store_user_file(filename, data, mime_type, file_size=file_size)
        msg = self._world.user_message(
            self.state,
            self._chat(chat),
            caption,
            reply_to=reply_id,
            document=document,
            thread=thread,
        )
        await asyncio.sleep(0)
        return msg

    async def tap(
        self,
        msg: EmuMessage,
        text: str | None = None,
        *,
        callback_data: str | bytes | None = None,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> CallbackAnswer | None:
        """Press the button labelled `text` on `msg` (as the chat shows it now), or send forged
        `callback_data`; wait for the bot's answerCallbackQuery and return it."""
        chat = self._world.chats[msg.chat_id]
        current = chat.messages.get(msg.message_id)
        if current is None or current.deleted:
            raise LookupError(f"message {msg.message_id} in chat {msg.chat_id} is gone")
        if callback_data is None:
            button = current.button(text)
            if button.callback_data is None:
                raise ValueError(f"button {text!r} opens a URL; it sends no callback")
            data = button.callback_data
        elif isinstance(callback_data, bytes):
            data = callback_data.decode("utf-8", "replace")
        else:
            data = callback_data
        query = self._world.tap(self.state, current, data)
        if not wait:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(query.answer), timeout)
        except TimeoutError:
            raise TapTimeout(
                f"the bot did not answer callback query {query.id} (user {self.id} tapped "
                f"{text or data!r} on message {msg.message_id} in chat {msg.chat_id}) "
                f"within {timeout}s"
            ) from None

    async def inline(
        self, query: str, *, chat_type: str = "sender", offset: str = "", timeout: float = 12.0
    ) -> InlineAnswer:
        """Type `@bot query` in a chat of `chat_type` ("sender": the chat with the bot itself,
        else private, group, supergroup); wait for the bot's answerInlineQuery and return it.
        TapTimeout if the bot never answers (Telegram gives up after 10 s)."""
        asked = self._world.inline_query(self.state, query, chat_type, offset)
        try:
            return await asyncio.wait_for(asyncio.shield(asked.answer), timeout)
        except TimeoutError:
            raise TapTimeout(
                f"the bot did not answer inline query {asked.id} ({query[:40]!r} from user "
                f"{self.id}) within {timeout}s"
            ) from None

    async def post_inline(
        self,
        answer: InlineAnswer,
        result_id: str,
        *,
        chat: ChatView | int | None = None,
        thread: int | None = None,
    ) -> EmuMessage:
        """Pick result `result_id` of an inline answer: its card is posted in `chat` (default:
        the private chat) by this user, "via @bot"; in a forum, in topic `thread` (the one the
        user typed the query in; None: General), with its message_thread_id."""
        target = self._chat(chat)
        if target.type != "private" and target.members.get(self.id) not in PRESENT:
            raise ValueError(f"user {self.id} is not a member of chat {target.id}")
        msg = self._world.post_inline(self.state, target, answer.result(result_id), thread)
        await asyncio.sleep(0)
        return msg

    def block_bot(self) -> None:
        """The user blocks the bot: my_chat_member (kicked); sends to them now fail with 403."""
        self._world.set_blocked(self.state, True)

    def unblock_bot(self) -> None:
        self._world.set_blocked(self.state, False)
