"""A learner's time zone and daily reminder: `/timezone`, `/remind`, and what a reminder says.

The reminder fires at a wall time in the learner's own zone (`/timezone Europe/Paris`, else the
bot's default), so "/remind on 18:30" means 18:30 where they are, daylight saving included (the
timers compute each day's moment with zoneinfo: bot/core/recurrence.py and PTB's JobQueue).
Changing the zone keeps the reminder's local time: the store moves both in one transaction and
the caller re-arms the timer.

Validation of a zone is the groups' own (bot/core/zones.py): an unknown name is refused with
the closest real one as a suggestion ('europe/paris' -> 'Europe/Paris'), never silently fixed.

On a day with nothing due the learner gets no reminder: a message that only says "nothing to
do" teaches people to mute the bot. The one exception is a streak that breaks tonight, which
gets its short note (and no review button, since there is nothing to review).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.review import looks_like_clock, parse_clock
from bot.core.streaks import StreakStatus
from bot.core.zones import COMMON_ZONES, closest_zone, known_zone
from bot.store.reviews import Reminder, ReviewStore
from bot.usecases.learner_profile import Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import SpacedReview

DEFAULT_REMINDER = "18:00"


@dataclass(frozen=True, slots=True)
class RemindOn:
    reminder: Reminder


@dataclass(frozen=True, slots=True)
class RemindOff:
    had_one: bool


@dataclass(frozen=True, slots=True)
class BadTime:
    """`/remind on <time>` with something that is no time of day ('25:00'): say so."""

    typed: str


@dataclass(frozen=True, slots=True)
class RemindUsage:
    """/remind alone, or arguments it does not take: how to use it, with the reminder they have
    (if any) and the zone it would use."""

    current: Reminder | None
    zone: str
    typed: str = ""  # what was not understood ('' for /remind alone)


@dataclass(frozen=True, slots=True)
class ZoneShown:
    """/timezone alone: the learner's zone, whether they chose it, and their reminder."""

    zone: str
    chosen: bool
    reminder: Reminder | None
    offered: tuple[str, ...] = COMMON_ZONES


@dataclass(frozen=True, slots=True)
class ZoneSet:
    zone: str
    reminder: Reminder | None  # their reminder, now at the same local time in the new zone


@dataclass(frozen=True, slots=True)
class UnknownZone:
    typed: str
    suggestion: str | None  # what they probably meant ('europe/paris' -> 'Europe/Paris')


@dataclass(frozen=True, slots=True)
class Nudge:
    """What today's reminder says: reviews due (0: only the streak note) and the streak."""

    due: int
    streak: StreakStatus
    weakest: float | None = None  # FSRS's lowest predicted recall today among the due ones


class LearnerReminders:
    def __init__(
        self,
        learners: Learners,
        reviews: ReviewStore,
        review: SpacedReview,
        stats: LearnerStatsCases,
        *,
        default_timezone: str = "UTC",
        clock: Clock = time.time,
    ) -> None:
        self.learners = learners
        self.reviews = reviews
        self.review = review
        self.stats = stats
        self.default_timezone = default_timezone
        self.clock = clock

    # -- the learner's zone -------------------------------------------------------------------

    async def zone(self, user_id: int) -> str:
        """Their chosen zone, else the bot's default (kept in memory with their language)."""
        return await self.learners.chosen_zone(user_id) or self.default_timezone

    async def timezone(
        self, user_id: int, args: Sequence[str]
    ) -> ZoneShown | ZoneSet | UnknownZone:
        """/timezone [Area/City]: show the zone, or set it (the reminder follows)."""
        if not args:
            chosen = await self.learners.chosen_zone(user_id)
            zone = chosen or self.default_timezone
            return ZoneShown(zone, chosen is not None, await self._reminder(user_id))
        name = " ".join(args).strip()
        return await self.choose_zone(user_id, name)

    async def choose_zone(self, user_id: int, name: str) -> ZoneSet | UnknownZone:
        """A typed zone or a zone button; only a real `Area/City` (or UTC) is kept."""
        if not known_zone(name):
            return UnknownZone(name, closest_zone(name))
        return ZoneSet(name, await self.learners.choose_zone(user_id, name))

    def offered(self, index: int) -> str | None:
        """The zone of button `index` of /timezone, or None for a number we never offered."""
        return COMMON_ZONES[index] if 0 <= index < len(COMMON_ZONES) else None

    # -- /remind --------------------------------------------------------------------------------

    async def remind(
        self, user_id: int, args: Sequence[str]
    ) -> RemindOn | RemindOff | RemindUsage | BadTime:
        """/remind on [HH:MM] | off | HH:MM; '7h30' is 07:30, as /schedule reads it. The time is
        a wall time in the learner's zone."""
        words = [a.lower() for a in args]
        if words == ["off"]:
            return RemindOff(await self.reviews.clear_reminder(user_id))
        if len(words) == 1 and words[0] != "on" and parse_clock(words[0]) is not None:
            words = ["on", words[0]]  # '/remind 18:30' means what it says
        elif len(words) == 1 and looks_like_clock(words[0]):
            return BadTime(args[0])  # '/remind 24:00': a time, but none of the day
        if words[:1] == ["on"] and len(words) <= 2:
            at = parse_clock(words[1]) if len(words) == 2 else DEFAULT_REMINDER
            if at is None:
                return BadTime(args[1])
            zone = await self.zone(user_id)
            await self.reviews.set_reminder(user_id, at, zone, self.clock())
            return RemindOn(Reminder(user_id, at, zone))
        return RemindUsage(await self._reminder(user_id), await self.zone(user_id), " ".join(args))

    async def reminders(self) -> list[Reminder]:
        """Every reminder, to arm their timers at start-up."""
        return await self.reviews.reminders()

    async def _reminder(self, user_id: int) -> Reminder | None:
        found = await self.reviews.reminders(user_id)
        return found[0] if found else None

    # -- the reminder itself --------------------------------------------------------------------

    async def nudge(self, user_id: int) -> Nudge | None:
        """What to say at reminder time, or None: nothing due and no streak to save."""
        due = await self.review.due_count(user_id)
        streak = await self.stats.streak_status(user_id)  # days in the learner's zone
        if not due and not streak.at_risk:
            return None
        now = self.clock()
        due_items = [i for i in await self.reviews.items(user_id) if i.is_due(now)]
        weakest = min([await self.review.recall_of(i) for i in due_items], default=None)
        return Nudge(due, streak, weakest)
