"""Three worker processes on PostgreSQL, one SIGKILLed mid-burst: nothing acknowledged is lost.

Run by tests/workers/test_workers_e2e.py in a process of its own
(`python -m tests.workers.workers_scenario DSN`), so that nothing it leaves in the interpreter
can reach other tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re

import asyncpg

from bot.bench.webhook import Bridge, Workers
from bot.emulator import Emulator, FloodLimits
from bot.emulator.driver import ChatView, SimUser, TapTimeout
from bot.emulator.state import EmuMessage
from bot.store.pg.poll_lock import POLL_LOCK
from tests.e2e.harness import submit_label, toggle_label

TOKEN = "123456:TEST-workers-token"
QUIZ = "gradient-accumulation"
LETTERS = "ABCD"
WAIT = 45.0  # generous: three workers, PostgreSQL and the emulator share two cores
STALL = 20.0  # a private chat silent this long lost a reply with the killed worker


async def _tap(user: SimUser, message: object, letter: str) -> str:
    """A tap as a patient user makes it: again if no popup came (its worker died)."""
    for _ in range(3):
        try:
            answer = await user.tap(message, letter, timeout=15)  # type: ignore[arg-type]
        except TapTimeout:
            continue
        return answer.text or "" if answer is not None else ""
    return ""


def _letter(message: EmuMessage, rng: random.Random) -> str:
    """One of the question's letter buttons (a true/false question has only A and B)."""
    return rng.choice([b.text for row in message.buttons for b in row if b.text in LETTERS])


def _has_next(message: EmuMessage) -> str | None:
    return next((b.text for row in message.buttons for b in row if "Next" in b.text), None)


async def _tap_text(user: SimUser, message: EmuMessage, text: str) -> None:
    for _ in range(3):
        try:
            await user.tap(message, text, timeout=15)
            return
        except TapTimeout:
            continue


def _acknowledged(text: str) -> bool:
    # A verdict, or in groups (no give-away, the default) the "🗳 … recorded" popup.
    return text.startswith(("✅", "❌", "🗳"))


def _first(message: EmuMessage) -> EmuMessage:
    return message.history[0] if message.history else message


def _question_number(message: EmuMessage) -> int | None:
    found = re.match(r"Question (\d+)/", message.text)
    return int(found.group(1)) if found else None


def is_question(message: EmuMessage) -> bool:
    """A group question as posted: its letter buttons on (or, select-all, its Submit)."""
    first = _first(message)
    return _question_number(first) is not None and (
        any(b.text in LETTERS for row in first.buttons for b in row)
        or submit_label(first) is not None
    )


def posted_and_revealed(group: ChatView) -> tuple[dict[int, int], dict[int, int]]:
    """How many times each question (1-based) was posted in the group, and revealed: by an edit
    of the question (never two), or by a reveal posted as a message of its own."""
    posted: dict[int, int] = {}
    revealed: dict[int, int] = {}
    for message in group.bot_messages:
        n = _question_number(_first(message))
        if n is None:
            continue
        if is_question(message):
            posted[n] = posted.get(n, 0) + 1
            assert len(message.history) <= 1, message.text  # never edited twice
            revealed[n] = revealed.get(n, 0) + len(message.history)
        else:
            revealed[n] = revealed.get(n, 0) + 1
    return posted, revealed


def _asks(message: EmuMessage, index: int) -> int | None:
    """The quiz's length if `message` is question `index` with its buttons still on (or a
    number question, which has none: it is answered by a reply), else None."""
    found = re.search(rf"\b{index + 1}/(\d+)", message.text)
    letters = {b.text for row in message.buttons for b in row}
    typed = not message.edited and not message.buttons and "Reply with a number" in message.text
    return int(found.group(1)) if found and ("A" in letters or typed) else None


async def _learner(user: SimUser, acks: set[tuple[int, int]], rng: random.Random) -> None:
    """A learner taking the quiz. One whose reply was lost with the killed worker (its answer
    stored, the explanation never sent) stops there, as a user would wait and go: what counts
    is that every answer they were told about is stored."""
    await user.send(f"/start {QUIZ}")  # the deep link: question 1 at once
    index, total = 0, 1
    with contextlib.suppress(TimeoutError):
        while index < total:
            question = await user.private.wait_for(
                lambda m, i=index: _asks(m, i) is not None, timeout=STALL
            )
            total = _asks(question, index) or total
            if not question.buttons:  # a number question ends the learner's taps (the scenario
                return  # is about taps); it is answered by a reply, tested in tests/e2e
            mark = user.private.mark()
            if _acknowledged(await _tap(user, question, _letter(question, rng))):
                acks.add((user.id, index))
            index += 1
            if index < total:  # the explanation comes with a Next button
                after = await user.private.wait_for(
                    lambda m: _has_next(m) is not None, timeout=STALL, after=mark
                )
                await _tap_text(user, after, _has_next(after) or "")


async def _member(
    user: SimUser, group: ChatView, total: int, acks: set[tuple[int, int]], rng: random.Random
) -> None:
    for index in range(total):
        question = await group.wait_for(
            lambda m, i=index: f"Question {i + 1}/{total}" in m.text, timeout=WAIT
        )
        await asyncio.sleep(rng.random())
        submit = submit_label(question)
        if submit is not None:  # select-all: one toggle (its popup is the tapper's), then Submit
            await _tap(user, question, toggle_label(question, rng.choice("AB")))
            answer = await _tap(user, question, submit)
        else:
            answer = await _tap(user, question, _letter(question, rng))
        if _acknowledged(answer):
            acks.add((user.id, index))


async def poller_index(dsn: str) -> int:
    """Which worker holds the poller's lock (its connection is named after the worker, whose
    name ends with its index), once one does."""
    conn = await asyncpg.connect(dsn)
    try:
        while True:
            name = await conn.fetchval(
                """SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid)
                   WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1""",
                POLL_LOCK,
            )
            if name:
                return int(name.rsplit(":", 1)[1])
            await asyncio.sleep(0.1)
    finally:
        await conn.close()


async def scenario(dsn: str, forum: bool = False, poll: bool = False) -> None:
    """The whole scenario; raises AssertionError (or a timeout) when something is wrong.
    `forum`: the group has topics and the run is pushed in one; every one of its messages,
    also those the surviving workers send after the kill, must land in that topic. `poll`:
    the workers long-poll (no webhook), and the one killed is the one polling."""
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        workers = Workers(emu, TOKEN, dsn, 3, seconds=3, watchdog=5, poll=poll)
        workers.start()
        bridge = Bridge(emu, TOKEN, workers.port)
        killed = 1
        try:
            await asyncio.wait_for(workers.ready(), 60)
            if poll:
                killed = await asyncio.wait_for(poller_index(dsn), 30)
            else:
                bridge.start()
            admin = emu.user(5000, "Ada", language_code="en")
            if forum:
                group = emu.group(-100900, "Workers forum", type="supergroup", forum=True)
            else:
                group = emu.group(-100900, "Workers group")
            group.add_member(admin, "creator")
            members = [emu.user(5001 + i, f"M{i}", language_code="en") for i in range(8)]
            for m in members:
                group.add_member(m, "member")
            await emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text, timeout=WAIT)
            learners = [emu.user(6001 + i, f"L{i}", language_code="en") for i in range(6)]

            private_acks: set[tuple[int, int]] = set()
            group_acks: set[tuple[int, int]] = set()
            topic = group.create_topic("Quizzes", by=admin) if forum else None
            pushed = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group, thread=topic)
            first = await group.wait_for(lambda m: "Question 1/" in m.text, timeout=WAIT)
            total = int(first.text.split("Question 1/", 1)[1].split()[0])

            async def killer() -> None:
                await group.wait_for(lambda m: "Question 2/" in m.text, timeout=WAIT)
                workers.kill(killed)

            await asyncio.gather(
                killer(),
                *(_learner(u, private_acks, random.Random(u.id)) for u in learners),
                *(_member(u, group, total, group_acks, random.Random(u.id)) for u in members),
            )
            await group.wait_for(lambda m: "finished" in m.text, timeout=WAIT)
            # Behind the webhook, popups rode on its responses (bot/webhook_replies.py).
            assert poll or bridge.replies > 0
        finally:
            await bridge.stop()
            codes = workers.stop()
        # the survivors stop cleanly on SIGTERM
        assert all(code == 0 for i, code in enumerate(codes) if i != killed), codes

        conn = await asyncpg.connect(dsn)
        try:
            rows = await conn.fetch(
                """SELECT a.kind, an.user_id, an.question_index, count(*) AS n
                   FROM answers an JOIN attempts a ON a.id = an.attempt_id
                   GROUP BY a.kind, an.user_id, an.question_index"""
            )
            runs = await conn.fetch("SELECT status FROM attempts WHERE kind = 'group'")
        finally:
            await conn.close()
        stored = {(r["kind"], r["user_id"], r["question_index"]): r["n"] for r in rows}
        assert all(n == 1 for n in stored.values())
        assert {("private", u, q) for u, q in private_acks} <= set(stored)
        assert {("group", u, q) for u, q in group_acks} <= set(stored)
        assert len(private_acks) >= len(learners) * 2 and len(group_acks) >= len(members)
        assert [r["status"] for r in runs] == ["finished"]
        # Each question posted once and revealed once (an edit of it, or, when its worker died
        # between sending it and recording it, a message of its own): bot/core/group_run.py.
        posted, revealed = posted_and_revealed(group)
        every = {n: 1 for n in range(1, total + 1)}
        assert posted == every, posted
        assert revealed == every, revealed
        assert emu.stats.flood_errors == 0, emu.stats.errors
        run_messages = [m for m in group.bot_messages if m.message_id >= pushed.next_message_id]
        assert run_messages and all(m.thread_id == topic for m in run_messages)


if __name__ == "__main__":
    import os
    import sys

    os.environ.setdefault("PTB_TIMEDELTA", "true")
    flags = sys.argv[2:]
    asyncio.run(scenario(sys.argv[1], forum="--forum" in flags, poll="--poll" in flags))
