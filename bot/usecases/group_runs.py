"""Use cases of a study group: settings, a run's lifecycle, member answers, schedules.

The service owns the live runs in memory (it is the only writer, so they cannot go stale) so a
tap costs one SQLite write and one read of the member's language; the store stays the truth that
a restart resumes from.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from bot.core.clock import Clock
from bot.core.engine import Judgement, Standing, Verdict, leaderboard, option_counts, option_orders
from bot.core.group_run import GroupRun, elapsed_ms, judge_tap
from bot.core.models import Catalog, Quiz
from bot.core.schedule import ScheduleSpec, encode_days, next_quiz
from bot.i18n import choose_language
from bot.store import GroupSettings, GroupStore, Schedule, ScheduleStore, Stored
from bot.store.learners import encode_orders
from bot.usecases.learner_profile import Learner

SECONDS_CHOICES = (10, 20, 30, 60)


@dataclass(frozen=True, slots=True)
class GroupTap:
    verdict: Verdict
    lang: str  # the member's language, for their popup
    quiz: Quiz | None = None
    judgement: Judgement | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    run: GroupRun
    quiz: Quiz
    index: int
    counts: list[int]  # per displayed position
    is_last: bool


@dataclass(frozen=True, slots=True)
class RunResults:
    run: GroupRun
    quiz: Quiz
    top: list[Standing]
    players: int


class GroupService:
    def __init__(
        self,
        catalog: Catalog,
        store: GroupStore,
        schedules: ScheduleStore,
        *,
        default_language: str = "en",
        default_seconds: int = 30,
        default_timezone: str = "UTC",
        seconds_override: float | None = None,
        clock: Clock = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.schedule_store = schedules
        self.default_language = default_language
        self.default_seconds = default_seconds
        self.default_timezone = default_timezone
        self.seconds_override = seconds_override  # tests: fractions of a second per question
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._runs: dict[int, GroupRun] = {}

    # -- settings ---------------------------------------------------------------------------

    async def settings(
        self, chat_id: int, title: str = "", telegram_language: str | None = None
    ) -> GroupSettings:
        """The group's settings, recording the group on first sight (its language then follows
        the member who added the bot or spoke first)."""
        found = await self.store.group(chat_id)
        if found is not None and found.member and (not title or title == found.title):
            return found
        lang = choose_language(
            stored=None, telegram_code=telegram_language, default=self.default_language
        )
        return await self.store.ensure_group(
            chat_id, title, lang, self.default_seconds, self.default_timezone, self.clock()
        )

    async def update(self, chat_id: int, column: str, value: object) -> GroupSettings | None:
        await self.store.update_group(chat_id, column, value, self.clock())
        return await self.store.group(chat_id)

    async def left(self, chat_id: int) -> list[int]:
        """The bot was removed: stop the run silently, delete schedules (their ids returned)."""
        for run_id in [r.id for r in self._runs.values() if r.chat_id == chat_id]:
            self._runs.pop(run_id, None)
        return await self.store.left(chat_id, self.clock())

    async def migrate(self, old_id: int, new_id: int) -> None:
        await self.store.migrate(old_id, new_id, self.clock())
        for run in list(self._runs.values()):
            if run.chat_id == old_id:
                self._runs[run.id] = replace(run, chat_id=new_id)

    def seconds(self, settings: GroupSettings) -> float:
        return self.seconds_override or float(settings.seconds)

    # -- runs -------------------------------------------------------------------------------

    def quiz_of(self, run: GroupRun) -> Quiz | None:
        return self.catalog.quiz(run.quiz_id)

    async def pick_quiz(self, chat_id: int, which: str) -> Quiz | None:
        """A quiz id, or 'next' (catalogue order, no repeat until all were played) or 'random'."""
        order = [quiz.id for quiz in self.catalog]
        if which == "random":
            return self.catalog.quiz(self.rng.choice(order)) if order else None
        if which == "next":
            chosen = next_quiz(order, await self.store.played_quizzes(chat_id))
            return self.catalog.quiz(chosen) if chosen else None
        return self.catalog.quiz(which)

    async def start(self, chat_id: int, user_id: int | None, quiz: Quiz) -> GroupRun | None:
        """A new run of `quiz`, or None when the group already has one running."""
        settings = await self.settings(chat_id)
        orders = option_orders(quiz, self.rng, settings.shuffle)
        seconds = self.seconds(settings)
        run_id = await self.store.start_run(
            chat_id, user_id, quiz.id, encode_orders(orders), seconds, self.clock()
        )
        if run_id is None:
            return None
        run = GroupRun(run_id, chat_id, quiz.id, orders, seconds)
        self._runs[run_id] = run
        return run

    async def run(self, run_id: int) -> GroupRun | None:
        cached = self._runs.get(run_id)
        if cached is not None:
            return cached
        run = await self.store.run(run_id)
        if run is not None:
            self._runs[run_id] = run
        return run

    async def active_run(self, chat_id: int) -> GroupRun | None:
        for run in self._runs.values():
            if run.chat_id == chat_id:
                return run
        return None

    async def restore(self) -> list[GroupRun]:
        """Active runs found in the store at start-up; those whose quiz is gone are closed."""
        runs = []
        for run in await self.store.active_runs():
            quiz = self.quiz_of(run)
            if quiz is None or len(run.orders) != len(quiz):
                await self.store.finish_run(run.id, "abandoned", self.clock())
                continue
            self._runs[run.id] = run
            runs.append(run)
        return runs

    async def open_question(self, run: GroupRun, index: int) -> GroupRun:
        """Question `index` takes answers from now until its deadline (persisted before sending)."""
        now = self.clock()
        deadline = now + run.seconds
        await self.store.open_question(run.id, index, now, deadline)
        run = replace(
            run, current=index, is_open=True, message_id=None, sent_at=now, deadline=deadline
        )
        self._runs[run.id] = run
        return run

    async def question_sent(self, run: GroupRun, message_id: int) -> GroupRun:
        await self.store.question_sent(run.id, run.current, message_id)
        run = replace(run, message_id=message_id)
        if run.id in self._runs:
            self._runs[run.id] = run
        return run

    async def answer(
        self,
        chat_id: int,
        run_id: int,
        index: int,
        position: int,
        member: Learner,
        group_language: str,
    ) -> GroupTap:
        """Judge and store a member's tap from chat `chat_id`; ACCEPTED only once the answer is
        durable. A run answers only taps from its own chat: callback data can be forged, and
        otherwise anyone could play another group's run from their own. The popup speaks the
        member's language, else the group's."""
        lang = member.language_in(group_language)
        run = self._runs.get(run_id)
        quiz = self.quiz_of(run) if run else None
        if run is None or quiz is None:
            return GroupTap(Verdict.CLOSED, lang)
        if run.chat_id != chat_id:
            return GroupTap(Verdict.NOT_YOURS, lang)
        verdict, judgement = judge_tap(run, quiz, index, position)
        if judgement is None:
            return GroupTap(verdict, lang, quiz)
        now = self.clock()
        stored = await self.store.record_answer(
            run_id,
            index,
            member.user_id,
            member.first_name,
            member.telegram_language,
            judgement.option_index,
            judgement.is_correct,
            lang,
            now,
            elapsed_ms(run.sent_at, now),
        )
        if stored is Stored.DUPLICATE:
            return GroupTap(Verdict.ALREADY_ANSWERED, lang, quiz)
        if stored is Stored.CLOSED:
            return GroupTap(Verdict.CLOSED, lang, quiz)
        return GroupTap(Verdict.ACCEPTED, lang, quiz, judgement)

    async def close_question(self, run_id: int, index: int) -> Reveal | None:
        """Stop answers to question `index` and count them; None if it was not open."""
        run = await self.run(run_id)
        quiz = self.quiz_of(run) if run else None
        if run is None or quiz is None:
            return None
        chosen = await self.store.close_and_count(run_id, index)  # one transaction: no stale read
        if chosen is None:
            return None
        run = replace(run, is_open=False)
        self._runs[run_id] = run
        counts = option_counts(run.orders[index], chosen)
        return Reveal(run, quiz, index, counts, index + 1 >= len(quiz))

    async def finish(self, run_id: int, *, stopped: bool = False) -> RunResults | None:
        """End the run (once) and rank its players; None if it had already ended."""
        run = await self.run(run_id)
        quiz = self.quiz_of(run) if run else None
        status = "abandoned" if stopped else "finished"
        if (
            run is None
            or quiz is None
            or not await self.store.finish_run(run_id, status, self.clock())
        ):
            self._runs.pop(run_id, None)
            return None
        self._runs.pop(run_id, None)
        standings = await self.store.standings(run_id)
        return RunResults(run, quiz, leaderboard(standings), len(standings))

    # -- schedules --------------------------------------------------------------------------

    async def add_schedule(self, chat_id: int, spec: ScheduleSpec, user_id: int | None) -> Schedule:
        return await self.schedule_store.add_schedule(
            chat_id, spec.quiz, encode_days(spec.days), spec.time_text, user_id, self.clock()
        )

    async def schedules(self, chat_id: int | None = None) -> list[Schedule]:
        return await self.schedule_store.schedules(chat_id)

    async def schedule(self, schedule_id: int) -> Schedule | None:
        return await self.schedule_store.schedule(schedule_id)

    async def remove_schedule(self, chat_id: int, number: int) -> Schedule | None:
        """Remove the group's `number`-th schedule as /schedules lists it (1-based)."""
        listed = await self.schedules(chat_id)
        if not 1 <= number <= len(listed):
            return None
        chosen = listed[number - 1]
        return chosen if await self.schedule_store.delete_schedule(chosen.id) else None
