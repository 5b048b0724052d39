"""A group run's life, from start to leaderboard: start, each question's opening and time
running out, the live count, /stop, and what a restart must resume. Each returns a typed
outcome; `tg/group_run_handlers.py` only arms timers and sends what these decide. Members'
answers (every kind) are `bot/usecases/group_answers.py`, which reads runs through this.

Where a live run is found is a `KeptRuns` the composition root gives (bot/usecases/kept_runs.py):
kept in memory by one process (the only writer, so they cannot go stale: a tap costs one SQLite
write), read from the store by each of several workers; the store stays the truth that a
restart resumes from.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.core.clock import Clock
from bot.core.engine import (
    leaderboard,
    option_counts,
    option_orders,
)
from bot.core.group_run import GroupRun, Step, played, resume_step
from bot.core.kinds import NUMBER_RIGHT, NUMBER_WRONG, QuestionKind
from bot.core.models import Catalog, Quiz
from bot.core.schedule import next_quiz
from bot.store import GroupStore
from bot.store.learners import encode_orders
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref

# The outcomes (group_run_outcomes.py), named here too: callers read `group_runs.Started`...
from bot.usecases.group_run_outcomes import Busy as Busy
from bot.usecases.group_run_outcomes import Live as Live
from bot.usecases.group_run_outcomes import NothingToAsk as NothingToAsk
from bot.usecases.group_run_outcomes import Resume as Resume
from bot.usecases.group_run_outcomes import Reveal as Reveal
from bot.usecases.group_run_outcomes import RunResults as RunResults
from bot.usecases.group_run_outcomes import Started as Started
from bot.usecases.group_run_outcomes import Stopped as Stopped
from bot.usecases.group_run_outcomes import TimeUp as TimeUp
from bot.usecases.group_run_outcomes import UnknownQuiz as UnknownQuiz
from bot.usecases.group_run_outcomes import closest_quiz as closest_quiz
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.group_standings import GroupStandings
from bot.usecases.kept_runs import KeptRuns

UNANSWERED_LIMIT = 2  # questions in a row without a single answer end a run


class GroupRuns(ServesCatalog):
    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        store: GroupStore,
        settings: GroupSettingsCases,
        *,
        seconds_override: float | None = None,
        clock: Clock = time.time,
        rng: random.Random | None = None,
        standings: GroupStandings | None = None,
        kept: KeptRuns | None = None,
        own_quizzes: Callable[[int], Mapping[str, Quiz]] | None = None,
    ) -> None:
        self._catalog_ref = catalog_ref(catalog)
        self.store = store
        self.settings = settings
        self.standings = standings
        self.seconds_override = seconds_override  # tests: fractions of a second per question
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        # Live runs: kept by one process, read from the store by several workers (compose.py).
        self.kept = kept if kept is not None else KeptRuns(store)
        # A group's own (uploaded) quizzes by the id typed in the group; set by the uploads.
        # A group's own (uploaded) quizzes by id, beside the shipped catalogue.
        self.own_quizzes: Callable[[int], Mapping[str, Quiz]] = own_quizzes or (lambda _: {})
        # Set once the open question's message id is known (a reply names that message).
        self._sent: dict[int, asyncio.Event] = {}

    def quiz_of(self, run: GroupRun) -> Quiz | None:
        """The quiz as the run started it: a reload meanwhile does not change a running run;
        without its number questions when the run takes no typed answers (`played`)."""
        quiz = self.catalog.quiz_at(run.quiz_id, run.version)
        return None if quiz is None else played(quiz, run.typed, run.flashcards)

    # -- starting -----------------------------------------------------------------------------

    async def pick_quiz(self, chat_id: int, which: str) -> Quiz | None:
        """A quiz id (the group's own quizzes first), or 'next' (catalogue order, no repeat
        until all were played) or 'random'."""
        own = self.own_quizzes(chat_id).get(which)
        if own is not None:
            return own
        order = [quiz.id for quiz in self.catalog]
        if which == "random":
            return self.catalog.quiz(self.rng.choice(order)) if order else None
        if which == "next":
            chosen = next_quiz(order, await self.store.played_quizzes(chat_id))
            return self.catalog.quiz(chosen) if chosen else None
        return self.catalog.quiz(which)

    async def start(
        self, chat_id: int, user_id: int | None, which: str, thread_id: int = 0
    ) -> Started | Busy | UnknownQuiz | NothingToAsk:
        """A new run of quiz `which` (an id, 'next' or 'random') in the group's topic
        `thread_id` (0: none), one at a time per topic; its number questions are asked only
        when the group takes typed answers (fixed for the run)."""
        found = await self.pick_quiz(chat_id, which)
        if found is None:
            known = [quiz.id for quiz in self.catalog] + list(self.own_quizzes(chat_id))
            return UnknownQuiz(closest_quiz(which, known))
        settings = await self.settings.settings(chat_id)
        typed = settings.typed_answers
        quiz = played(found, typed, settings.flashcards)
        if not quiz.questions:
            return NothingToAsk()
        orders = option_orders(quiz, self.rng, settings.shuffle)
        seconds = self.seconds_override or float(settings.seconds)
        run_id = await self.store.start_run(
            chat_id,
            user_id,
            quiz.id,
            encode_orders(orders),
            seconds,
            self.clock(),
            quiz.version,
            typed=typed,
            thread_id=thread_id,
            flashcards=settings.flashcards,
        )
        if run_id is None:
            return Busy()
        run = GroupRun(
            run_id,
            chat_id,
            quiz.id,
            orders,
            seconds,
            version=quiz.version,
            typed=typed,
            thread_id=thread_id,
            flashcards=settings.flashcards,
        )
        self.kept.keep(run)
        return Started(run, quiz)

    async def active_run(self, chat_id: int, thread_id: int = 0) -> GroupRun | None:
        """The run playing in the group's topic `thread_id` (0: General, or no topics)."""
        return next((r for r in await self.active_runs(chat_id) if r.thread_id == thread_id), None)

    async def active_runs(self, chat_id: int) -> list[GroupRun]:
        """Every run playing in the group, one per topic."""
        return await self.kept.in_chat(chat_id)

    async def playing_elsewhere(self, chat_id: int, thread_id: int) -> list[int]:
        """The topics (0: General) of the group's runs other than topic `thread_id`'s, in
        order: where a /stop that found nothing to stop here would have one."""
        runs = await self.kept.in_chat(chat_id)
        return sorted({run.thread_id for run in runs if run.thread_id != thread_id})

    # -- a question ---------------------------------------------------------------------------

    async def open_question(self, run: GroupRun, index: int) -> GroupRun | None:
        """Question `index` takes answers from now until its deadline (persisted before sending).
        None if its send was already released (by a worker that died, or is still sending it):
        a question is sent at most once."""
        now = self.clock()
        deadline = now + run.seconds
        if not await self.store.open_question(run.id, index, now, deadline):
            return None
        run = replace(
            run,
            current=index,
            is_open=True,
            message_id=None,
            sent_at=now,
            deadline=deadline,
            released=False,
        )
        self.kept.keep(run)
        self._sent[run.id] = asyncio.Event()
        return run

    async def question_released(self, run: GroupRun) -> bool:
        """The open question's send is about to leave: recorded durably before it goes, so that
        a worker dying from here on leaves a question that is never sent again. False if this
        opening was superseded (another worker took the run over): the send must not leave."""
        assert run.sent_at is not None  # set by open_question
        if not await self.store.question_released(run.id, run.current, run.sent_at, self.clock()):
            return False
        self.kept.update(replace(run, released=True))
        return True

    async def question_sent(self, run: GroupRun, message_id: int) -> None:
        await self.store.question_sent(run.id, run.current, message_id)
        self.kept.update(replace(run, message_id=message_id))
        sent = self._sent.pop(run.id, None)
        if sent is not None:
            sent.set()

    async def sent_run(self, run: GroupRun, wait: float = 5.0) -> GroupRun:
        """The run once its open question's message id is recorded: a member can reply to the
        message before the answer to sendMessage reached us (a reply names the message)."""
        sent = self._sent.get(run.id)
        if run.message_id is not None or sent is None:
            return run
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(sent.wait(), wait)
        return await self.kept.run(run.id) or run

    async def tapped(self, run_id: int) -> tuple[GroupRun, Quiz] | None:
        """The run a member's tap names and the quiz it plays (read from the store when several
        workers share it); None when there is no such run or its content is gone."""
        return self._playable(await self.kept.tapped(run_id))

    def _playable(self, run: GroupRun | None) -> tuple[GroupRun, Quiz] | None:
        quiz = self.quiz_of(run) if run else None
        return None if run is None or quiz is None else (run, quiz)

    async def tap_run(self, chat_id: int, run_id: int, index: int) -> tuple[GroupRun, Quiz] | None:
        """`tapped`, for a member's tap (bot/usecases/group_answers.py): with several workers
        from a copy that shows question `index` open in chat `chat_id` (safe:
        bot/usecases/kept_runs.py), else read and copied."""
        return await self.kept.tap_run(run_id, index, chat_id, self._playable)

    async def live(self, run_id: int, index: int) -> Live | None:
        """Question `index` while it is open, with its answers so far (one indexed read);
        None once it is revealed, stopped or the run ended: nothing to refresh any more."""
        run = await self.kept.run(run_id)
        quiz = self.quiz_of(run) if run else None
        if run is None or quiz is None or not run.is_open or run.current != index:
            return None
        answered = len(await self.store.chosen_options(run_id, index))
        deadline = run.deadline if run.deadline is not None else self.clock() + run.seconds
        return Live(run, quiz, answered, max(0, math.ceil(deadline - self.clock())))

    async def time_up(self, run_id: int, index: int) -> TimeUp | None:
        """Question `index`'s time ran out: close and count it, then the next one or the end.
        None when it was already revealed, or the run stopped meanwhile."""
        reveal = await self._close(run_id, index)
        if reveal is None:
            return None
        if reveal.is_last:
            return TimeUp(reveal, None, await self.finish(run_id))
        shown_only = reveal.quiz.questions[index].flashcard  # nobody answers a flashcard
        if (
            reveal.answers == 0
            and not shown_only
            and await self._silent(run_id, index, reveal.quiz) >= UNANSWERED_LIMIT
        ):
            return TimeUp(reveal, None, await self.finish(run_id, stopped=True), unattended=True)
        return TimeUp(reveal, index + 1, None)

    async def _silent(self, run_id: int, index: int, quiz: Quiz) -> int:
        """Questions in a row up to the unanswered `index` that nobody answered, read from the
        store: whichever worker fires a run's timers, or a restarted bot, counts the same.
        Flashcards in between are passed over: nobody answers them."""
        silent, earlier = 1, index - 1
        while silent < UNANSWERED_LIMIT and earlier >= 0:
            if not quiz.questions[earlier].flashcard:
                if await self.store.chosen_options(run_id, earlier):
                    break
                silent += 1
            earlier -= 1
        return silent

    async def stop(self, run_id: int) -> Stopped:
        """/stop: reveal the open question, then the results so far."""
        current = await self.kept.run(run_id)
        reveal = None
        if current is not None and current.is_open:
            reveal = await self._close(run_id, current.current)
        return Stopped(reveal, await self.finish(run_id, stopped=True))

    async def finish(self, run_id: int, *, stopped: bool = False) -> RunResults | None:
        """End the run (once) and rank its players; None if it had already ended."""
        run = await self.kept.run(run_id)
        quiz = self.quiz_of(run) if run else None
        self.kept.forget(run_id)
        self._sent.pop(run_id, None)
        status = "abandoned" if stopped else "finished"
        if run is None or quiz is None:
            return None
        if not await self.store.finish_run(run_id, status, self.clock()):
            return None
        standings = await self.store.standings(run_id)
        scored = None
        if self.standings is not None:  # the run's points join the group's lasting standings
            scored = await self.standings.score_run(run_id, run.chat_id, run.seconds)
        return RunResults(run, quiz, leaderboard(standings), len(standings), scored)

    async def _close(self, run_id: int, index: int) -> Reveal | None:
        run = await self.kept.run(run_id)
        quiz = self.quiz_of(run) if run else None
        if run is None or quiz is None:
            return None
        answers = await self.store.close_and_count(run_id, index)  # one transaction: no stale read
        if answers is None:
            return None
        run = replace(run, is_open=False)
        self.kept.keep(run)
        question = quiz.questions[index]
        chosen = [option for option, _ in answers]
        if question.typed:  # how many were right, how many not
            counts = [chosen.count(NUMBER_RIGHT), chosen.count(NUMBER_WRONG)]
        elif question.kind is QuestionKind.MULTIPLE:  # how many selected each option
            ids = {option.id: i for i, option in enumerate(question.options)}
            picked = [ids[oid] for _, joined in answers for oid in (joined or "").split(",")
                      if oid in ids]  # fmt: skip
            counts = option_counts(run.orders[index], picked)
        else:
            counts = option_counts(run.orders[index], chosen)
        return Reveal(run, quiz, index, counts, index + 1 >= len(quiz), len(answers))

    # -- restarts and the group itself --------------------------------------------------------

    async def resume_plan(self) -> list[Resume]:
        """Every run the store says is active, with what it needs next; runs whose quiz is gone
        or changed shape are closed."""
        now, plan = self.clock(), []
        for run in await self.store.active_runs():
            quiz = self.quiz_of(run)
            if quiz is None or len(run.orders) != len(quiz):
                await self.store.finish_run(run.id, "abandoned", self.clock())
                continue
            self.kept.keep(run)
            step, index = resume_step(run, quiz, now)
            delay = max(0.0, (run.deadline or now) - now) if step is Step.WAIT else 0.0
            plan.append(Resume(run, step, index, delay))
        return plan

    async def plan_for(self, run_id: int) -> Resume | None:
        """What one active run needs next (a durable timer fired for it); None if it ended."""
        run = await self.kept.run(run_id)
        quiz = self.quiz_of(run) if run else None
        if run is None or quiz is None:
            return None
        now = self.clock()
        step, index = resume_step(run, quiz, now)
        delay = max(0.0, (run.deadline or now) - now) if step is Step.WAIT else 0.0
        return Resume(run, step, index, delay)

    def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: its run stops silently (the store abandons it)."""
        self.kept.forget_chat(chat_id)

    async def moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its live run follows it (after the store moved it)."""
        await self.kept.moved(old_id, new_id)
