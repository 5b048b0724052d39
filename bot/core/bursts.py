"""When a person's messages in their private chat come faster than the bot may answer them.

Telegram lets a bot send about one message a second in a private chat (a short burst
tolerated), and the bot answers one chat's updates in order. So 100 commands sent in a burst
once got 100 replies, paced over 100 seconds, and that person's next tap waited behind them all.
In a group the courtesy rules cap what members get (bot/core/courtesy.py); this is the private
chat's equivalent, as a leaky bucket per person:

* every message (a command, a text, a file...) fills the bucket by one; it drains at `PACE` a
  second, the rate Telegram lets the bot answer at, so a person never faster than that is never
  held, however long they go on;
* `BURST` messages ahead of that pace still pass. A person typing, or tapping commands in the
  menu, sends one every few seconds, and a fast one three or four in a row; `BURST` is twice
  that, and it is what a burst can cost: `BURST` replies, a few seconds of that chat's pace;
* past it the person is *held*: the first message held gets one notice (`Verdict.NOTICE`),
  the others nothing (`Verdict.DROP`), and each keeps the bucket full, until it has drained
  empty: `BURST / PACE` seconds without a message. The next message then passes as ever.

Taps are not counted here, on purpose: a tap's answer is a popup, which Telegram does not pace
per chat, and mostly an edit of the message tapped (global budget only, not the chat's); an
answer is committed data, and a client's button spins until it is answered. Dates are the
messages' own (Telegram's): a backlog delivered after the bot was down is not a burst.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

BURST = 8  # messages passed ahead of `PACE` (see the module docstring)
PACE = 1.0  # messages a second the bucket drains by: Telegram's pace in one private chat
KEPT = 4096  # people remembered before the calm ones are forgotten


class Verdict(Enum):
    PASS = "pass"
    NOTICE = "notice"  # held: the first message of this flood, which gets the notice
    DROP = "drop"  # held: dropped without a word


@dataclass(slots=True)
class _Bucket:
    level: float
    at: float
    held: bool = False


class Bursts:
    """Each person's bucket, in memory: one process's view (a dict look-up per message)."""

    __slots__ = ("_buckets", "_sweep_at", "burst", "pace")

    def __init__(self, burst: int = BURST, pace: float = PACE) -> None:
        self.burst, self.pace = burst, pace
        self._buckets: dict[int, _Bucket] = {}
        self._sweep_at = KEPT  # how many people remembered before the next sweep

    def message(self, user_id: int, at: float) -> Verdict:
        """The verdict on `user_id`'s message dated `at` (seconds)."""
        bucket = self._buckets.get(user_id)
        if bucket is None:
            if len(self._buckets) >= self._sweep_at:
                self._forget_calm(at)
                self._sweep_at = max(KEPT, 2 * len(self._buckets))  # amortized: O(1) a person
            self._buckets[user_id] = _Bucket(1.0, at)
            return Verdict.PASS
        level = max(0.0, bucket.level - max(0.0, at - bucket.at) * self.pace)
        bucket.at = max(bucket.at, at)  # a date older than the last drains nothing
        if bucket.held and level > 0:
            bucket.level = float(self.burst)  # still flooding: held for longer
            return Verdict.DROP
        if level + 1 <= self.burst:
            bucket.level, bucket.held = level + 1, False
            return Verdict.PASS
        bucket.level, bucket.held = float(self.burst), True
        return Verdict.NOTICE

    def _forget_calm(self, now: float) -> None:
        """Forget everyone whose bucket has drained: they would start again from empty."""
        calm = [
            user_id
            for user_id, bucket in self._buckets.items()
            if bucket.level - max(0.0, now - bucket.at) * self.pace <= 0
        ]
        for user_id in calm:
            del self._buckets[user_id]

    def __len__(self) -> int:
        return len(self._buckets)
