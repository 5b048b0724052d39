"""One sandbox session: the emulator and the real bot in this process, and the person's place in it.

The person acts as a simulated user in a chat (their private chat with the bot, or the study
group); each line they type becomes a message or a tap. After each action we wait until the bot
is quiet, so the prompt comes back only once the answer is on screen (what makes a piped
transcript deterministic).
"""

from __future__ import annotations

import asyncio
import logging
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from aiohttp import web

from bot.cli.run import start_dashboard
from bot.compose import build_services
from bot.content import default_content_dir, load_catalog
from bot.core.dashboard_math import group_start_param
from bot.emulator import Button, ChatView, Emulator, EmuMessage, FloodLimits, SimUser, TapTimeout
from bot.sandbox import terminal
from bot.sandbox.display import GENERAL, Display, topic_name
from bot.tg.app import QuizBot
from bot.tg.mini_app import DashboardLinks
from bot.tg.options import BotOptions, service_inputs
from bot.web.auth import sign_init_data

log = logging.getLogger(__name__)

# Not a real token: the emulator accepts only this one, and nothing ever leaves 127.0.0.1.
TOKEN = "4242424242:sandbox-offline-not-a-real-token"
BOT_NAME = "Quiz Bot"
BOT_USERNAME = "quizbot_sandbox_bot"
GROUP_ID = -4_000_000_001
GROUP_TITLE = "Study group"
# `:topic`: a supergroup with topics beside the basic group, so the basic group's transcripts stay.
FORUM_ID = -1_004_000_000_002
FORUM_TITLE = "Study forum"
TOPIC_NAME_MAX = 128  # Telegram's bound on a topic's name
# Fixed ids, so a second run finds the same people (and their progress) in the SQLite file.
PEOPLE = {
    "you": (1001, "You", "en"),
    "moussa": (1002, "Moussa", "wo"),
    "claire": (1003, "Claire", "fr"),
}


@dataclass
class SandboxOptions:
    db_path: Path
    language: str = "en"  # the local user's Telegram language_code
    question_seconds: float | None = None
    flood: bool = True  # Telegram's limits (1 message/s in a private chat, 20/min in a group)
    quiet: float = 0.15  # the bot counts as done after this long without a request
    settle_cap: float = 10.0  # but the prompt never waits longer than this


class Session:
    """The emulator, the bot and who the person is acting as, and where."""

    def __init__(self, options: SandboxOptions, out: TextIO, *, tty: bool, echo: bool) -> None:
        self.options = options
        self.echo = echo
        self.emu = Emulator(
            token=TOKEN,
            bot_username=BOT_USERNAME,
            bot_name=BOT_NAME,
            flood=FloodLimits() if options.flood else None,
            supports_inline_queries=True,  # 📤 Share and :inline work here (@BotFather: /setinline)
        )
        self.display = Display(self.emu, out, tty=tty, bot_name=BOT_NAME)
        self.bot: QuizBot | None = None
        self.me: SimUser | None = None
        self.chat: ChatView | None = None
        self.group: ChatView | None = None
        self.forum: ChatView | None = None
        self.thread: int | None = None  # the forum topic we are in (None: General, or no forum)
        # Acting once as someone else (:as): the chat on screen stays the one we come back to.
        self.visiting = False
        self.dashboard: web.AppRunner | None = None
        self.dashboard_base = ""

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        await self.emu.start()
        try:
            options = self._bot_options()  # an entry point: it composes its bot's services
            self.bot = QuizBot(options, build_services(*service_inputs(options)))
            await self.bot.start(poll_timeout=5)
        except BaseException:
            await self.emu.stop()
            raise
        self.me = self.user("You", self.options.language)
        self.chat = self.me.private
        self.display.current_chat = self.chat.id
        # The Mini App dashboard beside the bot, on this machine only; links are signed here
        # with the sandbox's own token, as Telegram would sign them with a real one.
        self.dashboard, port = await start_dashboard(self.bot, TOKEN, "127.0.0.1", 0)
        self.dashboard_base = f"http://127.0.0.1:{port}/"
        # /stats carries its "📊 Dashboard" button as in production; the port is known only now,
        # after the bot started, so the handlers get the links here (a tap prints a signed link).
        self.bot.progress_handlers.dashboard = DashboardLinks(self.dashboard_base)

    def dashboard_url(self) -> str:
        """A link that opens the dashboard as the current person: their page, or in the group,
        the group's page (for its admins)."""
        assert self.me is not None and self.chat is not None
        user = {
            "id": self.me.id,
            "first_name": self.me.state.first_name,
            "language_code": self.me.state.language_code,
        }
        start = group_start_param(self.chat.id) if self.chat.type != "private" else None
        data = sign_init_data(TOKEN, user, start_param=start)
        return f"{self.dashboard_base}#tgWebAppData={quote(data, safe='')}"

    def _bot_options(self) -> BotOptions:
        # The shipped content, as `quizbot run` serves it; rate_limit as in production, since
        # the emulator answers 429 like Telegram.
        return BotOptions(
            token=TOKEN, db_path=self.options.db_path, catalog=load_catalog(default_content_dir()),
            base_url=self.emu.base_url, rate_limit=True,
            question_seconds=self.options.question_seconds,
        )  # fmt: skip

    async def stop(self) -> None:
        self.display.close()
        try:
            if self.dashboard is not None:
                await self.dashboard.cleanup()
            if self.bot is not None:
                await self.bot.stop()
        finally:
            await self.emu.stop()

    # --- people and places ----------------------------------------------------------------

    def user(self, name: str, language: str | None = None) -> SimUser:
        """The simulated user called `name`, created on first use with a stable id."""
        known = PEOPLE.get(name.lower())
        if known is not None:
            user_id, display_name, default_language = known
        else:
            user_id = 2000 + zlib.crc32(name.lower().encode()) % 10**6
            display_name, default_language = name, "en"
        user = self.emu.user(user_id, display_name, language_code=language or default_language)
        if language is not None:
            user.state.language_code = language
        return user

    def where(self) -> str:
        assert self.me is not None and self.chat is not None
        name = self.me.state.first_name
        if self.chat.type == "private":
            return name
        if self.chat.is_forum:
            topic = topic_name(self.emu.world.chats[self.chat.id], self.thread)
            return f"{name} @ {self.chat.title} ▸ {topic}"
        return f"{name} @ {self.chat.title}"

    def topics(self) -> list[str]:
        """The forum's open topics, General first, in the order they were made."""
        if self.forum is None:
            return []
        chat = self.emu.world.chats[self.forum.id]
        return [GENERAL] + [t.name for t in chat.topics.values() if not (t.deleted or t.closed)]

    def switch_user(self, user: SimUser) -> None:
        """Become `user`, staying in the group if we are in it."""
        self.me = user
        if self.chat is not None and self.chat.type != "private":
            self._join(self.chat, user)
        else:
            self._move(user.private)

    async def enter_group(self) -> None:
        """Into the study group; on first use, create it with its members and add the bot."""
        assert self.me is not None
        if self.group is None:
            self.group = self.emu.group(GROUP_ID, GROUP_TITLE)
            you = self.user("You")
            self.group.add_member(you, "creator")
            for name in ("Moussa", "Claire"):
                self.group.add_member(self.user(name), "member")
            self._move(self.group)
            self.display.emit(terminal.note(
                f"{GROUP_TITLE}: You (creator), Moussa (wo), Claire (fr); You add {BOT_NAME}"
            ))  # fmt: skip
            await self.emu.add_bot_to_group(self.group, by=you)
        self._join(self.group, self.me)
        self._move(self.group)

    async def enter_topic(self, name: str) -> None:
        """Into topic `name` of the study forum (General when empty); on first use, create the
        forum (You: creator; Moussa and Claire: members; You add the bot), then the topic."""
        assert self.me is not None
        if self.forum is None:
            self.forum = self.emu.group(FORUM_ID, FORUM_TITLE, type="supergroup", forum=True)
            you = self.user("You")
            self.forum.add_member(you, "creator")
            for member in ("Moussa", "Claire"):
                self.forum.add_member(self.user(member), "member")
            self._move(self.forum)
            self.display.emit(terminal.note(
                f"{FORUM_TITLE}, a supergroup with topics: You (creator), Moussa (wo), "
                f"Claire (fr); You add {BOT_NAME}"
            ))  # fmt: skip
            await self.emu.add_bot_to_group(self.forum, by=you)
            await self.settle()  # its how-to in General comes before the topic is made
        chat = self.emu.world.chats[self.forum.id]
        thread: int | None = None
        if name and name.casefold() != GENERAL.casefold():
            found = [t for t in chat.topics.values() if t.name.casefold() == name.casefold()]
            open_ = [t for t in found if not (t.deleted or t.closed)]
            if open_:
                thread = open_[0].id
            else:
                self.display.emit(terminal.note(f"You create the topic {name}"))
                thread = self.forum.create_topic(name, by=self.user("You"))
        self._join(self.forum, self.me)
        self._move(self.forum, thread)

    def rename_topic(self, name: str) -> str | None:
        """Rename the topic we are in to `name`, as You (its creator) would in the topic's
        settings: the bot hears forum_topic_edited. Why not, if it cannot be."""
        if self.forum is None or self.chat is None or self.chat.id != self.forum.id:
            return ":rename works in a forum topic: :topic NAME goes into one first"
        if self.thread is None:
            return "General keeps its name here: :topic NAME goes into a topic to rename"
        if not name:
            return "usage: :rename NEW NAME (in the topic you are in)"
        if len(name) > TOPIC_NAME_MAX:
            return f"a topic's name has at most {TOPIC_NAME_MAX} characters"
        chat = self.emu.world.chats[self.forum.id]
        if name.casefold() == GENERAL.casefold():
            return f"{GENERAL} is the forum's first topic: choose another name"
        for topic in chat.topics.values():
            taken = topic.id != self.thread and not (topic.deleted or topic.closed)
            if taken and topic.name.casefold() == name.casefold():
                return f"another topic is called {topic.name}; :topic finds topics by name"
        old = topic_name(chat, self.thread)
        self.display.emit(terminal.note(f"You rename the topic {old} to {name}"))
        self.forum.edit_topic(self.thread, name=name, by=self.user("You"))
        return None

    def enter_private(self) -> None:
        assert self.me is not None
        self._move(self.me.private)

    def come_back(self, user: SimUser, chat: ChatView, thread: int | None = None) -> None:
        """Be `user` in `chat` (and its topic `thread`) again, after :as, which may have moved
        to another private chat."""
        self.me = user
        self._move(chat, thread)

    def _join(self, group: ChatView, user: SimUser) -> None:
        if group.member_status(user) in ("left", "kicked"):
            group.add_member(user, "member")
            self.display.emit(terminal.note(f"{user.state.first_name} joins {group.title}"))

    def _move(self, chat: ChatView, thread: int | None = None) -> None:
        self.chat = chat
        self.thread = thread
        if not self.visiting:
            self.display.current_chat = chat.id

    # --- actions --------------------------------------------------------------------------

    async def say(self, text: str) -> None:
        assert self.me is not None and self.chat is not None
        chat = None if self.chat.type == "private" else self.chat
        await self.me.send(text, chat=chat, thread=self.thread)

    async def upload(self, path: Path) -> None:
        """Send a local file here as a document with `/upload` as its caption, as an admin
        would from Telegram (in private the bot then asks which group it is for)."""
        assert self.me is not None and self.chat is not None
        data = path.read_bytes()
        chat = None if self.chat.type == "private" else self.chat
        await self.me.send_document(
            path.name, data, caption="/upload", chat=chat, thread=self.thread
        )

    async def reply(self, message: EmuMessage, text: str) -> None:
        """Send `text` as a reply to `message` (a group's number answer must be one)."""
        assert self.me is not None and self.chat is not None
        chat = None if self.chat.type == "private" else self.chat
        await self.me.send(text, chat=chat, reply_to=message)

    def message(self, number: int) -> EmuMessage | None:
        """The bot's message numbered `number` (as the transcript shows it) in this chat, or a
        card posted via the bot (`:inline #N`)."""
        assert self.chat is not None
        message = self.emu.world.chats[self.chat.id].messages.get(number)
        if message is None or message.deleted or message.service:
            return None
        if not (message.from_bot or message.via_bot_id):
            return None
        return message

    def asks_for_reply(self) -> bool:
        """Whether the bot's latest message here asks for a typed reply (a number question's
        prompt, sent with ForceReply): then a typed number is an answer, not a missed button."""
        assert self.chat is not None
        shown = [m for m in self.chat.in_topic(self.thread) if not m.deleted]
        markup = shown[-1].reply_markup if shown else None
        return bool(markup and markup.get("force_reply"))

    def menu(self) -> list[tuple[str, str]]:
        """The command menu a client shows here on "/" (what the bot published with
        setMyCommands, resolved for this person and chat as Telegram does)."""
        assert self.me is not None and self.chat is not None
        return self.emu.visible_commands(self.me, self.chat)

    def button(self, typed: str) -> tuple[EmuMessage, Button] | None:
        """The button a typed number (as last numbered) or exact label means, if any."""
        assert self.chat is not None
        shown = self.display.keyboards.get((self.chat.id, self.thread))
        if shown is None:
            return None
        buttons = shown.buttons
        chosen: Button | None = None
        if typed.isdigit() and 1 <= int(typed) <= len(buttons):
            chosen = buttons[int(typed) - 1]
        else:
            labels = [b for b in buttons if b.text == typed] or [
                b for b in buttons if b.text.casefold() == typed.casefold()
            ]
            chosen = labels[0] if labels else None
        if chosen is None:
            return None
        return self.chat.message(shown.message_id), chosen

    async def tap(self, message: EmuMessage, button: Button) -> None:
        assert self.me is not None
        if button.url is not None:
            self.display.emit(terminal.note(f"“{button.text}” opens {button.url} in a browser"))
            return
        if button.switch_inline_query is not None:  # 📤 Share: "@bot <query>" in a chat you pick
            self.display.emit(terminal.note(
                f"“{button.text}” types @{BOT_USERNAME} {button.switch_inline_query} in a chat "
                f"you pick: here, :inline {button.switch_inline_query}"
            ))  # fmt: skip
            return
        if button.callback_data is None:  # a Mini App button: Telegram opens it signed for you
            self.display.emit(
                terminal.note(f"“{button.text}” opens the Mini App: {self.dashboard_url()}")
            )
            return
        if message.deleted or button not in [b for row in message.buttons for b in row]:
            self.display.emit(terminal.note("that button is no longer there"))
            return
        try:
            await self.me.tap(message, callback_data=button.callback_data,
                              timeout=self.options.settle_cap)  # fmt: skip
        except TapTimeout:
            self.display.emit(terminal.note("the bot did not answer the tap"))

    async def settle(self) -> None:
        """Wait until the bot has answered: nothing queued or running, and no request for a
        moment (the rate limiter may hold a message back, so requests alone are not enough)."""
        assert self.bot is not None
        begin = time.perf_counter()
        processor = self.bot.app.update_processor
        await asyncio.sleep(0.02)
        while time.perf_counter() - begin < self.options.settle_cap:
            busy = (
                self.emu.pending_updates
                or self.bot.app.update_queue.qsize()
                or processor.current_concurrent_updates
            )
            if not busy and time.perf_counter() - self.display.last_activity >= self.options.quiet:
                return
            await asyncio.sleep(0.02)
