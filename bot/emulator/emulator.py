"""`Emulator`: one bot's local Telegram, an HTTP Bot API server plus the driver to act as users.

async with Emulator(token=TOKEN) as emu:
    app = ApplicationBuilder().token(TOKEN).base_url(emu.base_url).build()
    awa = emu.user(1001, "Awa", language_code="fr")
    await awa.send("/start")
    msg = await awa.private.wait_for(lambda m: "Question 1" in m.text)
    answer = await awa.tap(msg, "A")
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from . import commands as menus
from .driver import ChatView, SimUser
from .faults import Faults
from .flood import FloodLimits
from .inline import InlineAnswer
from .serialize import ANONYMOUS_ADMIN, user_json
from .server import Server
from .state import PRESENT, RESTRICTED_GONE, ChatState, EmuMessage, UserState
from .world import RequestRecord, Stats, World

RequestHook = Callable[[str, dict[str, Any], float], None]


class Emulator:
    def __init__(
        self,
        token: str = "123:ABC",
        bot_username: str = "quizbot_test_bot",
        bot_id: int | None = None,
        *,
        bot_name: str = "Quiz Bot",
        flood: FloodLimits | None = FloodLimits(),  # noqa: B008 (frozen, shared safely)
        clock: Callable[[], float] = time.time,
        strict_ampersand: bool = True,
        privacy_mode: bool = True,
        callback_answer_window: float = 15.0,
        supports_inline_queries: bool = False,
    ) -> None:
        """`flood=None` turns flood control off; `clock` dates messages and drives flood windows
        and the callback answer window; `privacy_mode` filters group messages as Telegram does
        for bots without admin rights; `strict_ampersand` rejects a stray `&` in HTML."""
        bot_id = bot_id if bot_id is not None else int(token.split(":", 1)[0])
        bot = UserState(bot_id, bot_name, username=bot_username, is_bot=True, started=True)
        self.world = World(
            token=token, bot=bot, flood=flood, clock=clock, strict_ampersand=strict_ampersand,
            privacy_mode=privacy_mode, callback_answer_window=callback_answer_window,
        )  # fmt: skip
        self.world.supports_inline_queries = supports_inline_queries
        self._server = Server(self.world)
        self._users: dict[int, SimUser] = {}

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on a free port and serve."""
        await self._server.start()

    async def stop(self) -> None:
        """Release long polls and close the server."""
        await self._server.stop()

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """For `ApplicationBuilder().base_url(...)` / `Bot(base_url=...)`: PTB appends the token."""
        if not self._server.port:
            raise RuntimeError("the emulator is not started")
        return f"http://127.0.0.1:{self._server.port}/bot"

    @property
    def base_file_url(self) -> str:
        """For `ApplicationBuilder().base_file_url(...)`: downloads of getFile's file_path."""
        return self.base_url.removesuffix("/bot") + "/file/bot"

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes of a file the bot or a user sent."""
        return self.world.files[file_id].data

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot(self) -> dict[str, Any]:
        """The bot as a User object."""
        return user_json(self.world.bot)

    # --- people and chats ------------------------------------------------------------------

    def user(
        self,
        user_id: int,
        first_name: str = "User",
        *,
        language_code: str | None = None,
        username: str | None = None,
        last_name: str | None = None,
    ) -> SimUser:
        """A simulated user (the same object on every call with this id). They have not
        started the bot until they send it something."""
        if user_id in self._users:
            return self._users[user_id]
        if user_id <= 0:
            raise ValueError("user ids are positive")
        state = UserState(user_id, first_name, username, last_name, language_code)
        self.world.add_user(state)
        self._users[user_id] = driver = SimUser(self.world, state)
        return driver

    def group(
        self, chat_id: int, title: str, *, type: str = "group", forum: bool = False
    ) -> ChatView:
        """A group or supergroup (negative id) the bot is not yet a member of; `forum`: a
        supergroup with topics (ChatView.create_topic), whose General takes no thread id."""
        if chat_id >= 0 or type not in ("group", "supergroup"):
            raise ValueError("groups have negative ids and type 'group' or 'supergroup'")
        if forum and type != "supergroup":
            raise ValueError("only a supergroup can have topics")
        chat = self.world.chats.setdefault(chat_id, ChatState(chat_id, type, title, is_forum=forum))
        return ChatView(self.world, chat)

    def channel(self, chat_id: int, title: str) -> ChatView:
        """A channel (negative id) the bot is not yet in: only its admins post, as the channel."""
        if chat_id >= 0:
            raise ValueError("channels have negative ids")
        chat = self.world.chats.setdefault(chat_id, ChatState(chat_id, "channel", title))
        return ChatView(self.world, chat)

    def chat(self, chat_id: int) -> ChatView:
        """A view of any known chat (a private chat's id is the user's id)."""
        return ChatView(self.world, self.world.chats[chat_id])

    def _group_state(self, group: ChatView | int) -> ChatState:
        return self.world.chats[group if isinstance(group, int) else group.id]

    async def add_bot_to_group(
        self, group: ChatView | int, *, by: SimUser, status: str = "member"
    ) -> None:
        """`by` adds the bot: my_chat_member, then the new_chat_members service message."""
        chat = self._group_state(group)
        if chat.bot_status in PRESENT:
            raise ValueError(f"the bot is already in chat {chat.id}")
        self.world.set_bot_status(chat, status, by.state)
        self.world.service_message(
            chat, by.state, {"new_chat_members": [user_json(self.world.bot)],
                             "new_chat_member": user_json(self.world.bot)}
        )  # fmt: skip

    async def add_bot_to_channel(
        self, channel: ChatView | int, *, by: SimUser, status: str = "administrator"
    ) -> None:
        """`by`, an admin of `channel`, adds the bot (Telegram's apps add bots to channels as
        administrators): my_chat_member only; a channel has no service message for it."""
        chat = self._group_state(channel)
        if chat.type != "channel":
            raise ValueError(f"chat {chat.id} is not a channel")
        if chat.bot_status in PRESENT:
            raise ValueError(f"the bot is already in chat {chat.id}")
        chat.members.setdefault(by.id, "creator")
        self.world.set_bot_status(chat, status, by.state)

    async def add_bot_via_link(
        self, group: ChatView | int, payload: str, *, by: SimUser, status: str = "member"
    ) -> EmuMessage:
        """`by` opens `t.me/<bot>?startgroup=<payload>` and picks `group`: the bot is added
        (my_chat_member, new_chat_members), then the client sends `/start@<bot> <payload>` in
        the group as `by`, which reaches the bot in privacy mode too (it names the bot). A
        group the bot is already in gets only the command, as from Telegram's client."""
        chat = self._group_state(group)
        if chat.bot_status not in PRESENT:
            await self.add_bot_to_group(group, by=by, status=status)
        text = f"/start@{self.world.bot.username} {payload}"
        return self.world.user_message(by.state, chat, text)

    async def member_leaves(
        self, group: ChatView | int, user: SimUser, *, service: bool = True
    ) -> None:
        """`user` leaves: status left (chat_member to an administrator bot), then the
        left_chat_member service message every member bot receives (privacy mode does not hide
        service messages). `service=False`: no service message, as in groups that hide them
        (large supergroups, or an admin bot deleting them)."""
        chat = self._group_state(group)
        restricted = chat.members.get(user.id) == "restricted"  # stays so: is_member false
        self.world.set_member_status(chat, user.state, RESTRICTED_GONE if restricted else "left")
        if service:
            self.world.service_message(
                chat, user.state, {"left_chat_member": user_json(user.state)}
            )

    async def member_joins(
        self, group: ChatView | int, user: SimUser, *, service: bool = True
    ) -> None:
        """`user` joins (again): status member (chat_member to an administrator bot), then the
        new_chat_members service message (none with `service=False`)."""
        chat = self._group_state(group)
        back = "restricted" if chat.members.get(user.id) == RESTRICTED_GONE else "member"
        self.world.set_member_status(chat, user.state, back)
        if service:
            self.world.service_message(
                chat, user.state, {"new_chat_members": [user_json(user.state)],
                                   "new_chat_member": user_json(user.state)}
            )  # fmt: skip

    async def set_bot_status(self, group: ChatView | int, status: str, *, by: SimUser) -> None:
        """Promote, restrict or demote the bot (my_chat_member update)."""
        self.world.set_bot_status(self._group_state(group), status, by.state)

    async def remove_bot_from_group(
        self, group: ChatView | int, *, by: SimUser, kicked: bool = False
    ) -> None:
        """`by` removes (or bans) the bot: my_chat_member with status left (or kicked)."""
        self.world.set_bot_status(
            self._group_state(group), "kicked" if kicked else "left", by.state
        )

    async def migrate_to_supergroup(
        self, group: ChatView | int, *, by: SimUser | None = None
    ) -> int:
        """Upgrade a group: migrate_to_chat_id in the old chat, migrate_from_chat_id in the new
        one; sends to the old id then fail with ChatMigrated. Returns the new id."""
        chat = self._group_state(group)
        if chat.type != "group" or chat.migrated_to is not None:
            raise ValueError(f"chat {chat.id} is not a basic group")
        actor = by.state if by is not None else ANONYMOUS_ADMIN
        return self.world.migrate(chat, actor).id

    # --- what the bot set up ---------------------------------------------------------------

    @property
    def supports_inline_queries(self) -> bool:
        """getMe's flag: inline mode on (@BotFather's /setinline). A bot reads it at start."""
        return self.world.supports_inline_queries

    @supports_inline_queries.setter
    def supports_inline_queries(self, on: bool) -> None:
        self.world.supports_inline_queries = on

    @property
    def inline_answers(self) -> list[InlineAnswer]:
        """Every answerInlineQuery the bot sent, oldest first."""
        return self.world.inline.answers

    def commands(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[tuple[str, str]]:
        """The (command, description) list set for exactly this scope and language."""
        key = (menus.scope_key(scope), menus.language(language_code))
        return [(c["command"], c["description"]) for c in self.world.commands.get(key, [])]

    def visible_commands(
        self, user: SimUser, chat: ChatView | int | None = None
    ) -> list[tuple[str, str]]:
        """The menu `user` sees in `chat` (default: their private chat), resolved by scope and
        language as Telegram does."""
        state = self._group_state(chat if chat is not None else user.id)
        status = "member" if state.type == "private" else state.members.get(user.id, "left")
        menu = menus.resolve(self.world.commands, user.state, state, status)
        return [(c["command"], c["description"]) for c in menu]

    @property
    def descriptions(self) -> dict[str, str]:
        """setMyDescription texts by language code ("" for the default)."""
        return self.world.descriptions

    @property
    def short_descriptions(self) -> dict[str, str]:
        return self.world.short_descriptions

    @property
    def menu_buttons(self) -> dict[int | None, dict[str, Any]]:
        return self.world.menu_buttons

    # --- observation and faults -----------------------------------------------------------

    @property
    def requests(self) -> deque[RequestRecord]:
        """The last requests as (time, method, params), oldest first; bounded."""
        return self.world.requests

    def calls(self, method: str) -> list[dict[str, Any]]:
        """Parameters of the logged requests to `method` (case-insensitive)."""
        method = method.lower()
        return [r.params for r in self.world.requests if r.method.lower() == method]

    @property
    def stats(self) -> Stats:
        return self.world.stats

    def expire_file(self, file_id: str) -> None:
        """Make Telegram forget a file_id (a photo: every size of it): sending it again is then
        refused with "wrong file identifier", as a file_id from another bot or a lost file is."""
        for known in self.world.photos.pop(file_id, ()):
            self.world.photos.pop(known["file_id"], None)
            self.world.files.pop(known["file_id"], None)
        self.world.files.pop(file_id, None)

    @property
    def faults(self) -> Faults:
        return self.world.faults

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot."""
        return len(self.world.updates)

    @property
    def last_update_id(self) -> int:
        """The id of the latest update the emulator queued for the bot (0 before any)."""
        return self.world.updates.last_id

    def push_update(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue an update of any `kind` ("channel_post", "message_reaction", a key Telegram may
        add later...) with `payload` as its JSON, exactly as given: for shapes real Telegram
        sends that no simulated user produces. The update_id it gets."""
        return self.world.updates.push(kind, payload)

    def redeliver(self, update_id: int | None = None) -> int:
        """Send the bot an update again, identical and with the same update_id (default: the
        latest), as Telegram does after a failed webhook call or an unconfirmed getUpdates."""
        return self.world.updates.redeliver(update_id)

    async def call(self, method: str, params: dict[str, Any]) -> bool:
        """Make a Bot API method the bot asked for in its answer to a webhook request, as
        Telegram does (a tap's popup: bot/webhook_replies.py). The emulator calls no webhook
        itself; whoever plays the delivery (bot/bench/webhook.py) hands such calls here."""
        return await self._server.call(method, params)

    def on_request(self, callback: RequestHook) -> Callable[[], None]:
        """Call `callback(method, params, response_time)` after each successful request;
        response_time is `time.perf_counter()` when the answer was ready. Returns a remover."""
        self.world.hooks.append(callback)
        return lambda: self.world.hooks.remove(callback)
