"""A rate limiter that paces sends and edits where they count: on the wire.

PTB's `AIORateLimiter` is a leaky bucket that lets 30 requests go at once and 30/s after: up to
60 in one second, and Telegram (a sliding window of about 30/s) answers the excess with 429, each
one pausing the whole bot for `retry_after`. Even without that burst, requests admitted 34 ms
apart reach the server in clumps on a busy event loop with a pool of connections, and a window of
exactly 30 refuses any clump (BENCHMARKS.md, fan-out).

`PacedRateLimiter` instead:

* counts only what Telegram counts: new messages (`send*` but `sendChatAction`, `copy*`,
  `forward*`) per chat and globally; message edits (`editMessage*`, `stopPoll`, ...) and deletes
  globally only. Everything else — `answerCallbackQuery` above all (a popup never waits behind a
  fan-out), `getChatMember`, `getMe`, `getUpdates` — goes straight through;
* spaces counted requests evenly at `overall_rate` per second (no burst), with at most
  `max_in_flight` of them on the wire at once, so the rhythm the limiter releases is the rhythm
  the server sees;
* and, as a guarantee rather than a hope, never has more than `overall_limit` counted requests
  in any `overall_period` *as the server can see them*: a request occupies the window from the
  moment it is released until `overall_period` after its response came back. The server counted
  it somewhere in between, so however late a release reaches the wire, the server's own sliding
  window never holds more than the limit. Per group: the same window, 20 per 60 s. Per private
  chat: Telegram's 1/s with a burst of 3, one send in flight per chat, and no refill while it
  flies (the conservative reading of the same rule);
* lets a group's run go first: a courtesy reply (`rate_limit_args=Courtesy()`, a member's
  command answered in the group, bot/core/courtesy.py) waits behind every other send to the
  group and to the bot, and is refused with `Shed` instead of waiting whenever the group's
  window has `courtesy_reserve` places or fewer left (half of it by default): the caller then
  answers privately or not at all. So a courtesy reply never makes a question, a reveal or the
  results wait for the group's window. With several workers the group's shared slot is booked
  for a courtesy reply only if it is free at once (`chat_spare`), never queued: a run's next
  send then waits one slot (3.2 s) at most behind it;
* on `RetryAfter` for a counted request, pauses every counted request for `retry_after` + 0.1 s
  (a 429 does not say whether the chat or the bot was over), then retries; it is the bot's one
  retry layer (`bot/tg/wire/retry.py`: 429s, network errors, timeouts and 5xx share one budget of
  `max_retries`; `rate_limit_args`, an int, overrides it per call, as with `AIORateLimiter`;
  an `OnWire` also runs its hook once every wait is over, just before the request leaves).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

from telegram.ext import BaseRateLimiter

from bot.tg.wire.retry import (
    RETRIES,
    Courtesy,
    JSONResult,
    LimitArgs,
    Shed,
    limit_args,
    with_retries,
)
from bot.tg.wire.shared_pace import SharedBudget, SharedSlots

log = logging.getLogger(__name__)


# Bot API method names are case-insensitive; quizbot's raw calls (bot/tg/wire/calls.py) use lower
# case, PTB's wrappers camel case: compared in lower case.
# Methods that create a message in a chat: they count per chat and globally.
_NEW_MESSAGE_EXCEPT = frozenset({"sendchataction"})
_NEW_MESSAGE_OTHER = frozenset({"copymessage", "copymessages", "forwardmessage", "forwardmessages"})
# Methods that change or remove existing messages: globally only (Telegram documents no per-chat
# limit for them, and counting them per chat would punish "answer, then edit the question").
_CHANGE_OTHER = frozenset(
    {"stoppoll", "stopmessagelivelocation", "deletemessage", "deletemessages"}
)


def scope(endpoint: str) -> tuple[bool, bool]:
    """(counts globally, counts per chat) for a Bot API method name, in any case."""
    endpoint = endpoint.lower()
    if endpoint in _NEW_MESSAGE_OTHER or (
        endpoint.startswith("send") and endpoint not in _NEW_MESSAGE_EXCEPT
    ):
        return True, True
    if endpoint.startswith("editmessage") or endpoint in _CHANGE_OTHER:
        return True, False
    return False, False


class _WireWindow:
    """At most `limit` requests in any `period` seconds as the server may have counted them.

    A request holds a place from its release (`take`) until `period` after its response
    (`done`): the server counted it in between, whenever it really reached the wire."""

    __slots__ = ("answered", "flying", "freed", "limit", "period")

    def __init__(self, limit: int, period: float) -> None:
        self.limit, self.period = limit, period
        self.answered: deque[float] = deque()  # response times, ascending
        self.flying = 0
        self.freed = asyncio.Event()  # set when a request in flight has been answered

    def wait(self, now: float) -> float | None:
        """0 if there is room now, else the seconds until there is, or None: after an answer."""
        while self.answered and self.answered[0] <= now - self.period:
            self.answered.popleft()
        if len(self.answered) + self.flying < self.limit:
            return 0.0
        if self.answered:
            return self.answered[0] + self.period - now
        return None

    def take(self) -> None:
        self.flying += 1

    def done(self, now: float) -> None:
        self.flying -= 1
        self.answered.append(now)
        self.freed.set()

    def free(self, now: float) -> int:
        """Places left now (a request in flight holds one)."""
        self.wait(now)  # drops what left the window
        return self.limit - len(self.answered) - self.flying

    def idle(self, now: float) -> bool:
        return self.flying == 0 and self.wait(now) == 0.0 and not self.answered


class _Gate:
    """A lock whose next holder is the waiter with the lowest (priority, arrival), not simply
    the first to arrive: a chat already talking (a run's question right after its intro) goes
    before chats still waiting for their first message, so no group sits between the two."""

    __slots__ = ("held", "seq", "waiters")

    def __init__(self) -> None:
        self.held = False
        self.seq = 0
        self.waiters: list[tuple[int, int, asyncio.Future[None]]] = []

    async def acquire(self, priority: int) -> None:
        if not self.held and not self.waiters:
            self.held = True
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.seq += 1
        heapq.heappush(self.waiters, (priority, self.seq, future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # handed the gate just as we were cancelled: pass it on
            raise

    def release(self) -> None:
        while self.waiters:
            _, _, future = heapq.heappop(self.waiters)
            if not future.done():  # skip waiters that were cancelled
                future.set_result(None)  # the gate passes on, still held
                return
        self.held = False


# Gate priorities: replies in a private chat, and groups that got a message within RECENT
# seconds, go before groups still waiting for their first one (a fan-out's intros); courtesy
# replies go last, at the bot's gate and at their group's.
CONTINUING, NEW, COURTESY = 0, 1, 2
RECENT = 5.0


class _PrivatePace:
    """Telegram's ~1 message/s per private chat, short bursts tolerated: a token bucket."""

    __slots__ = ("lock", "stamp", "tokens")

    def __init__(self, burst: int, now: float) -> None:
        self.lock = asyncio.Lock()  # one send in flight per private chat, in order
        self.tokens, self.stamp = float(burst), now


class PacedRateLimiter(BaseRateLimiter[LimitArgs]):
    """Telegram's flood limits applied at the wire; see the module docstring."""

    def __init__(
        self,
        *,
        overall_rate: float = 29.0,
        overall_limit: int = 30,
        overall_period: float = 1.0,
        group_limit: int = 20,
        group_period: float = 60.0,
        private_rate: float = 1.0,
        private_burst: int = 3,
        max_in_flight: int = 3,
        max_retries: int = RETRIES,
        clock: Callable[[], float] = time.monotonic,
        chat_slots: Callable[[int | str], Awaitable[float]] | None = None,
        chat_spare: Callable[[int | str], Awaitable[bool]] | None = None,
        shared: SharedBudget | None = None,
        courtesy_reserve: int = 10,
    ) -> None:
        if overall_rate <= 0 or max_in_flight < 1:
            raise ValueError("overall_rate must be > 0 and max_in_flight ≥ 1")
        self.interval = 1.0 / overall_rate
        self.overall_limit, self.overall_period = overall_limit, overall_period
        self.group_limit, self.group_period = group_limit, group_period
        self.private_rate, self.private_burst = private_rate, private_burst
        self.max_in_flight = max_in_flight
        self.max_retries = max_retries
        self.clock = clock
        # Several workers: a chat's sends are booked in shared slots too (each worker's own
        # windows see only its own sends); returns how long to wait for this chat's slot.
        self.chat_slots = chat_slots
        # ... and a courtesy reply's slot, booked only if the group's is free now (else: Shed).
        self.chat_spare = chat_spare
        # Places of a group's window a courtesy reply must leave to its run.
        self.courtesy_reserve = courtesy_reserve
        # Several workers, maybe on several hosts: the overall rhythm is one schedule in the
        # database (bot/tg/wire/shared_pace.py) instead of this process's own `overall_rate`.
        self.shared = shared
        self._state: _State | None = None

    # -- BaseRateLimiter ------------------------------------------------------------------------

    async def initialize(self) -> None:
        """Nothing to open; state is created lazily on the running loop."""

    async def shutdown(self) -> None:
        """Forget every window (a restarted bot starts afresh, as AIORateLimiter does)."""
        self._state = None

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: LimitArgs | None,
    ) -> JSONResult:
        max_retries, hook = limit_args(rate_limit_args, self.max_retries)
        counted, per_chat = scope(endpoint)
        chat_id = data.get("chat_id") if per_chat else None
        courtesy = isinstance(rate_limit_args, Courtesy)
        state = self._ensure_state()

        async def attempt() -> JSONResult:
            if not counted:
                if hook is not None:
                    await hook.leaving()
                return await callback(*args, **kwargs)
            async with state.slot(chat_id, courtesy=courtesy):
                if hook is not None:  # every wait is over: the request leaves now
                    await hook.leaving()
                return await callback(*args, **kwargs)

        async def on_flood(seconds: float) -> None:
            if counted:  # every counted request waits: the bot may be over, not the chat
                state.pause(seconds)
                if state.shared is not None:  # ... on every worker
                    await state.shared.pause(seconds)
            else:
                await asyncio.sleep(seconds)

        return await with_retries(attempt, endpoint, max_retries, on_flood)

    # -- internals ------------------------------------------------------------------------------

    def _ensure_state(self) -> _State:
        if self._state is None:
            self._state = _State(self)
        return self._state


class _State:
    """Windows, locks and events of one running bot (asyncio objects need the running loop)."""

    PRUNE_AT = 2048  # per-chat states kept before idle ones are dropped

    def __init__(self, limiter: PacedRateLimiter) -> None:
        self.cfg = limiter
        self.clock = limiter.clock
        self.admit = _Gate()  # one request at a time waits for the next slot
        self.window = _WireWindow(limiter.overall_limit, limiter.overall_period)
        self.next_slot = 0.0
        self.paused_until = 0.0
        self.groups: dict[int | str, tuple[_Gate, _WireWindow]] = {}
        self.privates: dict[int, _PrivatePace] = {}
        shared = limiter.shared
        self.shared = SharedSlots(shared, self.clock) if shared is not None else None

    def pause(self, seconds: float) -> None:
        self.paused_until = max(self.paused_until, self.clock() + seconds)

    @contextlib.asynccontextmanager
    async def slot(self, chat_id: object, *, courtesy: bool = False) -> AsyncIterator[None]:
        """Wait for this chat's limit, then for the global pace; hold the places until answered.
        A courtesy reply to a group is refused (`Shed`) rather than wait for the group."""
        async with contextlib.AsyncExitStack() as stack:
            chat = _chat_key(chat_id)
            priority = NEW
            booked = False  # the shared slot already booked (a courtesy reply's spare one)
            if isinstance(chat, int) and chat > 0:
                priority = CONTINUING  # a reply to what a learner just did
                pace = self._private(chat)
                await stack.enter_async_context(pace.lock)
                stack.callback(self._private_answered, pace)
                await self._private_token(pace)
            elif chat is not None:
                window = await (self._spare(chat) if courtesy else self._group(chat))
                booked = courtesy and self.cfg.chat_spare is not None
                stack.callback(lambda: window.done(self.clock()))
                if window.answered and window.answered[-1] > self.clock() - RECENT:
                    priority = CONTINUING
            if courtesy:
                priority = COURTESY
            if chat is not None and self.cfg.chat_slots is not None and not booked:
                wait = await self.cfg.chat_slots(chat)
                if wait > 0:
                    await asyncio.sleep(wait)
            await self._global(priority)
            stack.callback(lambda: self.window.done(self.clock()))
            yield

    async def _global(self, priority: int) -> None:
        cfg = self.cfg
        await self.admit.acquire(priority)
        try:
            while True:
                now = self.clock()
                room = self.window.wait(now)
                if room is None or self.window.flying >= cfg.max_in_flight:
                    self.window.freed.clear()
                    await self.window.freed.wait()
                    continue
                if self.shared is not None:  # the bot's schedule, shared by every worker
                    slot = await self.shared.next(len(self.admit.waiters) + 1)
                    now = self.clock()
                else:
                    slot = self.next_slot
                delay = max(room, slot - now, self.paused_until - now)
                if delay <= 0:
                    break
                await asyncio.sleep(delay)
            self.window.take()
            if self.shared is not None:
                self.shared.used(now)
                return
            # Evenly spaced. A release the busy loop woke late for keeps the rhythm (the next one
            # catches up, by less than one interval); after a pause or an idle line the rhythm
            # starts afresh from now, so an idle limiter never lets a burst out.
            if self.next_slot >= now - cfg.interval:
                self.next_slot += cfg.interval
            else:
                self.next_slot = now + cfg.interval
        finally:
            self.admit.release()

    def _group_entry(self, chat: int | str) -> tuple[_Gate, _WireWindow]:
        entry = self.groups.get(chat)
        if entry is None:
            self._prune()
            entry = (_Gate(), _WireWindow(self.cfg.group_limit, self.cfg.group_period))
            self.groups[chat] = entry
        return entry

    async def _group(self, chat: int | str) -> _WireWindow:
        gate, window = self._group_entry(chat)
        await gate.acquire(CONTINUING)  # this group's sends leave in order, courtesy last
        try:
            while (room := window.wait(self.clock())) != 0.0:
                if room is None:
                    window.freed.clear()
                    await window.freed.wait()
                else:
                    await asyncio.sleep(room)
            window.take()
        finally:
            gate.release()
        return window

    async def _spare(self, chat: int | str) -> _WireWindow:
        """A courtesy reply's place in the group's window: behind the group's other sends, and
        only if more than `courtesy_reserve` places are left (and, with several workers, the
        group's shared slot is free now); else `Shed`, at once rather than after a wait."""
        gate, window = self._group_entry(chat)
        reserve = self.cfg.courtesy_reserve
        if window.free(self.clock()) <= reserve:  # a send waiting for room holds the gate
            raise Shed("courtesy reply not sent: the group's budget is kept for its run")
        await gate.acquire(COURTESY)
        try:
            if window.free(self.clock()) <= reserve:
                raise Shed("courtesy reply not sent: the group's budget is kept for its run")
            spare = self.cfg.chat_spare
            if spare is not None and not await spare(chat):
                raise Shed("courtesy reply not sent: the group's shared slot is taken")
            window.take()
        finally:
            gate.release()
        return window

    def _private(self, chat: int) -> _PrivatePace:
        pace = self.privates.get(chat)
        if pace is None:
            self._prune()
            pace = _PrivatePace(self.cfg.private_burst, self.clock())
            self.privates[chat] = pace
        return pace

    async def _private_token(self, pace: _PrivatePace) -> None:
        rate = self.cfg.private_rate
        while True:
            now = self.clock()
            pace.tokens = min(self.cfg.private_burst, pace.tokens + (now - pace.stamp) * rate)
            pace.stamp = now
            if pace.tokens >= 1:
                pace.tokens -= 1
                return
            await asyncio.sleep((1 - pace.tokens) / rate)

    def _private_answered(self, pace: _PrivatePace) -> None:
        # No refill while the send was in flight: as if the server counted it when it answered.
        pace.stamp = self.clock()

    def _prune(self) -> None:
        if len(self.groups) + len(self.privates) < self.PRUNE_AT:
            return
        now = self.clock()
        for key, (gate, window) in list(self.groups.items()):
            if not gate.held and window.idle(now):
                del self.groups[key]
        burst, rate = self.cfg.private_burst, self.cfg.private_rate
        for key, pace in list(self.privates.items()):
            refilled = pace.tokens + (now - pace.stamp) * rate >= burst
            if not pace.lock.locked() and refilled:
                del self.privates[key]


def _chat_key(chat_id: object) -> int | str | None:
    """An int for numeric ids (strings included), the string for @usernames, None if absent."""
    if chat_id is None:
        return None
    if isinstance(chat_id, int):
        return chat_id
    with contextlib.suppress(TypeError, ValueError):
        return int(str(chat_id))
    return str(chat_id)
