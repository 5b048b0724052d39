"""A study group for end-to-end tests: a bot with short timers and short quizzes, a group with
its admin, and readers of what a group question shows. Shared by the group tests (e2e,
reliability, observability, the dashboard's scenario), so no test imports another."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from bot.core.markup import plain
from bot.core.models import Catalog, Quiz
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from bot.tg.app import QuizBot
from bot.tg.options import BotOptions
from tests.e2e.harness import TOKEN, Harness, shipped_catalog

LETTERS = "ABCD"
QUIZ = "gradient-accumulation"


def short_catalog(questions: int = 2) -> Catalog:
    """The shipped quizzes cut to a few questions, so a whole group run takes seconds."""
    full = shipped_catalog()
    quizzes = {
        qid: replace(q, questions=q.questions[:questions]) for qid, q in full.quizzes.items()
    }
    return Catalog(full.guides, quizzes)


@dataclass
class GroupHarness(Harness):
    seconds: float = 1.0
    rate_limit: bool = False

    def options(self) -> BotOptions:
        return replace(super().options(), question_seconds=self.seconds, rate_limit=self.rate_limit)


@asynccontextmanager
async def group_bot(
    tmp_path: Path,
    *,
    seconds: float = 1.0,
    flood: FloodLimits | None = None,
    rate_limit: bool = False,
    questions: int = 2,
    transport: str | None = None,
    clock_timers: bool = False,
) -> AsyncIterator[GroupHarness]:
    """A running bot with `seconds` per question. `clock_timers`: deadlines and schedules fire
    as the test moves the fake clock (`await h.advance(n)`, `h.next_timer()`), not as real time
    passes (tests/e2e/harness.py)."""
    async with Emulator(token=TOKEN, flood=flood) as emu:
        h = GroupHarness(
            emu,
            tmp_path / "quizbot.sqlite3",
            short_catalog(questions),
            seconds=seconds,
            rate_limit=rate_limit,
            clock_timers=clock_timers,
        )
        if transport is not None:
            h.transport = transport
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


async def make_group(
    h: Harness, chat_id: int = -100500, admin_id: int = 1001
) -> tuple[ChatView, SimUser]:
    admin = h.emu.user(admin_id, "Ada", language_code="en")
    group = h.emu.group(chat_id, f"Study group {chat_id}")
    group.add_member(admin, "creator")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)  # the how-to
    return group, admin


def right_position(message: EmuMessage, quiz: Quiz, index: int, lang: str = "en") -> int:
    q = quiz.questions[index]
    right = plain(q.options[q.correct].text.get(lang))
    for line in message.text.splitlines():
        if line[:2] in {f"{c}." for c in LETTERS} and line[3:].strip() == right:
            return LETTERS.index(line[0])
    raise AssertionError(f"{right!r} not in:\n{message.text}")


def shown_counts(message: EmuMessage) -> list[int]:
    return [
        int(line.split()[-1]) for line in message.text.splitlines() if "▓" in line or "░" in line
    ]


def schedule_jobs(bot: QuizBot) -> list:
    """The bot's scheduled group runs, as its job queue holds them."""
    assert bot.app.job_queue is not None
    return [job for job in bot.app.job_queue.jobs() if (job.name or "").startswith("sched:")]
