"""What a group run's steps answer (bot/usecases/group_runs.py, which names them too): a start
(`Started`, `Busy`, `UnknownQuiz` with the closest id, `NothingToAsk`), a question's reveal and
live count, time running out (`TimeUp`), /stop, the results, and what a restart resumes.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from bot.core.engine import Standing
from bot.core.group_run import GroupRun, Step
from bot.core.models import Quiz
from bot.usecases.group_standings import RunStanding


@dataclass(frozen=True, slots=True)
class Started:
    run: GroupRun
    quiz: Quiz


@dataclass(frozen=True, slots=True)
class Busy:
    """The group already has a run: one at a time."""


@dataclass(frozen=True, slots=True)
class NothingToAsk:
    """Every question of the quiz needs a typed answer, and the group takes none."""


@dataclass(frozen=True, slots=True)
class UnknownQuiz:
    suggestion: str | None = None  # the closest quiz id, for "did you mean ...?"


@dataclass(frozen=True, slots=True)
class Reveal:
    run: GroupRun
    quiz: Quiz
    index: int
    counts: list[int]  # per displayed position; a number question's: [right, wrong]
    is_last: bool
    answers: int = 0  # members who answered (a select-all answer counts several options)


@dataclass(frozen=True, slots=True)
class Live:
    """An open question as its live line shows it: answers so far and whole seconds left."""

    run: GroupRun
    quiz: Quiz
    answered: int
    seconds_left: int


@dataclass(frozen=True, slots=True)
class RunResults:
    run: GroupRun
    quiz: Quiz
    top: list[Standing]
    players: int
    standing: RunStanding | None = None  # points, podium and weekly climbers (lasting standings)


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A question's time ran out: reveal it, then ask `next_index`, or post `results`.

    `unattended` is set when the run ended early because nobody answered the last
    `group_runs.UNANSWERED_LIMIT` questions: the group has gone, and a quiz should not talk to
    an empty room.
    """

    reveal: Reveal
    next_index: int | None
    results: RunResults | None
    unattended: bool = False


@dataclass(frozen=True, slots=True)
class Stopped:
    reveal: Reveal | None  # the question that was open, if any
    results: RunResults | None  # None if the run had already ended meanwhile


@dataclass(frozen=True, slots=True)
class Resume:
    """What a run found active at start-up needs: `step` for question `index`, after `delay`."""

    run: GroupRun
    step: Step
    index: int
    delay: float


def closest_quiz(typed: str, ids: list[str]) -> str | None:
    """The quiz id an admin probably meant ('gradient-acumulation', 'Gradient-Accumulation')."""
    by_fold = {quiz_id.casefold(): quiz_id for quiz_id in ids}
    wanted = typed.strip().casefold()
    if wanted in by_fold:
        return by_fold[wanted]
    close = difflib.get_close_matches(wanted, list(by_fold), n=1, cutoff=0.6)
    if close:
        return by_fold[close[0]]
    starts = [
        quiz_id for folded, quiz_id in by_fold.items() if wanted and folded.startswith(wanted)
    ]
    return starts[0] if len(starts) == 1 else None
