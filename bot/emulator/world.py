"""The emulated Telegram: state shared by the HTTP handlers (the bot's side) and the driver (users).

Everything users do goes through here and becomes the update Telegram would send the bot.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from . import errors
from .faults import Faults
from .flood import FloodControl, FloodLimits
from .formatted import FormattedText
from .html import HtmlError, parse_html
from .inline import InlineQueries, PendingInline
from .markup import reply_markup
from .params import Params, Upload
from .serialize import ANONYMOUS_ADMIN, chat_json, member_json, message_json, user_json
from .state import PRESENT, ChatState, EmuMessage, Topic, UserState
from .updates import UpdateQueue

_COMMAND = re.compile(r"/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?")


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a tap: the toast or alert text, and an optional URL."""

    text: str | None
    show_alert: bool = False
    url: str | None = None
    cache_time: int = 0


@dataclass
class PendingQuery:
    id: str
    user_id: int
    created: float
    answer: asyncio.Future[CallbackAnswer]


@dataclass
class Stats:
    """Counters the benchmark reads: requests per method, 429s sent, errors per (method, code)."""

    requests: Counter[str] = field(default_factory=Counter)
    flood_errors: int = 0
    errors: Counter[tuple[str, int]] = field(default_factory=Counter)
    connections: set[Any] = field(default_factory=set)  # client (host, port) pairs seen


class RequestRecord(NamedTuple):
    time: float
    method: str
    params: dict[str, Any]


class World:
    def __init__(
        self,
        *,
        token: str,
        bot: UserState,
        flood: FloodLimits | None,
        clock: Callable[[], float],
        strict_ampersand: bool = True,
        privacy_mode: bool = True,
        callback_answer_window: float = 15.0,
        request_log_size: int = 10_000,
    ) -> None:
        self.token = token
        self.bot = bot
        self.clock = clock
        self.strict_ampersand = strict_ampersand
        self.privacy_mode = privacy_mode
        self.callback_answer_window = callback_answer_window
        self.users: dict[int, UserState] = {bot.id: bot}
        self.chats: dict[int, ChatState] = {}
        self.updates = UpdateQueue()
        self.flood = FloodControl(flood, clock)
        self.faults = Faults()
        self.stats = Stats()
        self.requests: deque[RequestRecord] = deque(maxlen=request_log_size)
        self.hooks: list[Callable[[str, dict[str, Any], float], None]] = []
        self.commands: dict[tuple[tuple[tuple[str, Any], ...], str], list[dict[str, str]]] = {}
        self.descriptions: dict[str, str] = {}
        self.short_descriptions: dict[str, str] = {}
        self.menu_buttons: dict[int | None, dict[str, Any]] = {}
        self.webhook: dict[str, Any] | None = None
        self.queries: dict[str, PendingQuery] = {}
        self.files: dict[str, Upload] = {}  # file_id -> bytes the bot or a user uploaded
        self.file_paths: dict[str, str] = {}  # getFile's file_path -> file_id (downloads)
        # file_id of each PhotoSize -> every size of that photo (sendPhoto sends it again)
        self.photos: dict[str, tuple[dict[str, Any], ...]] = {}
        self.supports_inline_queries = False  # getMe's flag (@BotFather's /setinline)
        self.inline = InlineQueries()
        self._files_made = 0  # file_ids are never reused, even after `Emulator.expire_file`
        self._next_query = 4_000_000_000_000_000_000

    def now(self) -> int:
        return int(self.clock())

    # --- lookups the handlers share -------------------------------------------------------

    def chat(self, chat_id: int) -> ChatState:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise errors.bad_request(errors.CHAT_NOT_FOUND)
        return chat

    def sender(self, msg: EmuMessage) -> UserState:
        if msg.from_bot:
            return self.bot
        return self.users.get(msg.sender_id, ANONYMOUS_ADMIN)

    def message_json(self, msg: EmuMessage) -> dict[str, Any]:
        data = message_json(msg, self.chats[msg.chat_id], self.sender(msg))
        if msg.via_bot_id is not None:
            data["via_bot"] = user_json(self.bot)
        return data

    # --- what users do --------------------------------------------------------------------

    def add_user(self, user: UserState) -> UserState:
        self.users[user.id] = user
        self.chats.setdefault(
            user.id, ChatState(user.id, "private", user=user, bot_status="member")
        )
        return user

    def user_message(
        self,
        user: UserState,
        chat: ChatState,
        text: str,
        *,
        reply_to: int | None = None,
        anonymous: bool = False,
        document: dict[str, Any] | None = None,
        thread: int | None = None,
        attachment: dict[str, Any] | None = None,
    ) -> EmuMessage:
        """A user (or, anonymous, the group itself) writes `text` in `chat`; with `document`
        (or an `attachment`: a sticker, a voice note...), `text` is its caption (a command in it
        gets a bot_command caption entity). In a
        forum it goes to topic `thread`, or to the topic of the message it replies to, else to
        General."""
        if chat.migrated_to is not None:
            raise ValueError(f"chat {chat.id} was migrated to {chat.migrated_to}; post there")
        if chat.type == "private":
            if user.blocked:
                self.set_blocked(user, False)  # writing to a blocked bot means unblocking it
            user.started = True
        elif not anonymous and chat.members.get(user.id) not in PRESENT:
            raise ValueError(f"user {user.id} is not a member of chat {chat.id}")
        if thread is None and reply_to is not None and reply_to in chat.messages:
            thread = chat.messages[reply_to].thread_id
        if thread is not None:
            topic = chat.topics.get(thread) if chat.is_forum else None
            if topic is None or topic.deleted or topic.closed:
                raise ValueError(f"chat {chat.id} has no open topic {thread}")
        entities: tuple[dict[str, Any], ...] = ()
        command = _COMMAND.match(text)
        if command:
            entities = ({"offset": 0, "length": command.end(), "type": "bot_command"},)
        msg = chat.store(
            EmuMessage(
                chat.id, chat.new_message_id(), text, None, False,
                ANONYMOUS_ADMIN.id if anonymous else user.id, self.now(), entities,
                sender_chat_id=chat.id if anonymous else None, reply_to_message_id=reply_to,
                document=document, thread_id=thread, attachment=attachment,
            )
        )  # fmt: skip
        if self._bot_sees(chat, msg):
            self.updates.push("message", self.message_json(msg))
        return msg

    def edit_user_message(self, user: UserState, msg: EmuMessage, text: str) -> EmuMessage:
        """The user edits their own text message: a new version, and an edited_message update
        when the bot saw it (Telegram sends edits of messages as it sent them)."""
        chat = self.chats[msg.chat_id]
        old = chat.messages.get(msg.message_id)
        if old is None or old.deleted or old.from_bot or old.sender_id != user.id or old.service:
            raise ValueError(f"user {user.id} cannot edit message {msg.message_id}")
        command = _COMMAND.match(text)
        entities = (
            ({"offset": 0, "length": command.end(), "type": "bot_command"},) if command else ()
        )
        version = replace(
            old, text=text, entities=entities, edit_date=self.now(),
            history=(*old.history, replace(old, history=())),
        )  # fmt: skip
        stored = chat.store(version)
        if self._bot_sees(chat, stored):
            self.updates.push("edited_message", self.message_json(stored))
        return stored

    def store_user_file(
        self, filename: str, data: bytes, mime_type: str, *, file_size: int | None = None
    ) -> dict[str, Any]:
        """Keep a file a user sends; returns the message's Document object. `file_size` can
        claim another size than the bytes have (Telegram never lies; a test may)."""
        file_id = self.new_file_id("BQAC")
        self.files[file_id] = Upload(filename, mime_type, data)
        return {
            "file_id": file_id,
            "file_unique_id": f"u{file_id}",
            "file_name": filename,
            "mime_type": mime_type,
            "file_size": len(data) if file_size is None else file_size,
        }

    def new_file_id(self, prefix: str) -> str:
        self._files_made += 1
        return f"{prefix}{self._files_made:08d}"

    def file_path(self, file_id: str) -> str:
        """getFile's file_path for a known file (the same path on every call)."""
        for path, known in self.file_paths.items():
            if known == file_id:
                return path
        suffix = "".join(c for c in self.files[file_id].filename.rpartition(".")[2][:8]
                         if c.isalnum())  # fmt: skip
        folder = "photos" if file_id in self.photos else "documents"
        path = f"{folder}/file_{len(self.file_paths)}" + (f".{suffix}" if suffix else "")
        self.file_paths[path] = file_id
        return path

    def _bot_sees(self, chat: ChatState, msg: EmuMessage) -> bool:
        """Privacy mode: in groups a bot gets commands and replies to it, unless it is admin."""
        if chat.type == "private":
            return True
        if chat.bot_status not in PRESENT:
            return False
        if not self.privacy_mode or chat.bot_status in ("administrator", "creator"):
            return True
        if msg.text.startswith("/"):
            command = msg.text.split(maxsplit=1)[0]
            addressee = command.partition("@")[2]
            return not addressee or addressee.lower() == (self.bot.username or "").lower()
        replied = chat.messages.get(msg.reply_to_message_id or 0)
        return replied is not None and replied.from_bot

    def tap(self, user: UserState, msg: EmuMessage, data: str) -> PendingQuery:
        """A user presses an inline button: a callback_query update carrying `data`."""
        self._next_query += 1
        query = PendingQuery(
            str(self._next_query), user.id, self.clock(), asyncio.get_running_loop().create_future()
        )
        self.queries[query.id] = query
        self.updates.push(
            "callback_query",
            {
                "id": query.id,
                "from": user_json(user),
                "message": self.message_json(msg),
                "chat_instance": str(abs(msg.chat_id) * 7919 % 10**18),
                "data": data,
            },
        )
        return query

    def inline_query(
        self, user: UserState, query: str, chat_type: str, offset: str = ""
    ) -> PendingInline:
        """A user types `@bot query` in a chat of `chat_type`: an inline_query update (only
        when inline mode is on; otherwise Telegram's client does not even ask the bot)."""
        if not self.supports_inline_queries:
            raise ValueError("inline mode is off: set emu.supports_inline_queries = True")
        asked = self.inline.ask(user.id, query, self.clock())
        payload = {"id": asked.id, "from": user_json(user), "query": query, "offset": offset,
                   "chat_type": chat_type}  # fmt: skip
        self.updates.push("inline_query", payload)
        return asked

    def post_inline(
        self,
        user: UserState,
        chat: ChatState,
        result: dict[str, Any],
        thread: int | None = None,
    ) -> EmuMessage:
        """A user picks an article result: its message, sent by them "via @bot", in `chat`;
        in a forum, in the topic `thread` they typed it in (None: General), as any message."""
        if thread is not None:
            topic = chat.topics.get(thread) if chat.is_forum else None
            if topic is None or topic.deleted or topic.closed:
                raise ValueError(f"chat {chat.id} has no open topic {thread}")
        content = result.get("input_message_content") or {}
        raw = str(content.get("message_text", ""))
        formatted: FormattedText
        if str(content.get("parse_mode", "")).lower() == "html":
            try:
                formatted = parse_html(raw, strict_ampersand=self.strict_ampersand)
            except HtmlError as err:
                raise ValueError(f"the result's text does not parse: {err}") from None
        else:
            formatted = FormattedText(raw, tuple(content.get("entities") or ()))
        markup, buttons = reply_markup(Params({"reply_markup": result.get("reply_markup")}))
        return chat.store(
            EmuMessage(
                chat.id, chat.new_message_id(), formatted.text, raw, False, user.id, self.now(),
                formatted.entities, buttons, markup, via_bot_id=self.bot.id, thread_id=thread,
            )
        )  # fmt: skip

    def answer(self, query_id: str | None, answer: CallbackAnswer) -> None:
        """answerCallbackQuery: once per query, within the answer window."""
        query = self.queries.pop(query_id or "", None)
        if query is None or self.clock() - query.created > self.callback_answer_window:
            raise errors.bad_request(errors.QUERY_TOO_OLD)
        if not query.answer.done():
            query.answer.set_result(answer)

    # --- membership -----------------------------------------------------------------------

    def set_bot_status(self, chat: ChatState, status: str, by: UserState) -> None:
        """The bot's membership changes: Telegram sends my_chat_member."""
        old = chat.bot_status
        chat.bot_status = status
        self.updates.push(
            "my_chat_member",
            {
                "chat": chat_json(chat),
                "from": user_json(by),
                "date": self.now(),
                "old_chat_member": member_json(self.bot, old),
                "new_chat_member": member_json(self.bot, status),
            },
        )

    def set_member_status(self, chat: ChatState, user: UserState, status: str) -> None:
        """A member's status changes: Telegram sends chat_member, to administrator bots only
        (and only to those that asked for it in allowed_updates: see updates.py)."""
        old = chat.members.get(user.id, "left")
        chat.members[user.id] = status
        if chat.bot_status not in ("administrator", "creator"):
            return
        self.updates.push(
            "chat_member",
            {
                "chat": chat_json(chat),
                "from": user_json(user),
                "date": self.now(),
                "old_chat_member": member_json(user, old),
                "new_chat_member": member_json(user, status),
            },
        )

    def set_blocked(self, user: UserState, blocked: bool) -> None:
        chat = self.chats[user.id]
        user.blocked = blocked
        self.set_bot_status(chat, "kicked" if blocked else "member", user)

    def service_message(self, chat: ChatState, by: UserState, service: dict[str, Any]) -> None:
        msg = chat.store(
            EmuMessage(chat.id, chat.new_message_id(), "", None, by.id == self.bot.id, by.id,
                       self.now(), service=service)
        )  # fmt: skip
        self.updates.push("message", self.message_json(msg))

    def migrate(self, chat: ChatState, by: UserState) -> ChatState:
        """Group -> supergroup, in Telegram's order of service messages."""
        new_id = -1_000_000_000_000 - abs(chat.id)
        new = ChatState(new_id, "supergroup", chat.title, members=dict(chat.members),
                        bot_status=chat.bot_status, migrated_from=chat.id)  # fmt: skip
        self.chats[new_id] = new
        self.service_message(chat, by, {"migrate_to_chat_id": new_id})
        chat.migrated_to = new_id
        self.service_message(new, by, {"migrate_from_chat_id": chat.id})
        return new

    # --- forum topics -----------------------------------------------------------------------

    def create_topic(self, chat: ChatState, by: UserState, name: str) -> int:
        """A new topic: its id is the id of its forum_topic_created service message."""
        if not chat.is_forum:
            raise ValueError(f"chat {chat.id} is not a forum supergroup")
        topic_id = chat.next_message_id
        chat.topics[topic_id] = Topic(topic_id, name)
        self._topic_service(chat, by, topic_id, {"name": name, "icon_color": 7322096}, "created")
        return topic_id

    def edit_topic(
        self, chat: ChatState, by: UserState, topic_id: int, name: str | None, icon: str | None
    ) -> None:
        """An admin renames a topic or changes its icon: a forum_topic_edited service message
        in the topic, carrying only what changed. Later messages there still reply to the
        topic's creation, which keeps the first name (as on Telegram)."""
        edited: dict[str, Any] = {}
        if name is not None:
            chat.topics[topic_id].name = edited["name"] = name
        if icon is not None:
            edited["icon_custom_emoji_id"] = icon
        self._topic_service(chat, by, topic_id, edited, "edited")

    def close_topic(
        self, chat: ChatState, by: UserState, topic_id: int, *, closed: bool = True
    ) -> None:
        """An admin closes (or reopens) a topic: the bot's sends there get TOPIC_CLOSED. The
        forum_topic_closed (reopened) service message is posted in the topic."""
        chat.topics[topic_id].closed = closed
        self._topic_service(chat, by, topic_id, {}, "closed" if closed else "reopened")

    def _topic_service(
        self, chat: ChatState, by: UserState, topic_id: int, data: dict[str, Any], what: str
    ) -> None:
        """The `forum_topic_<what>` service message in topic `topic_id`, sent to the bot when
        it is in the chat."""
        msg = chat.store(
            EmuMessage(chat.id, chat.new_message_id(), "", None, False, by.id, self.now(),
                       service={f"forum_topic_{what}": data}, thread_id=topic_id)
        )  # fmt: skip
        if chat.bot_status in PRESENT:
            self.updates.push("message", self.message_json(msg))

    def delete_topic(self, chat: ChatState, topic_id: int) -> None:
        """An admin deletes a topic with its messages: sends there find no thread."""
        chat.topics[topic_id].deleted = True
        for msg in list(chat.messages.values()):
            if msg.thread_id == topic_id and not msg.deleted:
                self.delete(chat, msg)

    def delete(self, chat: ChatState, msg: EmuMessage) -> None:
        chat.store(replace(msg, deleted=True))
