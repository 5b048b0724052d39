"""Property-based: arbitrary callback data and command arguments thrown at one running bot.

No exception escapes a handler, the database changes only for a valid answer of the tapper's
own attempt, and every tap gets a popup, every message a reply."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tg import callbacks as cb
from tests.reliability.support import VERDICT, ReliableHarness, bot_at, handler_errors, start_quiz

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")
FUZZ = settings(max_examples=40, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[ReliableHarness]:
    async with bot_at(tmp_path) as harness:
        yield harness


def snapshot(h: ReliableHarness) -> tuple[object, ...]:
    with sqlite3.connect(h.db_path) as conn:
        return tuple(conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                     for t in ("answers", "attempts", "groups", "group_runs"))  # fmt: skip


def fits(data: str) -> bool:
    return 1 <= len(data.encode()) <= 64


numbers = st.one_of(st.integers(0, 12), st.integers(-5, 10**13), st.just(999_999_999_999))
structured = st.one_of(
    st.builds("ans:{}:{}:{}".format, numbers, numbers, numbers),
    st.builds("next:{}:{}".format, numbers, numbers),
    st.sampled_from(["cont:", "stop:", "rev:", "g:"]).flatmap(
        lambda p: st.builds(lambda n: f"{p}{n}", numbers)),
    st.builds("set:{}:{}:{}".format, st.integers(-10**15, 10**15),
              st.sampled_from(["lang", "seconds", "shuffle", "push", "x"]),
              st.text("abc019-/+", max_size=8)),
    st.sampled_from(["a:1:2", "answer|1|0", "ans:1:2", "q:1", "lang:zz", "quiz:../x", "go:",
                     "list:", "rvn:1", "rva:1:0123:9", "ans:-1:0:0", "ans:1:0:0:0"]),
)  # fmt: skip
junk = st.one_of(
    st.text(min_size=1, max_size=64),
    st.binary(min_size=1, max_size=64).map(lambda b: b.decode("utf-8", "replace")),
)


@FUZZ
@given(data=st.one_of(structured, junk).filter(fits), own=st.booleans())
async def test_any_callback_data_gets_a_popup_and_changes_nothing_unless_valid(
    h: ReliableHarness, caplog: pytest.LogCaptureFixture, data: str, own: bool
) -> None:
    owner, other = h.emu.user(8001, "Owner"), h.emu.user(8002, "Other")
    if not owner.private.bot_messages:
        await start_quiz(owner)
        await other.send("/help")
        await other.private.wait_for(lambda m: "/quizzes" in m.text)
    user = owner if own else other
    message = user.private.bot_messages[-1]
    before = snapshot(h)
    answer = await user.tap(message, callback_data=data)
    assert answer is not None  # the user is never left with a spinning button
    assert not handler_errors(caplog), data
    after = snapshot(h)
    parsed = cb.parse(data)
    if isinstance(parsed, cb.Answer) and (answer.text or "").startswith(VERDICT):
        assert own and len(after[0]) == len(before[0]) + 1
    elif isinstance(parsed, cb.Abandon | cb.StartQuiz | cb.StartOver | cb.Lang) and own:
        assert after[0] == before[0]  # may abandon or start, never answers
    elif isinstance(parsed, cb.StartQuiz | cb.StartOver | cb.Lang):
        assert after[0] == before[0] and len(after[1]) >= len(before[1])
    else:
        assert after == before, data


commands = st.sampled_from(["/start", "/quizzes", "/stop", "/language", "/help", "/nope", ""])
arguments = st.text(min_size=0, max_size=80).filter(lambda s: "\x00" not in s)


@FUZZ
@given(command=commands, argument=arguments)
async def test_any_command_argument_gets_a_reply(
    h: ReliableHarness, caplog: pytest.LogCaptureFixture, command: str, argument: str
) -> None:
    user = h.emu.user(8003, "Args")
    text = f"{command} {argument}".strip()
    if not text:
        return
    mark = user.private.mark()
    answers = snapshot(h)[0]
    await user.send(text)
    reply = await user.private.next_message(after=mark)
    assert reply.text
    assert not handler_errors(caplog), text
    assert snapshot(h)[0] == answers  # no command answers a question
