"""PacedRateLimiter: what it counts, the spacing it releases, per-chat limits, 429 retries.

A fake callback records when each request is released (monotonic clock); rates are scaled up so
the whole file runs in about a second. Lower bounds are exact (never early); upper bounds are
loose, for a busy machine."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot.tg.wire.ratelimit import PacedRateLimiter, scope
from bot.tg.wire.retry import Courtesy, Shed
from tests.tg.wire_kit import EPS, Wire, call


def test_what_counts() -> None:
    assert scope("sendMessage") == (True, True)
    assert scope("sendPoll") == (True, True)
    assert scope("copyMessage") == (True, True)
    assert scope("editMessageText") == (True, False)
    assert scope("editMessageReplyMarkup") == (True, False)
    assert scope("deleteMessage") == (True, False)
    for free in (
        "answerCallbackQuery",
        "getChatMember",
        "getMe",
        "getUpdates",
        "sendChatAction",
        "setMyCommands",
        "getChatAdministrators",
        "editForumTopic",
    ):
        assert scope(free) == (False, False), free
    # quizbot's raw calls (bot/tg/wire/calls.py) name methods in lower case: counted just the same.
    for name in ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage",
                 "answerCallbackQuery", "sendChatAction", "copyMessage"):  # fmt: skip
        assert scope(name.lower()) == scope(name), name


async def test_sends_are_released_evenly_without_a_burst() -> None:
    rate, n = 100.0, 25
    limiter, wire = PacedRateLimiter(overall_rate=rate, overall_limit=1000), Wire()
    began = time.monotonic()
    await asyncio.gather(*(call(limiter, wire, "sendMessage", -1000 - i) for i in range(n)))
    starts = wire.starts()
    interval = 1 / rate
    # Never ahead of an even schedule from the first release: no burst, not even after idling.
    for k, t in enumerate(starts):
        assert t >= starts[0] + k * interval - EPS, (k, t - starts[0])
    assert starts[0] - began < 0.1  # the first goes at once
    assert starts[-1] - starts[0] < (n - 1) * interval + 0.3  # and the pace is kept
    # After an idle spell the rhythm restarts: two sends are still one interval apart.
    await asyncio.sleep(0.05)
    await asyncio.gather(
        call(limiter, wire, "sendMessage", -1), call(limiter, wire, "sendMessage", -2)
    )
    a, b = wire.starts()[-2:]
    assert b - a >= interval - EPS


async def test_edits_count_globally_but_not_per_chat() -> None:
    limiter = PacedRateLimiter(overall_rate=200, private_rate=1, private_burst=1)
    wire = Wire()
    await asyncio.gather(
        *(call(limiter, wire, "editMessageText", 42, message_id=i) for i in range(6))
    )
    starts = wire.starts()
    assert starts[-1] - starts[0] < 0.5  # 1/s per private chat would take 5 s
    for k, t in enumerate(starts):
        assert t >= starts[0] + k / 200 - EPS


async def test_popups_never_wait_behind_a_fan_out_nor_a_429_pause() -> None:
    limiter, wire = PacedRateLimiter(overall_rate=20), Wire()
    fan_out = [
        asyncio.create_task(call(limiter, wire, "sendMessage", -5000 - i)) for i in range(20)
    ]  # one second's worth at 20/s
    await asyncio.sleep(0.05)
    t0 = time.monotonic()
    assert await call(limiter, wire, "answerCallbackQuery", callback_query_id="1") is True
    assert await call(limiter, wire, "getChatMember", -5000, user_id=7) is True
    # Behind the fan-out it would wait about a second; the bound leaves a loaded machine room.
    assert time.monotonic() - t0 < 0.25
    # A 429 pauses every counted request, not the popups.
    wire.fail["sendMessage"] = 1
    wire.retry_after = timedelta(seconds=1)
    await asyncio.sleep(0.1)
    t1 = time.monotonic()
    assert await call(limiter, wire, "answerCallbackQuery", callback_query_id="2") is True
    assert time.monotonic() - t1 < 0.25  # the pause is a whole second
    for task in fan_out:
        task.cancel()
    await asyncio.gather(*fan_out, return_exceptions=True)


async def test_a_group_gets_at_most_its_limit_per_period_others_go_on() -> None:
    limit, period = 3, 0.3  # Telegram: 20 per 60 s
    limiter = PacedRateLimiter(overall_rate=1000, group_limit=limit, group_period=period)
    wire = Wire(latency=0.005)
    busy = [asyncio.create_task(call(limiter, wire, "sendMessage", -77)) for _ in range(7)]
    await asyncio.sleep(0.05)
    t0 = time.monotonic()
    await call(limiter, wire, "sendMessage", -88)  # another group is not held up
    assert time.monotonic() - t0 < 0.2  # held behind -77 it would wait a period (0.3 s)
    await asyncio.gather(*busy)
    calls = sorted((s, e) for _, chat, s, e in wire.calls if chat == -77)
    assert len(calls) == 7
    for k in range(limit, len(calls)):
        # The server counted call k-limit by its answer at the latest: a period after that.
        assert calls[k][0] >= calls[k - limit][1] + period - EPS, k
    assert (
        calls[0][0] - t0 < 0.01 and calls[2][0] - calls[0][0] < 0.2
    )  # a group's burst of 3, not paced


async def test_a_private_chat_gets_a_burst_of_3_then_its_pace() -> None:
    # Telegram: 1/s. 4/s keeps the test short while leaving the burst a whole 0.25 s to show it
    # did not wait for the pace, so a loaded machine (tests run in 3 processes) cannot fail it.
    rate = 4.0
    limiter = PacedRateLimiter(overall_rate=1000, private_rate=rate, private_burst=3)
    wire = Wire(latency=0.002)
    await asyncio.gather(*(call(limiter, wire, "sendMessage", 4242) for _ in range(6)))
    calls = sorted((s, e) for *_, s, e in wire.calls)
    assert calls[2][0] - calls[0][0] < 1 / rate  # the burst: faster than the pace
    for k in range(3, 6):
        # One token a 1/rate s, refilling only once the previous send was answered.
        # The moments between an answer and the next token check refill too (rightly), so a
        # loaded machine may start a call a few ms early: 50 ms of 250 still shows the pace.
        assert calls[k][0] >= calls[k - 1][1] + 1 / rate - 0.05, k


async def test_in_flight_and_the_wire_window_are_bounded() -> None:
    limiter = PacedRateLimiter(
        overall_rate=1000, overall_limit=5, overall_period=0.2, max_in_flight=2
    )
    wire = Wire(latency=0.02)
    await asyncio.gather(*(call(limiter, wire, "sendMessage", -i - 1) for i in range(12)))
    assert wire.max_flying <= 2
    calls = sorted((s, e) for *_, s, e in wire.calls)
    for k, (start, _) in enumerate(calls):
        # However the wire delays them, the server never sees more than 5 in 0.2 s: each earlier
        # call answered less than 0.2 s before this one left may have been counted just now.
        assert sum(1 for _, end in calls[:k] if end > start - 0.2) < 5, k


async def test_a_429_is_waited_out_and_retried() -> None:
    limiter, wire = PacedRateLimiter(overall_rate=1000), Wire()
    wire.fail["sendMessage"] = 2
    assert await call(limiter, wire, "sendMessage", 7) is True
    starts = wire.starts("sendMessage")
    assert len(starts) == 3
    pause = 0.05 + 0.1  # retry_after + padding
    assert starts[1] - starts[0] >= pause - EPS and starts[2] - starts[1] >= pause - EPS
    # Uncounted methods are retried too, after their own wait.
    wire.fail["getChatMember"] = 1
    assert await call(limiter, wire, "getChatMember", -3, user_id=1) is True
    assert len(wire.starts("getChatMember")) == 2


async def test_retries_are_bounded() -> None:
    limiter, wire = PacedRateLimiter(overall_rate=1000, max_retries=1), Wire()
    wire.fail["sendMessage"] = 5
    with pytest.raises(RetryAfter):
        await call(limiter, wire, "sendMessage", 7)
    assert len(wire.starts()) == 2
    data = {"chat_id": 8}
    with pytest.raises(RetryAfter):  # rate_limit_args overrides max_retries, as in PTB
        await limiter.process_request(wire, ("sendMessage", data), {}, "sendMessage", data, 0)
    assert len(wire.starts()) == 3


async def test_a_429_pauses_other_counted_requests() -> None:
    limiter, wire = PacedRateLimiter(overall_rate=1000), Wire()
    wire.fail["sendMessage"] = 1
    wire.retry_after = timedelta(milliseconds=100)
    first = asyncio.create_task(call(limiter, wire, "sendMessage", -1))
    await asyncio.sleep(0.02)
    await call(limiter, wire, "editMessageText", -2, message_id=1)
    failed_at = wire.starts("sendMessage")[0]
    assert wire.starts("editMessageText")[0] >= failed_at + 0.2 - EPS
    assert await first is True


async def test_a_chat_already_talking_goes_before_a_queue_of_new_ones() -> None:
    """At a fan-out, a run's question follows its intro instead of waiting for every intro."""
    rate = 100.0
    limiter, wire = PacedRateLimiter(overall_rate=rate, overall_limit=1000), Wire()
    await call(limiter, wire, "sendMessage", -1)  # group -1 got its intro
    intros = [asyncio.create_task(call(limiter, wire, "sendMessage", -100 - i)) for i in range(20)]
    await asyncio.sleep(0)  # the intros queue up first
    question = asyncio.create_task(call(limiter, wire, "sendMessage", -1))
    learner = asyncio.create_task(call(limiter, wire, "sendMessage", 42))
    await asyncio.gather(*intros, question, learner)
    order = [chat for _, chat, _, _ in sorted(wire.calls, key=lambda c: c[2])]
    # At most the intro already admitted goes first; then the two waiting on a conversation.
    assert set(order[1:4]) >= {-1, 42}, order[:5]
    assert order.count(-1) == 2 and len(order) == 23


async def courtesy(limiter: PacedRateLimiter, wire: Wire, chat_id: int) -> Any:
    """A courtesy reply to a member in a group (bot/tg/member_replies.py)."""
    data = {"chat_id": chat_id}
    args = Courtesy()
    return await limiter.process_request(wire, ("sendMessage", data), {}, "sendMessage", data, args)


async def test_a_courtesy_reply_is_shed_rather_than_take_a_groups_last_places() -> None:
    """Issue 25: a member's 25 /help filled the group's 20 a minute and the next question came
    60 s late. A courtesy reply leaves `courtesy_reserve` places to the run, and never waits."""
    limit, period = 4, 0.3
    limiter = PacedRateLimiter(
        overall_rate=1000, group_limit=limit, group_period=period, courtesy_reserve=2
    )
    wire = Wire()
    assert await courtesy(limiter, wire, -7) is True  # the group is quiet: it goes
    assert await courtesy(limiter, wire, -7) is True  # 2 places left after it
    t0 = time.monotonic()
    with pytest.raises(Shed):
        await courtesy(limiter, wire, -7)  # would leave fewer than the reserve
    assert time.monotonic() - t0 < 0.1  # refused at once, not after the group's period
    assert len(wire.calls) == 2
    # The run's own sends still have both places, at once.
    await asyncio.gather(
        call(limiter, wire, "sendMessage", -7), call(limiter, wire, "sendMessage", -7)
    )
    assert time.monotonic() - t0 < 0.1
    assert await courtesy(limiter, wire, -8) is True  # another group's budget is its own


async def test_a_courtesy_reply_waits_behind_the_bots_other_sends() -> None:
    """At the bot's own pace too: a fan-out's sends go before a courtesy reply queued first."""
    rate = 100.0
    limiter, wire = PacedRateLimiter(overall_rate=rate, overall_limit=1000), Wire()
    await call(limiter, wire, "sendMessage", -1)  # the pace has started
    first = [asyncio.create_task(call(limiter, wire, "sendMessage", -100 - i)) for i in range(3)]
    await asyncio.sleep(0)  # the first holds the bot's turn, waiting for its slot
    reply = asyncio.create_task(courtesy(limiter, wire, -50))
    await asyncio.sleep(0)
    then = [asyncio.create_task(call(limiter, wire, "sendMessage", -200 - i)) for i in range(3)]
    await asyncio.gather(reply, *first, *then)
    order = [chat for _, chat, _, _ in sorted(wire.calls, key=lambda c: c[2])]
    assert order[-1] == -50, order  # queued before three of them, sent after them all
