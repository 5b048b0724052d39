"""Select-all questions (kind: multiple) in a group run: each member toggles options, then
submits their own selection, which is their one answer to the question.

A member's selection is theirs alone until the reveal: it is kept in the store per run,
question and member (bot/store/selections.py), the shared question message never changes with
it, and each toggle's popup tells only the tapper what they have selected. As for a tap on a
single-answer question, the run takes toggles and submissions only from its own chat and only
on its open question; the submission is scored (bot/core/kinds.py) and stored before the popup.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.answers import selected_ids
from bot.core.clock import Clock
from bot.core.engine import SetJudgement, judge_selection
from bot.core.group_run import GroupRun
from bot.core.kinds import QuestionKind
from bot.core.models import Quiz
from bot.store import Stored
from bot.store.selections import SelectionStore
from bot.usecases.group_runs import GroupRuns
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import AlreadyAnswered, Closed, NothingSelected, NotYours


@dataclass(frozen=True, slots=True)
class Toggled:
    """The member's selection after the tap (option indexes, and the display order)."""

    lang: str
    order: tuple[int, ...]
    selected: frozenset[int]


@dataclass(frozen=True, slots=True)
class Submitted:
    """Stored: the member may now learn their selection was recorded (or its verdict)."""

    lang: str
    quiz: Quiz
    order: tuple[int, ...]
    judgement: SetJudgement


ToggleOutcome = Toggled | AlreadyAnswered | NotYours | Closed
SubmitOutcome = Submitted | NothingSelected | AlreadyAnswered | NotYours | Closed


class GroupSelections:
    def __init__(
        self, runs: GroupRuns, selections: SelectionStore, *, clock: Clock = time.time
    ) -> None:
        self.runs = runs
        self.selections = selections
        self.clock = clock

    async def _open(
        self, chat_id: int, run_id: int, index: int, lang: str
    ) -> tuple[GroupRun, Quiz] | NotYours | Closed:
        found = await self.runs.tapped(run_id)
        if found is None:
            return Closed(lang)
        run, quiz = found
        if run.chat_id != chat_id:
            return NotYours(lang)
        if not run.is_open or index != run.current or not 0 <= index < len(quiz):
            return Closed(lang)
        if quiz.questions[index].kind is not QuestionKind.MULTIPLE:
            return Closed(lang)
        return run, quiz

    async def toggle(
        self, chat_id: int, run_id: int, index: int, position: int, member: Learner, group_lang: str
    ) -> ToggleOutcome:
        """Flip the option at `position` in the member's own selection (not an answer)."""
        lang = member.language_in(group_lang)
        found = await self._open(chat_id, run_id, index, lang)
        if not isinstance(found, tuple):
            return found
        run, _ = found
        order = run.orders[index]
        if not 0 <= position < len(order):
            return Closed(lang)
        selected = await self.selections.toggle(
            run_id, index, member.user_id, order[position], self.clock(), group=True
        )
        if selected is None:  # submitted already, or the question closed meanwhile
            return await self._why_not(run_id, index, member.user_id, lang)
        return Toggled(lang, order, selected)

    async def submit(
        self, chat_id: int, run_id: int, index: int, member: Learner, group_lang: str
    ) -> SubmitOutcome:
        """Score the member's selection and store it as their answer; durable before
        `Submitted`."""
        lang = member.language_in(group_lang)
        found = await self._open(chat_id, run_id, index, lang)
        if not isinstance(found, tuple):
            return found
        run, quiz = found
        selected = await self.selections.selected(run_id, index, member.user_id)
        judgement = judge_selection(quiz.questions[index], index, selected)
        if judgement is None:
            if await self._answered(run_id, index, member.user_id):
                return AlreadyAnswered(lang)
            return NothingSelected(lang)
        stored = await self.runs.record(
            run,
            quiz,
            index,
            member,
            judgement,
            lang,
            selected_ids=selected_ids(quiz, index, selected),
        )
        if stored is Stored.DUPLICATE:
            return AlreadyAnswered(lang)
        if stored is Stored.CLOSED:
            return Closed(lang)
        return Submitted(lang, quiz, run.orders[index], judgement)

    async def _answered(self, run_id: int, index: int, user_id: int) -> bool:
        return await self.runs.store.has_answered(run_id, index, user_id)

    async def _why_not(self, run_id: int, index: int, user_id: int, lang: str) -> ToggleOutcome:
        if await self._answered(run_id, index, user_id):
            return AlreadyAnswered(lang)
        return Closed(lang)
