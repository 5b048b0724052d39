"""A running quizbot against the local emulator, for end-to-end tests (real HTTP both ways).

The store is the SQLite file at `db_path`, or, for a test marked `both_engines` in its
PostgreSQL variant, a fresh PostgreSQL database (tests/e2e/conftest.py sets `STORE.dsn`);
`Harness.rows` reads either one in the store's common SQL dialect, and tests/e2e/reads.py names
the reads the tests ask.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sqlite3
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.compose import build_services
from bot.content import default_content_dir, load_catalog
from bot.core.models import Catalog, Question
from bot.emulator import Emulator
from bot.emulator.driver import CallbackAnswer, ChatView, Mark, SimUser
from bot.emulator.state import EmuMessage
from bot.store.daily_dues import DailyDueStore
from bot.store.pg.database import PgDatabase
from bot.store.pg.dialect import to_postgres
from bot.tg.app import QuizBot
from bot.tg.options import BotOptions, service_inputs
from bot.tg.wire.timer_backends import ClockTimers, Timers
from tests.e2e.reads import StoreReads

TOKEN = "123456:TEST-token-never-logged"


def compose_bot(options: BotOptions) -> QuizBot:
    """The bot with its services built, as an entry point composes it (bot/cli/run.py): the
    tests are an entry point too (tests/test_layers.py)."""
    return QuizBot(options, build_services(*service_inputs(options)))


@dataclass
class FakeClock:
    """A controllable clock: tests move time forward instead of sleeping."""

    now: float = 1_790_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class StoreChoice:
    """The engine of the harnesses the current test builds (set per test by the conftest)."""

    dsn: str | None = None  # None: SQLite at the harness's db_path


STORE = StoreChoice()


def _pg_rows(dsn: str, sql: str, args: Sequence[object]) -> list[tuple[Any, ...]]:
    """One read on PostgreSQL, from a synchronous test line: on a loop of its own (a thread),
    like the sqlite3 read, while the bot's loop waits."""

    async def fetch() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(dsn)
        try:
            return [tuple(row) for row in await conn.fetch(to_postgres(sql), *args)]
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


@dataclass
class Harness(StoreReads):
    """The bot, its emulator and its store; the named reads of tests/e2e/reads.py ask the store."""

    emu: Emulator
    db_path: Path
    catalog: Catalog
    clock: FakeClock = field(default_factory=FakeClock)
    bot: QuizBot | None = None
    # quizbot's default; `QUIZBOT_TRANSPORT=httpx python -m pytest tests/e2e` runs them on PTB's.
    transport: str = field(default_factory=lambda: os.environ.get("QUIZBOT_TRANSPORT", "aiohttp"))
    dsn: str | None = field(default_factory=lambda: STORE.dsn)  # PostgreSQL, or None: SQLite
    # True: the bot's timers (group deadlines, schedules, exam clocks) are due on `clock`, and
    # fire when a test moves it (`advance`), not as real time passes; False: PTB's JobQueue,
    # production's one-process backend, on real time.
    clock_timers: bool = False
    timers: ClockTimers | None = None  # the running bot's, when `clock_timers`
    # Simulated users send at machine speed: a private chat's burst guard is off unless a test
    # turns it on (tests/e2e/test_private_floods.py), as the rate limiter is.
    sender_burst: int | None = None

    @property
    def engine(self) -> str:
        return "sqlite" if self.dsn is None else "postgresql"

    @property
    def store(self) -> str:
        """The store as an operator's `--db` (or QUIZBOT_DB) names it: the file, or the URL."""
        return self.dsn or str(self.db_path)

    def rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        """Rows of one read of the bot's store, as tuples (SQL in the store's dialect)."""
        if self.dsn is not None:
            return _pg_rows(self.dsn, sql, args)
        with contextlib.closing(sqlite3.connect(self.db_path)) as conn:
            return conn.execute(sql, args).fetchall()

    def options(self) -> BotOptions:
        return BotOptions(
            token=TOKEN,
            db_path=self.db_path,
            catalog=self.catalog,
            base_url=self.emu.base_url,
            clock=self.clock,
            rng=random.Random(1234),
            rate_limit=False,
            transport=self.transport,
            # as `quizbot run` opens it: listening for other processes' changes
            database=PgDatabase(self.dsn, listen=True) if self.dsn is not None else None,
            timers=self._new_timers if self.clock_timers else None,
            sender_burst=self.sender_burst,
        )

    def _new_timers(self, dues: DailyDueStore) -> Timers:
        """The bot's timers on the fake clock (BotOptions.timers): one set per start, as a
        JobQueue's jobs live and die with the process (their daily moments kept in `dues`)."""
        self.timers = ClockTimers(self.clock, dues)
        return self.timers

    async def advance(self, seconds: float) -> None:
        """Time passes: the clock moves `seconds` on and, with `clock_timers`, every timer that
        came due fires, in due order, each handler to its end (a reveal, the next question)."""
        if self.timers is None:
            self.clock.advance(seconds)
        else:
            await self.timers.advance(seconds)

    async def next_timer(self, kind: str = "run", timeout: float = 5.0) -> None:
        """Time passes until the soonest timer of `kind` is due (a group question's deadline by
        default), and it fires with whatever else came due by then. A question's deadline is
        armed just after its message is sent: if none is armed yet, wait (`timeout` seconds of
        real time at most) for the bot to arm it."""
        assert self.timers is not None, "a harness with clock_timers=True"
        try:
            await asyncio.wait_for(self.timers.armed(kind), timeout)
        except TimeoutError:
            raise AssertionError(f"no {kind} timer armed within {timeout} s") from None
        await self.advance(max(0.0, self.timers.pending(kind)[0][0] - self.clock()))

    async def start_bot(self) -> QuizBot:
        self.bot = compose_bot(self.options())
        await self.bot.start(poll_timeout=1)
        return self.bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
            self.bot = None
        if self.timers is not None:
            await self.timers.close()  # they die with the process; the next start re-arms them
            self.timers = None

    async def restart_bot(self) -> QuizBot:
        await self.stop_bot()
        return await self.start_bot()


def shipped_catalog() -> Catalog:
    return load_catalog(default_content_dir())


@asynccontextmanager
async def running(
    tmp_path: Path, catalog: Catalog | None = None, transport: str | None = None
) -> AsyncIterator[Harness]:
    async with Emulator(token=TOKEN, flood=None) as emu:
        harness = Harness(emu, tmp_path / "quizbot.sqlite3", catalog or shipped_catalog())
        if transport is not None:
            harness.transport = transport
        await harness.start_bot()
        try:
            yield harness
        finally:
            await harness.stop_bot()


async def answered(chat: ChatView, question: EmuMessage, after: Mark) -> EmuMessage:
    """The question once answered: one message per question, so the question itself is edited to
    carry the verdict, the explanation and Next (`after`: the mark taken before the tap)."""
    return await chat.wait_for(
        lambda m: (
            m.message_id == question.message_id
            and m.edited
            and bool(m.buttons)
            and not is_select_all(m)
        ),  # a select-all question's toggles redraw it before Submit
        after=after,
    )


def reply_prompt(message: EmuMessage) -> bool:
    """A message asking for a typed reply (ForceReply): a number question's prompt."""
    return bool(message.reply_markup and message.reply_markup.get("force_reply"))


async def answer_current(
    user: SimUser,
    question: EmuMessage,
    *,
    choice: str | None = None,
    typed: str = "0",
    chat: ChatView | None = None,
) -> EmuMessage:
    """Answer the question shown in `question`, whatever its kind, and return it once answered
    (edited to carry the verdict, the explanation and Next): a question with buttons gets a tap
    on `choice` (default: its first button); one without (a number question) gets `typed` as a
    reply to the prompt that follows it; a select-all question toggles the letters in `choice`
    (default: A), then Submit."""
    view = chat or user.private
    mark = view.mark()
    if is_select_all(question):
        await answer_select_all(user, question, choice or "A")
    elif question.buttons:
        await user.tap(question, choice or question.buttons[0][0].text)
    else:
        prompt = await view.wait_for(
            lambda m: reply_prompt(m) and m.message_id > question.message_id
        )
        await user.send(typed, reply_to=prompt, chat=chat)
    return await answered(view, question, mark)


def typed_for(question: Question, right: bool = True) -> str:
    """What to type for a number question: its value (a range's middle), or a value well
    outside the key when `right` is False ("." is read in every language)."""
    key = question.number
    assert key is not None, f"{question.id} is not a number question"
    if key.value is not None:
        value = key.value
    else:
        assert key.low is not None and key.high is not None
        value = (key.low + key.high) / 2
    if not right:
        value += key.tolerance + (key.high or 0) - (key.low or 0) + 1000
    return format(value, "g")


# -- answering whatever the question's kind ----------------------------------------------------

SUBMIT = "📨 Submit"


def submit_label(question: EmuMessage) -> str | None:
    """The Submit button's label on a select-all question (kind: multiple), in any language;
    None on any other message."""
    for row in question.buttons:
        for b in row:
            if b.callback_data is not None and b.callback_data.startswith(("sub:", "gs:", "rvu:")):
                return b.text
    return None


def is_select_all(question: EmuMessage) -> bool:
    """A select-all question: toggles and a Submit button."""
    return submit_label(question) is not None


def toggle_label(question: EmuMessage, letter: str) -> str:
    """The current label of a select-all question's toggle for `letter` ("☐ A" or "☑ A")."""
    for row in question.buttons:
        for b in row:
            if b.text[-2:] == f" {letter}" and b.text[0] in "☐☑":
                return b.text
    raise LookupError(f"no toggle {letter} on message {question.message_id}")


def right_letters(question: EmuMessage, q: Question, lang: str = "en") -> str:
    """The letters of `q`'s right options as `question` shows them (shuffled or not)."""
    shown = [line for line in question.text.splitlines() if line[1:3] == ". "]
    texts = [line[3:].strip() for line in shown]
    found = ""
    for index in sorted(q.key):
        text = q.options[index].text.get(lang).replace("`", "")
        found += "ABCDEFGHIJ"[texts.index(text)]
    return "".join(sorted(found))


async def answer_select_all(
    user: SimUser, question: EmuMessage, letters: str = "A"
) -> CallbackAnswer | None:
    """Toggle each of `letters` on a select-all question, then Submit; the Submit popup (in a
    private chat each toggle's redraw comes before its popup, so the next tap sees it)."""
    private = question.chat_id == user.id
    for letter in letters:
        current = user.private.message(question.message_id) if private else question
        await user.tap(current, toggle_label(current, letter))
    return await user.tap(question, submit_label(question) or SUBMIT)


def wrong_letter(question: EmuMessage, q: Question, lang: str = "en") -> str:
    """A letter of a wrong option of `q` as `question` shows it."""
    right = right_letters(question, q, lang)
    shown = [line for line in question.text.splitlines() if line[1:3] == ". "]
    return next(line[0] for line in shown if line[0] not in right)


async def answer_as(
    user: SimUser, question: EmuMessage, q: Question, *, right: bool, lang: str = "en"
) -> CallbackAnswer | None:
    """Answer `question` (the message of `q`) rightly or wrongly, whatever its kind: a tap on a
    letter, or (select-all) every right letter, or one wrong one, then Submit. The last popup."""
    letters = right_letters(question, q, lang) if right else wrong_letter(question, q, lang)
    if is_select_all(question):
        return await answer_select_all(user, question, letters)
    return await user.tap(question, letters[0])
