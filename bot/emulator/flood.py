"""Flood control shaped like Telegram's, so rate limiting in the bot is exercised for real.

Telegram does not publish exact rules; its FAQ gives about 30 messages/s per bot, 20 messages a
minute per group and about 1 message/s per private chat with short bursts tolerated. We model:

* global: a sliding one-second window over every counted request;
* groups and supergroups: a sliding 60-second window per chat;
* private chats: a token bucket (rate 1/s, `per_private_burst` tokens) so a short burst passes.

Edits (editMessageText, editMessageReplyMarkup) never count toward a chat's window: Telegram
documents no per-chat edit limit, and counting them would punish the normal "answer, then edit
the question" flow. They do count toward the global window when `edits_count_globally` is set
(the default), because Telegram throttles a bot's total outflow. answerCallbackQuery and read
methods are never limited. A refused request is not counted.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class FloodLimits:
    """Limits; pass `None` instead of an instance to turn flood control off."""

    global_per_second: int = 30
    per_group_per_minute: int = 20
    per_private_per_second: float = 1.0
    per_private_burst: int = 3
    edits_count_globally: bool = True


def _retry(seconds: float) -> int:
    """Telegram's retry_after: whole seconds, at least 1."""
    return max(1, math.ceil(seconds - 1e-9))


class _Window:
    """Timestamps within a sliding window; O(1) amortized per check."""

    __slots__ = ("limit", "span", "times")

    def __init__(self, limit: int, span: float) -> None:
        self.limit, self.span = limit, span
        self.times: deque[float] = deque()

    def wait(self, now: float) -> float:
        while self.times and self.times[0] <= now - self.span:
            self.times.popleft()
        if len(self.times) < self.limit:
            return 0.0
        return self.times[len(self.times) - self.limit] + self.span - now

    def add(self, now: float) -> None:
        self.times.append(now)


class _Bucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), now

    def wait(self, now: float) -> float:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def add(self, now: float) -> None:
        self.tokens -= 1


class FloodControl:
    """Answers "may this send go out now?"; `check` returns retry_after seconds or None."""

    def __init__(self, limits: FloodLimits | None, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        if limits is not None:
            self._global = _Window(limits.global_per_second, 1.0)
        self._chats: dict[int, _Window | _Bucket] = {}

    def _chat(self, chat_id: int, private: bool, now: float) -> _Window | _Bucket:
        limiter = self._chats.get(chat_id)
        if limiter is None:
            assert self.limits is not None
            if private:
                limiter = _Bucket(
                    self.limits.per_private_per_second, self.limits.per_private_burst, now
                )
            else:
                limiter = _Window(self.limits.per_group_per_minute, 60.0)
            self._chats[chat_id] = limiter
        return limiter

    def acquire(self, chat_id: int, private: bool, *, edit: bool = False) -> int | None:
        """Count one request if allowed; else return the whole seconds to wait."""
        if self.limits is None:
            return None
        if edit and not self.limits.edits_count_globally:
            return None
        now = self.clock()
        wait = self._global.wait(now)
        chat = None if edit else self._chat(chat_id, private, now)
        if chat is not None:
            wait = max(wait, chat.wait(now))
        if wait > 0:
            return _retry(wait)
        self._global.add(now)
        if chat is not None:
            chat.add(now)
        return None
