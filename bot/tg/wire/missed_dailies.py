"""One process's daily timers across a restart: an occurrence that came due while the bot was
down plays late, once, if it is at most `MISSED_PLAYS_WITHIN` late (bot/core/recurrence.py).

PTB's JobQueue and the tests' clock timers keep their jobs in memory; start-up arms every
schedule and reminder again for its next time. So each daily timer's next moment is kept in the
store (bot/store/daily_dues.py) when it is armed and before each firing, and arming it again
at start-up reads what it was waiting for: a moment already past, under the same rule, was
missed. Several workers' durable timers get the same rule from their rows
(`PgTimers`, `TimerQueue.arm_daily`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.core.recurrence import MISSED_PLAYS_WITHIN, next_daily
from bot.store.daily_dues import DailyDueStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class DailyRule:
    """`at` (hour, minute) in `timezone` on `days` (0 = Monday)."""

    at: tuple[int, int]
    timezone: str
    days: tuple[int, ...]

    @classmethod
    def of(cls, at: tuple[int, int], timezone: str, days: Sequence[int]) -> DailyRule:
        return cls((int(at[0]), int(at[1])), timezone, tuple(int(d) for d in days))

    @property
    def text(self) -> str:
        return json.dumps({"at": list(self.at), "tz": self.timezone, "days": list(self.days)})

    def next_after(self, moment: float) -> float:
        return next_daily(moment, self.at[0], self.at[1], ZoneInfo(self.timezone), self.days)


class MissedDailies:
    """What the one-process timers ask the store about their daily timers; without a store
    (`dues` None) nothing is kept and nothing missed is played."""

    def __init__(self, dues: DailyDueStore | None, clock: Callable[[], float]) -> None:
        self.dues, self.clock = dues, clock
        self._known: set[tuple[str, int]] = set()  # daily timers armed here: cancel drops their row

    async def arming(self, kind: str, ident: int, rule: DailyRule) -> float | None:
        """Keep the timer's next moment; return how late an occurrence it missed is, if that
        occurrence still plays (None: nothing missed, or missed by too much)."""
        if self.dues is None:
            return None
        self._known.add((kind, ident))
        now = self.clock()
        kept = await self.dues.due(kind, ident)
        await self.dues.keep(kind, ident, rule.next_after(now), rule.text)
        if kept is None or kept.rule != rule.text or kept.due_at > now:
            return None
        late = now - kept.due_at
        if late > MISSED_PLAYS_WITHIN:
            log.info("%s:%s missed its time by %.0f min: it plays at its next", kind, ident,
                     late / 60)  # fmt: skip
            return None
        log.info("%s:%s missed its time by %.0f s: it plays now", kind, ident, late)
        return late

    async def firing(self, kind: str, ident: int, rule: DailyRule) -> None:
        """Before the handler runs: the next moment is the one to wait for, so a process dying
        in the handler does not play this occurrence again at its next start."""
        if self.dues is not None:
            await self.dues.keep(kind, ident, rule.next_after(self.clock()), rule.text)

    async def cancelled(self, kind: str, ident: int) -> None:
        if self.dues is not None and (kind, ident) in self._known:
            self._known.discard((kind, ident))
            await self.dues.drop(kind, ident)
