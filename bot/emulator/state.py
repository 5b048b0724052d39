"""What Telegram knows: users, chats, their messages, and who waits for a chat to change.

Messages are frozen snapshots (`EmuMessage`); an edit stores a new snapshot whose `history` holds
the earlier versions, so a test holding a message sees what the chat showed at that moment.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from . import errors
from .errors import ApiError

GROUP_ANONYMOUS_BOT_ID = 1087968824
MEMBER_STATUSES = ("creator", "administrator", "member", "restricted", "left", "kicked")
PRESENT = frozenset({"creator", "administrator", "member", "restricted"})
# A restricted member who left stays "restricted" on Telegram, with `is_member` false; its
# restrictions wait for a return. Never present; shown as status "restricted".
RESTRICTED_GONE = "restricted (left)"


@dataclass(frozen=True)
class Button:
    """An inline keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    switch_inline_query: str | None = None  # the query it opens in another chat (inline mode)


@dataclass(frozen=True)
class EmuMessage:
    """One version of a message as the chat shows it."""

    chat_id: int
    message_id: int
    text: str  # visible text after entity parsing ("" for service messages)
    html: str | None  # the bot's `text` parameter as sent (HTML source); None for users
    from_bot: bool
    sender_id: int
    date: int
    entities: tuple[dict[str, Any], ...] = ()
    buttons: tuple[tuple[Button, ...], ...] = ()
    reply_markup: dict[str, Any] | None = None
    edit_date: int | None = None
    deleted: bool = False
    history: tuple[EmuMessage, ...] = ()
    sender_chat_id: int | None = None
    service: dict[str, Any] | None = None  # e.g. {"migrate_to_chat_id": ...}
    reply_to_message_id: int | None = None
    seq: int = 0  # the chat's change counter when this version appeared
    document: dict[str, Any] | None = None  # a sent file (sendDocument); `text` is its caption
    photo: tuple[dict[str, Any], ...] | None = None  # PhotoSizes (sendPhoto); `text`: caption
    photo_name: str | None = None  # the uploaded file's name, for transcripts
    via_bot_id: int | None = None  # posted by a user from the bot's inline results
    thread_id: int | None = None  # the forum topic it is in (None: General, or no topics)
    # What else a user sent, as the Bot API's field and object ({"sticker": {...}}, {"voice":
    # {...}}, {"location": {...}}); `text` is its caption, where the kind has one.
    attachment: dict[str, Any] | None = None

    @property
    def media(self) -> bool:
        """A photo or a file: its `text` is a caption (editMessageCaption, not editMessageText)."""
        return self.photo is not None or self.document is not None

    @property
    def edited(self) -> bool:
        return self.edit_date is not None

    def button(self, text: str | None = None, callback_data: str | None = None) -> Button:
        """The button with this text (or callback data); LookupError lists what exists."""
        for row in self.buttons:
            for button in row:
                if (text is not None and button.text == text) or (
                    callback_data is not None and button.callback_data == callback_data
                ):
                    return button
        shown = [b.text for row in self.buttons for b in row]
        raise LookupError(
            f"no button {text or callback_data!r} in message {self.message_id}: {shown}"
        )


@dataclass
class UserState:
    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False  # the user has sent the bot something: the private chat exists
    blocked: bool = False


@dataclass
class Topic:
    """A forum topic: its id is the id of the service message that created it, as in Telegram."""

    id: int
    name: str
    closed: bool = False
    deleted: bool = False


@dataclass
class Waiter:
    """A driver coroutine waiting for a message version matching `predicate`."""

    predicate: Callable[[EmuMessage], bool]
    future: asyncio.Future[EmuMessage]
    new_only: bool  # edits are ignored: only newly posted messages count


@dataclass
class ChatState:
    id: int
    type: str  # "private" | "group" | "supergroup"
    title: str | None = None
    user: UserState | None = None  # the other side of a private chat
    members: dict[int, str] = field(default_factory=dict)
    bot_status: str = "left"
    migrated_to: int | None = None
    migrated_from: int | None = None
    messages: dict[int, EmuMessage] = field(default_factory=dict)
    next_message_id: int = 1
    seq: int = 0
    waiters: list[Waiter] = field(default_factory=list)
    is_forum: bool = False  # a supergroup with topics
    topics: dict[int, Topic] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return "supergroup" if self.type == "supergroup" else "group"

    def store(self, message: EmuMessage) -> EmuMessage:
        """Record a new or changed version and wake the waiters it satisfies."""
        self.seq += 1
        message = replace(message, seq=self.seq)
        self.messages[message.message_id] = message
        if self.waiters:
            self._wake(message)
        return message

    def _wake(self, message: EmuMessage) -> None:
        keep: list[Waiter] = []
        for waiter in self.waiters:
            if waiter.future.done():
                continue
            if waiter.new_only and message.edited:
                keep.append(waiter)
                continue
            try:
                matched = not message.deleted and waiter.predicate(message)
            except Exception as exc:  # a broken predicate fails its own wait, not the server
                waiter.future.set_exception(exc)
                continue
            if matched:
                waiter.future.set_result(message)
            else:
                keep.append(waiter)
        self.waiters = keep

    def new_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id

    def for_bot_to_send(self) -> ChatState:
        """This chat if the bot may post in it, else Telegram's refusal."""
        if self.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self.migrated_to},
            )
        if self.type == "private":
            assert self.user is not None
            if self.user.blocked:
                raise errors.forbidden(errors.BLOCKED)
            if not self.user.started:
                raise errors.forbidden(errors.CANT_INITIATE)
        elif self.bot_status == "kicked":
            raise errors.forbidden(f"bot was kicked from the {self.kind} chat")
        elif self.bot_status == "left":
            raise errors.forbidden(f"bot is not a member of the {self.kind} chat")
        return self

    def thread_for_bot(self, thread_id: int | None) -> int | None:
        """The topic a bot's message goes to, or Telegram's refusal: only a forum's open topics
        take a `message_thread_id` (General takes none: its messages carry no thread id)."""
        if thread_id is None:
            return None
        topic = self.topics.get(thread_id) if self.is_forum else None
        if topic is None or topic.deleted:
            raise errors.bad_request(errors.THREAD_NOT_FOUND)
        if topic.closed:
            raise errors.bad_request(errors.TOPIC_CLOSED)
        return thread_id

    def message(self, message_id: int, missing: str) -> EmuMessage:
        found = self.messages.get(message_id)
        if found is None or found.deleted:
            raise errors.bad_request(missing)
        return found
