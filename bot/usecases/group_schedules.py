"""A study group's automatic quizzes: /schedule, /schedules, /unschedule, and what fires.

Arguments arrive as the admin typed them; parsing and checking them against the quizzes that
exist is the core's rule (`parse_schedule`), numbering follows the list /schedules shows.

A group holds at most `MAX_SCHEDULES`: about 60 made /schedules longer than a Telegram message,
and a group that runs more than 20 quizzes on a timer is better served by "next" or "random".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.models import Catalog
from bot.core.schedule import ScheduleError, encode_days, parse_schedule, same_schedule
from bot.schedule_words import day_words, quiz_words
from bot.store import Schedule, ScheduleStore
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref

MAX_SCHEDULES = 20


@dataclass(frozen=True, slots=True)
class Scheduled:
    added: Schedule
    listed: list[Schedule]


@dataclass(frozen=True, slots=True)
class Unreadable:
    field: str  # quiz, days, time, count
    value: str


@dataclass(frozen=True, slots=True)
class Duplicate:
    """The group already has exactly this schedule: nothing added."""

    number: int  # as /schedules lists it


@dataclass(frozen=True, slots=True)
class TooMany:
    """The group already has `limit` schedules: nothing added until one is removed."""

    limit: int


@dataclass(frozen=True, slots=True)
class Unscheduled:
    removed: Schedule
    listed: list[Schedule]


@dataclass(frozen=True, slots=True)
class NoSuchSchedule:
    pass


class GroupSchedules(ServesCatalog):
    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        store: ScheduleStore,
        *,
        clock: Clock = time.time,
        own_ids: Callable[[int], Iterable[str]] | None = None,
    ) -> None:
        self._catalog_ref = catalog_ref(catalog)
        self.store = store
        self.clock = clock
        # A group's own (uploaded) quiz ids, schedulable there only; set by the uploads.
        self.own_ids: Callable[[int], Iterable[str]] = own_ids or (lambda _: ())

    async def add(
        self,
        chat_id: int,
        args: Sequence[str],
        user_id: int | None,
        thread_id: int = 0,
        thread_name: str = "",
    ) -> Scheduled | Unreadable | Duplicate | TooMany:
        """Words of every supported language are read (`lun,mer`, `altine`, `suivant`). Made
        in a forum topic (`thread_id`, named `thread_name`), the schedule runs there."""
        try:
            spec = parse_schedule(
                args,
                [*self.own_ids(chat_id), *(quiz.id for quiz in self.catalog)],
                day_words(),
                quiz_words(),
            )
        except ScheduleError as exc:
            return Unreadable(exc.field, exc.value)
        listed = await self.listed(chat_id)
        for number, item in enumerate(listed, start=1):
            same_topic = item.thread_id == thread_id
            if same_topic and same_schedule(spec, item.quiz, item.days, item.at_time):
                return Duplicate(number)
        if len(listed) >= MAX_SCHEDULES:
            return TooMany(MAX_SCHEDULES)
        added = await self.store.add_schedule(
            chat_id,
            spec.quiz,
            encode_days(spec.days),
            spec.time_text,
            user_id,
            self.clock(),
            thread_id,
            thread_name,
        )
        return Scheduled(added, await self.listed(chat_id))

    async def listed(self, chat_id: int | None = None) -> list[Schedule]:
        """A group's schedules in /schedules order (every group's with None)."""
        return await self.store.schedules(chat_id)

    async def stopped(self, chat_id: int) -> list[Schedule]:
        """The schedules stopped when the bot was removed from the group, now that it is back:
        told to the admins once (they are gone after this call), never run again unasked."""
        return await self.store.take_stopped(chat_id)

    async def schedule(self, schedule_id: int) -> Schedule | None:
        return await self.store.schedule(schedule_id)

    async def topic_gone(self, schedule_id: int, gone: bool = True) -> bool:
        """Its topic was found closed or deleted (or, `gone=False`, open again): True the first
        time, when the admins are to be told (once, not at every firing)."""
        return await self.store.set_topic_gone(schedule_id, gone)

    async def remove_quiz(self, chat_id: int, quiz_id: str) -> list[int]:
        """The group deleted its quiz `quiz_id`: its schedules go too (their ids), so that none
        promises a run that could not start."""
        return await self.store.delete_quiz_schedules(chat_id, quiz_id)

    async def remove(self, chat_id: int, number: int) -> Unscheduled | NoSuchSchedule:
        """Remove the group's `number`-th schedule as /schedules lists it (1-based)."""
        listed = await self.listed(chat_id)
        if not 1 <= number <= len(listed):
            return NoSuchSchedule()
        chosen = listed[number - 1]
        if not await self.store.delete_schedule(chosen.id):
            return NoSuchSchedule()
        return Unscheduled(chosen, await self.listed(chat_id))
