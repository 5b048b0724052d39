"""Group burst and fan-out: study groups under load, through the emulator, with production limits.

*Group burst*: one group of M members; an admin `/push`es a quiz and every member taps an answer
button (`g:<run>:0:<pos>`) on question 1, the taps spread evenly over `spread` seconds. Each tap
must get its `answerCallbackQuery`; every answer must be in the SQLite file exactly once; the
admin's `/stop` then reveals the question (the same reveal a deadline makes) and the counts the
edited message shows must equal the database's.

*Fan-out*: G groups each get `/schedule <quiz> daily HH:MM` from their admin, all for the same
whole minute (UTC). Setting them up is not measured, so a bot without a rate limiter does it with
the emulator's flood limits off; that bot is stopped and the measured one started on the same
database with production limits: `AIORateLimiter` in the bot, `FloodLimits()` in the emulator.
Its schedules come back from the store at start-up, as after any restart. From the minute, the
benchmark times how long until every group has its first question, counts the 429s the emulator
sent, and compares that time with the fastest Telegram's limits allow: the intro and question 1
of every group (2 G messages) at 30 messages/s.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.bench.learners import LANGUAGES, percentile
from bot.bench.phases import TOKEN
from bot.bench.procs import BotProcess, own_cpu_seconds
from bot.emulator import Emulator, FloodLimits
from bot.emulator.flood import FloodControl
from bot.emulator.state import EmuMessage

QUIZ = "gradient-accumulation"  # a shipped quiz
GLOBAL_PER_SECOND = FloodLimits().global_per_second  # Telegram's ~30 messages/s per bot
MESSAGES_BEFORE_FIRST_QUESTION = 2  # per group: the intro, then question 1
TAP_WAIT = 30.0  # seconds the generator waits for the popups after the last tap
SETUP_WAIT = 120.0


def _is_question(m: EmuMessage) -> bool:
    return any((b.callback_data or "").startswith("g:") for row in m.buttons for b in row)


def _has_g_buttons(params: dict[str, Any]) -> bool:
    markup = params.get("reply_markup")
    return bool(markup) and '"g:' in (markup if isinstance(markup, str) else json.dumps(markup))


def shown_counts(message: EmuMessage) -> list[int]:
    """The per-option counts a reveal shows: the number after each option's bar."""
    counts = []
    for line in message.text.splitlines():
        if "▓" in line or "░" in line:
            digits = re.sub(r"\D", "", line.rsplit("░", 1)[-1].rsplit("▓", 1)[-1])
            counts.append(int(digits) if digits else -1)
    return counts


def _rows(db: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def db_counts(db: Path, run_id: int, index: int) -> tuple[list[int], int, int]:
    """(per displayed position counts, answers, distinct members) of a question in the DB."""
    ((orders,),) = _rows(db, "SELECT option_orders FROM attempts WHERE id = ?", run_id)
    order = json.loads(orders)[index]
    counts = [0] * len(order)
    chosen = _rows(
        db,
        "SELECT option_index, user_id FROM answers WHERE attempt_id = ? AND question_index = ?",
        run_id,
        index,
    )
    for option, _ in chosen:
        counts[order.index(option)] += 1
    return counts, len(chosen), len({user for _, user in chosen})


def _ms(values: list[float]) -> dict[int, float]:
    return {p: round(1000 * percentile(values, p), 1) for p in (50, 95, 99)}


# -- group burst -----------------------------------------------------------------------------


async def burst(
    members: int,
    workdir: Path,
    *,
    spread: float = 2.0,
    content: Path | None = None,
    seed: int = 11,
    api_latency: float = 0.0,
    concurrency: int = 0,
) -> dict[str, Any]:
    """One group of `members` tapping question 1 within `spread` seconds. `api_latency`: every Bot
    API request is answered that many seconds late, as Telegram's round trip from a server
    far from it (the emulator answers in about a millisecond); `concurrency`: the bot's
    concurrent updates (0: its default)."""
    db = workdir / "group-burst.sqlite3"
    rng = random.Random(seed)
    problems: list[str] = []
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        if api_latency > 0:
            emu.faults.add(None, "delay", times=None, delay=api_latency)
        proc = BotProcess(
            "quizbot",
            emu.base_url,
            TOKEN,
            db=db,
            content=content,
            rate_limit=True,
            concurrency=concurrency,
        )
        await proc.start()
        try:
            admin = emu.user(900_001, "Admin", language_code="en")
            group = emu.group(-700_001, "Burst group")
            group.add_member(admin, "creator")
            await emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text, timeout=SETUP_WAIT)
            people = [
                emu.user(1_000_000 + i, f"Member{i}", language_code=LANGUAGES[i % 3])
                for i in range(members)
            ]
            for person in people:
                group.add_member(person)
            await admin.send(f"/push {QUIZ}", chat=group)
            question = await group.wait_for(_is_question, timeout=SETUP_WAIT)
            datas = [b.callback_data or "" for row in question.buttons for b in row]
            run_id = int(datas[0].split(":")[1])

            popped: dict[str, float] = {}

            def hook(method: str, params: dict[str, Any], t: float) -> None:
                if method == "answerCallbackQuery":
                    popped[str(params.get("callback_query_id"))] = t

            remove = emu.on_request(hook)
            cpu0, emu0, flood0 = proc.cpu(), own_cpu_seconds(), emu.stats.flood_errors
            sent: list[tuple[str, float, asyncio.Future[Any]]] = []
            t0 = time.perf_counter()
            for i, person in enumerate(people):
                due = t0 + spread * i / members
                wait = due - time.perf_counter()
                if wait > 0:
                    await asyncio.sleep(wait)
                elif i % 20 == 0:
                    await asyncio.sleep(0)  # behind: still let the emulator serve the bot
                query = emu.world.tap(person.state, question, rng.choice(datas))
                sent.append((query.id, time.perf_counter(), query.answer))
            t_last_tap = time.perf_counter()
            done, _ = await asyncio.wait([f for _, _, f in sent], timeout=TAP_WAIT)
            t_answered = max(popped.values(), default=t_last_tap)
            cpu1, emu1 = proc.cpu(), own_cpu_seconds()
            remove()
            answers = [f.result() for f in done]
            # A stored answer: its verdict, or (no give-away, the default) the letter recorded.
            verdicts = sum(1 for a in answers if (a.text or "")[:1] in ("✅", "❌", "🗳"))
            latency = [popped[qid] - t for qid, t, _ in sent if qid in popped]

            mark = group.mark()
            await admin.send("/stop", chat=group)
            revealed = await group.wait_for(
                lambda m: m.message_id == question.message_id and m.edited,
                after=mark,
                timeout=SETUP_WAIT,
            )
            shown = shown_counts(revealed)
            await group.next_message(after=mark, timeout=SETUP_WAIT)  # the results: run over
            floods = emu.stats.flood_errors - flood0
        finally:
            await proc.stop()
    counts, recorded, distinct = db_counts(db, run_id, 0)
    answered = len(done)
    if answered != members:
        problems.append(f"group burst: {members - answered} of {members} taps never answered")
    if recorded != members or distinct != recorded:
        problems.append(
            f"group burst: {recorded} answers recorded ({distinct} members) for {members} taps"
        )
    if verdicts != recorded:
        problems.append(f"group burst: {verdicts} verdict popups, {recorded} answers in the DB")
    if shown != counts:
        problems.append(f"group burst: the reveal shows {shown}, the DB has {counts}")
    return {
        "members": members,
        "api_latency_ms": round(api_latency * 1000, 1),
        "spread_s": spread,
        "taps_sent": len(sent),
        "taps_answered": answered,
        "tap_span_s": round(t_last_tap - t0, 3),
        "all_answered_after_s": round(t_answered - t0, 3),
        "popup_ms": _ms(latency),
        "verdict_popups": verdicts,
        "recorded": recorded,
        "recorded_distinct_members": distinct,
        "reveal_counts": shown,
        "db_counts": counts,
        "counts_match": shown == counts,
        "bot_cpu_s": round(cpu1 - cpu0, 2),
        "emu_cpu_s": round(emu1 - emu0, 2),
        "flood_errors": floods,
        "peak_rss_mb": round(proc.peak_rss),
        "problems": problems,
    }


# -- fan-out ---------------------------------------------------------------------------------


def _due_minute(earliest: float) -> float:
    """The first whole minute (epoch seconds) at or after `earliest`."""
    return math.ceil(earliest / 60) * 60


async def fanout(
    groups: int, workdir: Path, *, content: Path | None = None, paced_limiter: float = 0
) -> dict[str, Any]:
    """`groups` groups whose schedules are all due at the same minute, under production limits.

    `paced_limiter` (an experiment): the bot's limiter without burst, at that many messages/s."""
    db = workdir / "group-fanout.sqlite3"
    problems: list[str] = []
    async with Emulator(token=TOKEN, flood=FloodLimits()) as emu:
        world = emu.world
        world.flood = FloodControl(None, world.clock)  # set-up is not measured
        setup = BotProcess("quizbot", emu.base_url, TOKEN, db=db, content=content)
        await setup.start()
        t_setup = time.time()
        try:
            chats, admins = [], []
            for i in range(groups):
                admin = emu.user(800_000 + i, f"Admin{i}", language_code="en")
                chat = emu.group(-800_000 - i, f"Fan-out group {i}")
                chat.add_member(admin, "creator")
                await emu.add_bot_to_group(chat, by=admin)
                chats.append(chat)
                admins.append(admin)
            await asyncio.gather(
                *(c.wait_for(lambda m: "/push" in m.text, timeout=SETUP_WAIT) for c in chats)
            )
            joined = time.time() - t_setup
            # The /schedule replies take longer than the how-tos did (an admin check more);
            # then a restart. The set-up bot must be gone before the minute.
            due = _due_minute(time.time() + 3 * joined + 20)
            at = datetime.fromtimestamp(due, UTC).strftime("%H:%M")
            marks = [c.mark() for c in chats]
            for chat, admin in zip(chats, admins, strict=True):
                await admin.send(f"/schedule {QUIZ} daily {at}", chat=chat)
            listings = await asyncio.gather(
                *(
                    c.next_message(after=mark, timeout=SETUP_WAIT)
                    for c, mark in zip(chats, marks, strict=True)
                )
            )
            # The reply lists the group's schedules; one without the new one read a stale
            # snapshot (see BENCHMARKS.md): counted, not a failure of the benchmark.
            stale_listings = sum(1 for m in listings if at not in m.text)
        finally:
            await setup.stop()
        scheduled = _rows(db, "SELECT count(*), count(DISTINCT chat_id) FROM schedules")[0]
        if scheduled != (groups, groups):
            problems.append(f"fan-out: {scheduled[0]} schedules in {scheduled[1]} groups stored")

        world.flood = FloodControl(FloodLimits(), world.clock)  # production limits from here
        proc = BotProcess(
            "quizbot",
            emu.base_url,
            TOKEN,
            db=db,
            content=content,
            rate_limit=True,
            paced_limiter=paced_limiter,
        )
        flood0 = emu.stats.flood_errors
        ids = {c.id for c in chats}
        first_q: dict[int, float] = {}
        sends: list[float] = []  # every sendMessage/editMessageText to a group (perf_counter)

        def hook(method: str, params: dict[str, Any], t: float) -> None:
            if method not in ("sendMessage", "editMessageText"):
                return
            try:
                chat_id = int(params.get("chat_id", 0))
            except (TypeError, ValueError):
                return
            if chat_id in ids:
                sends.append(t)
                if method == "sendMessage" and chat_id not in first_q and _has_g_buttons(params):
                    first_q[chat_id] = t

        remove = emu.on_request(hook)
        await proc.start()
        try:
            ready_before_due = due - time.time()
            if ready_before_due < 1:
                problems.append(
                    f"fan-out: set-up overran the scheduled minute ({ready_before_due:.1f} s)"
                )
            fastest = MESSAGES_BEFORE_FIRST_QUESTION * groups / GLOBAL_PER_SECOND
            await asyncio.sleep(max(0.0, due - time.time()))
            due_perf = time.perf_counter() - (time.time() - due)
            cpu0 = proc.cpu()
            deadline = time.perf_counter() + max(60.0, 6 * fastest)
            while len(first_q) < groups and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            cpu1 = proc.cpu()
            floods = emu.stats.flood_errors - flood0
        finally:
            remove()
            await proc.stop()
    runs = _rows(db, "SELECT count(*), count(DISTINCT chat_id) FROM attempts WHERE kind = 'group'")
    missing = groups - len(first_q)
    if missing:
        problems.append(f"fan-out: {missing} of {groups} groups never got their first question")
    if runs[0] != (groups, groups):
        problems.append(f"fan-out: {runs[0][0]} runs in {runs[0][1]} groups for {groups} groups")
    last = max(first_q.values(), default=due_perf)
    elapsed = last - due_perf
    before = [t for t in sends if t <= last]
    return {
        "groups": groups,
        "limiter": f"paced {paced_limiter:g}/s (experiment)" if paced_limiter else "production",
        "trigger": f"/schedule {QUIZ} daily {at} (UTC) in every group, restored at start-up",
        "groups_with_first_question": len(first_q),
        "first_question_after_s": round(min(first_q.values(), default=due_perf) - due_perf, 3),
        "all_first_questions_after_s": round(elapsed, 3),
        "fastest_s": round(fastest, 2),
        "fraction_of_fastest": round(fastest / elapsed, 3) if elapsed > 0 else None,
        "flood_errors": floods,
        "group_messages_until_last_first_question": len(before),
        "messages_needed": MESSAGES_BEFORE_FIRST_QUESTION * groups,
        "schedule_replies_missing_the_new_schedule": stale_listings,
        "bot_ready_before_minute_s": round(ready_before_due, 1),
        "bot_cpu_s": round(cpu1 - cpu0, 2),
        "peak_rss_mb": round(proc.peak_rss),
        "problems": problems,
    }
