"""The order of a group run's steps, whatever adapter sends them and whichever timers it has.

A run's start (`start`): its watchdog, its intro, its first question. A /stop (`stop`): its
timer cancelled, the open question revealed, the results so far. A question's deadline
(`time_up`): reveal it, then ask the next one or post the results (early, with a word, when
nobody answered the last questions). A durable timer's firing or a restart (`resume`): the step
the store says comes next. Asking a question (`ask`) is a protocol across the store,
the timers and the wire, and its order is what keeps a question sent once across workers
(bot/core/group_run.py `resume_step`):
1. the run's watchdog is armed before anything else (durable timers only: if this worker dies
   from here to the question's own timer, another resumes the run);
2. the question is opened in the store; if its send was released already (another worker, or
   one that died), it is never sent again: only its timer is set, from what the store says;
3. the send is released in the store just before the request leaves; if another worker opened
   the question meanwhile, this send stops (`Superseded`): still one copy of the question;
4. the sent message is recorded, then the question's deadline armed, then its live count begun.

The adapter does what this use case cannot: it renders and sends (`RunPort`), and holds the run's
lock around each step. A forum topic that refuses a send propagates as the adapter's own
exception, for the adapter to end the run.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.core.group_run import GroupRun, Step
from bot.core.models import Quiz
from bot.usecases.group_runs import GroupRuns, Resume, Reveal, RunResults

log = logging.getLogger(__name__)

Release = Callable[[], Awaitable[bool]]  # True: the send may leave; False: another opened it


@dataclass(frozen=True)
class Sent:
    """The question is in the group, in message `message_id`."""

    message_id: int


@dataclass(frozen=True)
class Superseded:
    """The send stopped before it left: another worker opened the question again."""


@dataclass(frozen=True)
class NotSent:
    """The platform refused the send (`reason`): the run goes on, revealed on time."""

    reason: str


@dataclass(frozen=True)
class Removed:
    """The bot is no longer in the group: the adapter ended what ran there."""


Asked = Sent | Superseded | NotSent | Removed


class RunPort(Protocol):
    """What a group run's steps need of the adapter: sending, and the run's timers."""

    async def guard(self, run_id: int, index: int) -> None:
        """Arm the run's watchdog before a step (nothing where timers die with the process)."""

    async def arm(self, run_id: int, index: int, delay: float) -> None:
        """Arm question `index`'s timer `delay` seconds from now."""

    async def cancel(self, run_id: int) -> None:
        """Cancel the run's timer."""

    async def send_intro(self, run: GroupRun, quiz: Quiz) -> bool:
        """Send the run's intro; False if the bot is no longer in the group."""

    async def send_question(self, run: GroupRun, quiz: Quiz, index: int, release: Release) -> Asked:
        """Send question `index`, awaiting `release` just before the request leaves."""

    def show_live(self, run: GroupRun, index: int) -> None:
        """Begin the open question's live count, where the timers allow it."""

    async def show_reveal(self, reveal: Reveal) -> None:
        """Show a closed question's answer and counts in place of the question."""

    async def show_unattended(self, run: GroupRun) -> None:
        """Say that the run ends because nobody answered its last questions."""

    async def show_results(self, results: RunResults | None, *, stopped: bool) -> None:
        """Post the run's results (none: it had ended already), then its after-run hooks."""


class GroupRunSteps:
    """A run's steps in their order (the module's docstring), on the adapter's `RunPort`."""

    def __init__(self, runs: GroupRuns, port: RunPort) -> None:
        self.runs, self.port = runs, port

    async def start(self, run: GroupRun, quiz: Quiz) -> None:
        """A run just started: its watchdog, its intro, then its first question (the caller
        holds the run's lock)."""
        await self.port.guard(run.id, 0)
        if await self.port.send_intro(run, quiz):
            await self.ask(run, 0)

    async def stop(self, run_id: int) -> None:
        """/stop: no more timer, the open question revealed, then the results so far (the
        caller holds the run's lock)."""
        await self.port.cancel(run_id)
        stopped = await self.runs.stop(run_id)
        if stopped.reveal is not None:
            await self.port.show_reveal(stopped.reveal)
        await self.port.show_results(stopped.results, stopped=True)

    async def ask(self, run: GroupRun, index: int) -> None:
        """Ask question `index` of `run` (the caller holds the run's lock)."""
        quiz = self.runs.quiz_of(run)
        if quiz is None:
            return
        await self.port.guard(run.id, index)
        opened = await self.runs.open_question(run, index)
        if opened is None:
            log.info("question %s of run %s was sent already: not again", index, run.id)
            plan = await self.runs.plan_for(run.id)
            await self.port.arm(run.id, index, plan.delay if plan is not None else 0.0)
            return

        async def release() -> bool:
            return await self.runs.question_released(opened)

        match await self.port.send_question(opened, quiz, index, release):
            case Superseded():
                log.info("question %s of run %s is being asked by another worker", index, run.id)
            case NotSent(reason):
                # Keep the timer anyway: the question is revealed on time and the run goes on,
                # rather than staying open forever.
                log.warning("question %s of run %s not sent: %s", index, run.id, reason)
                await self.port.arm(opened.id, index, opened.seconds)
            case Removed():
                pass  # the run is over
            case Sent(message_id):
                await self.runs.question_sent(opened, message_id)
                await self.port.arm(opened.id, index, opened.seconds)
                self.port.show_live(opened, index)

    async def time_up(self, run_id: int, index: int) -> None:
        """Question `index`'s deadline: reveal it, then the next question or the results (the
        caller holds the run's lock). Nothing if it was revealed already or the run stopped."""
        up = await self.runs.time_up(run_id, index)
        if up is None:
            return
        await self.port.show_reveal(up.reveal)
        if up.unattended:
            await self.port.show_unattended(up.reveal.run)
            await self.port.show_results(up.results, stopped=True)
        elif up.results is not None:
            await self.port.show_results(up.results, stopped=False)
        elif up.next_index is not None:
            await self.ask(up.reveal.run, up.next_index)

    async def resume(self, run_id: int, plan: Resume | None = None) -> None:
        """Take a run to its next step from what the store says: a durable timer fired (at
        least once: a repeat finds nothing left to do), or a restart read `plan` already. The
        caller holds the run's lock."""
        if plan is None:
            plan = await self.runs.plan_for(run_id)
        if plan is None:
            return  # finished or stopped meanwhile
        if plan.step is Step.WAIT:
            await self.port.arm(run_id, plan.index, plan.delay)
        elif plan.step is Step.REVEAL:
            await self.time_up(run_id, plan.index)
        elif plan.step is Step.ASK:
            await self.ask(plan.run, plan.index)
        else:
            await self.port.show_results(await self.runs.finish(run_id), stopped=False)
