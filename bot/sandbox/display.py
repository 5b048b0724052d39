"""Watches the emulator and prints what the bot does, in the order Telegram would show it.

The emulator calls us after each request it served. Rather than re-parsing the request, we read
the chat it touched and print every version we have not shown yet: the emulator's snapshot is
what a phone would display (entities parsed, keyboard as stored), so the sandbox cannot drift
from what the tests see.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, TextIO

from bot.emulator import Button, Emulator, EmuMessage
from bot.emulator.state import ChatState
from bot.sandbox import terminal

GENERAL = "General"  # a forum's first topic, always there: its messages carry no thread id

CHAT_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageReplyMarkup",
        "deleteMessage",
    }
)


@dataclass(frozen=True)
class Keyboard:
    """The buttons of one message, numbered as they were last printed."""

    chat_id: int
    message_id: int
    buttons: tuple[Button, ...]


class Display:
    """Prints bubbles and popups; remembers the numbering of the last keyboard shown per chat."""

    def __init__(self, emu: Emulator, out: TextIO, *, tty: bool, bot_name: str) -> None:
        self.emu = emu
        self.out = out
        self.tty = tty
        self.bot_name = bot_name
        self.current_chat = 0
        self.prompt = ""
        self.prompt_showing = False
        self.last_activity = time.perf_counter()
        # Per chat and forum topic (None: General, or a chat without topics).
        self.keyboards: dict[tuple[int, int | None], Keyboard] = {}
        self._seen: dict[int, int] = {}  # chat id -> chat seq already printed
        self._shown: set[tuple[int, int]] = set()  # (chat, message) printed at least once
        self._remove_hook = emu.on_request(self._on_request)

    def close(self) -> None:
        self._remove_hook()

    # --- output ---------------------------------------------------------------------------

    def emit(self, block: str) -> None:
        """Print a block; if the prompt is waiting for input, print it again below."""
        if self.prompt_showing:
            self.out.write("\n")
        self.out.write(block + "\n")
        if self.prompt_showing:
            self.out.write(self.prompt)
        self.out.flush()

    def show_prompt(self, prompt: str) -> None:
        self.prompt = prompt
        self.prompt_showing = True
        self.out.write(prompt)
        self.out.flush()

    def input_received(self, line: str, *, echo: bool) -> None:
        """The person pressed Enter; in a pipe, echo the line so the transcript reads as a chat."""
        self.prompt_showing = False
        self.out.write((line + "\n") if echo else "")
        self.out.flush()

    # --- watching the emulator ------------------------------------------------------------

    def _on_request(self, method: str, params: dict[str, Any], _when: float) -> None:
        self.last_activity = time.perf_counter()
        if method in CHAT_METHODS:
            chat_id = _int(params.get("chat_id"))
            if chat_id is not None:
                self.refresh(chat_id)
        elif method == "answerCallbackQuery":
            text = params.get("text")
            if text:
                alert = str(params.get("show_alert", "")).lower() in ("true", "1")
                self.emit(terminal.popup(str(text), alert=alert))

    def refresh(self, chat_id: int) -> None:
        """Print every change in this chat since the last refresh."""
        chat = self.emu.world.chats.get(chat_id)
        if chat is None:
            return
        seen = self._seen.get(chat_id, 0)
        for message in list(chat.messages.values()):
            if message.seq > seen and message.from_bot and not message.service:
                self._print(message)
        self._seen[chat_id] = chat.seq

    def skip_history(self, chat_id: int) -> None:
        """Mark everything in a chat as seen (a chat the person has not looked at yet)."""
        chat = self.emu.world.chats.get(chat_id)
        if chat is not None:
            self._seen[chat_id] = chat.seq

    def _print(self, message: EmuMessage) -> None:
        key = (message.chat_id, message.message_id)
        # The message's number (its Telegram id in this chat): what :tap N.M and :reply N name.
        header = f"#{message.message_id} {self.bot_name}{self._where(message)}"
        if message.deleted:
            if key in self._shown:
                first = message.text.split("\n", 1)[0][:40]
                self.emit(terminal.note(f"{header} deleted a message: “{first}…”"))
            self._forget_keyboard(message)
            return
        previous = message.history[-1] if message.history else None
        closed = previous is not None and previous.text == message.text and not message.buttons
        if closed and key in self._shown:
            # A keyboard closed under a message already on screen: nothing new to read.
            self._forget_keyboard(message)
            return
        if key in self._shown:
            header += " (edited)"
        body = terminal.html_to_text(message.html, tty=self.tty) if message.html else message.text
        if message.photo is not None:  # a terminal shows no picture: its name, then the caption
            body = f"[photo: {message.photo_name}] {body}".rstrip()
        lines, flat = terminal.keyboard_lines(message.buttons)
        if flat:
            self.keyboards[(message.chat_id, message.thread_id)] = Keyboard(
                message.chat_id, message.message_id, tuple(flat)
            )
        else:
            self._forget_keyboard(message)
        self._shown.add(key)
        self.emit(terminal.bubble(header, body, lines))

    def _forget_keyboard(self, message: EmuMessage) -> None:
        key = (message.chat_id, message.thread_id)
        shown = self.keyboards.get(key)
        if shown is not None and shown.message_id == message.message_id:
            del self.keyboards[key]

    def _where(self, message: EmuMessage) -> str:
        """Name the chat in the header when it is a group (in a forum, with the message's topic),
        or not the one on screen."""
        chat = self.emu.world.chats[message.chat_id]
        if chat.is_forum:
            return f" · {chat.title} ▸ {topic_name(chat, message.thread_id)}"
        if chat.type != "private":
            return f" · {chat.title}"
        if message.chat_id != self.current_chat and chat.user is not None:
            return f" → {chat.user.first_name} (private)"
        return ""


def topic_name(chat: ChatState, thread: int | None) -> str:
    """A forum topic's name as the transcript labels it; General's messages carry no thread."""
    topic = chat.topics.get(thread) if thread is not None else None
    return topic.name if topic is not None else GENERAL


def _int(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None
