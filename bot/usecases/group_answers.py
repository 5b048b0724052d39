"""Every kind of member answer in a group run: a tap on a single-choice, true/false or
flashcard button, a select-all question's toggles and Submit, a typed number replied to the
open question. Each is judged, stored (the store's key makes it the member's only one to that
question) and only then returned as a typed outcome; the run's life (start, deadline, stop,
resume) is `bot/usecases/group_runs.py`.

A run takes answers only from its own chat (callback data can be forged, and otherwise anyone
could play another group's run from theirs) and only on its open question. Whoever sees the
question in that chat may answer (membership is not checked: a Bot API call per tap). Popups
speak the member's language, else the group's.

A select-all selection is the member's alone until the reveal: it is kept in the store per run,
question and member (bot/store/selections.py), the shared question message never changes with
it, and each toggle's popup tells only the tapper what they have selected.

Only a reply to the open number question's own message counts as a typed answer (the run's
`message_id`, kept by the store); nothing else a member says in the group is an answer, but a
number sent without that reply while a number question is open (`NeedsReply`) earns its sender
a hint on how to answer, since they meant it as one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.core.answers import selected_ids, units
from bot.core.clock import Clock
from bot.core.engine import Judgement, SetJudgement, Verdict, judge_number, judge_selection
from bot.core.group_run import GroupRun, elapsed_ms, judge_tap
from bot.core.kinds import QuestionKind, ambiguous_number, parse_number
from bot.core.models import Question, Quiz
from bot.store import Stored
from bot.store.selections import SelectionStore
from bot.usecases.group_runs import GroupRuns
from bot.usecases.learner_profile import Learner
from bot.usecases.outcomes import AlreadyAnswered, Closed, NothingSelected, NotYours

# -- outcomes ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answered:
    """A tap stored: the member may now see the verdict and the explanation, in `lang`."""

    lang: str
    quiz: Quiz
    judgement: Judgement


TapOutcome = Answered | AlreadyAnswered | NotYours | Closed


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


@dataclass(frozen=True, slots=True)
class Counted:
    """Stored: the member's first readable reply to the open number question."""

    lang: str
    quiz: Quiz
    judgement: Judgement


@dataclass(frozen=True, slots=True)
class AlreadyCounted:
    """The member's first reply was counted already: this one changes nothing."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A reply to the open number question that is no number: not counted, they may retry."""

    lang: str
    question: Question
    run_id: int
    index: int
    ambiguous: str = ""  # the reply, when it is "1,000": thousands or decimals? (its own hint)


@dataclass(frozen=True, slots=True)
class NeedsReply:
    """A number sent while a number question is open, but not as a reply to it: not counted;
    the member is told how to answer (once: the hint is claimed per member and question)."""

    run_id: int
    index: int


@dataclass(frozen=True, slots=True)
class NotAnAnswer:
    """Not a reply to an open number question of this chat's run: ordinary chat."""


GroupTypedOutcome = Counted | AlreadyCounted | Unreadable | NotAnAnswer


def looks_numeric(text: str) -> bool:
    """Whether a message reads as a number (either decimal mark, "1,000" too, a word after it):
    only such a message is worth a look for an open number question (a store read with
    several workers): ordinary chat is not."""
    head = text.strip().split(" ", 1)[0] if text.strip() else ""
    return parse_number(head, ",") is not None or ambiguous_number(head, ",")


class GroupAnswers:
    def __init__(
        self, runs: GroupRuns, selections: SelectionStore, *, clock: Clock = time.time
    ) -> None:
        self.runs = runs
        self.selections = selections
        self.clock = clock

    async def record(
        self,
        run: GroupRun,
        quiz: Quiz,
        index: int,
        member: Learner,
        judgement: Judgement | SetJudgement,
        lang: str,
        *,
        typed: tuple[str, float] | None = None,
        selected_ids: str | None = None,
    ) -> Stored:
        """Store a member's judged answer to question `index` of `run`, whatever its kind (a
        tap, a typed value, a submitted selection): its ids, the run's version and the time it
        took; the store's key makes it the member's only one."""
        now, question = self.runs.clock(), quiz.questions[index]
        return await self.runs.store.record_answer(
            run.id,
            index,
            member.user_id,
            member.first_name,
            member.telegram_language,
            judgement.option_index,
            judgement.is_correct,
            lang,
            now,
            elapsed_ms(run.sent_at, now),
            question_id=question.id,
            option_id="" if typed else question.options[judgement.option_index].id,
            version=run.version,
            typed=typed,
            selected_ids=selected_ids,
            score=judgement.score.fraction if isinstance(judgement, SetJudgement) else None,
        )

    # -- a tap (single choice, true/false, flashcard) -----------------------------------------

    async def tap(
        self, chat_id: int, run_id: int, index: int, position: int, member: Learner, group_lang: str
    ) -> TapOutcome:
        """Judge and store a member's tap from chat `chat_id`; `Answered` only once durable."""
        lang = member.language_in(group_lang)
        found = await self.runs.tap_run(chat_id, run_id, index)
        if found is None:
            return Closed(lang)
        run, quiz = found
        if run.chat_id != chat_id:
            return NotYours(lang)
        verdict, judgement = judge_tap(run, quiz, index, position)
        if verdict is not Verdict.ACCEPTED or judgement is None:
            return Closed(lang)
        stored = await self.record(run, quiz, index, member, judgement, lang)
        if stored is Stored.DUPLICATE:
            return AlreadyAnswered(lang)
        if stored is Stored.CLOSED:
            return Closed(lang)
        return Answered(lang, quiz, judgement)

    # -- a select-all question: toggles, then Submit ------------------------------------------

    async def _open_multiple(
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
        found = await self._open_multiple(chat_id, run_id, index, lang)
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
            if await self._answered(run_id, index, member.user_id):
                return AlreadyAnswered(lang)
            return Closed(lang)
        return Toggled(lang, order, selected)

    async def submit(
        self, chat_id: int, run_id: int, index: int, member: Learner, group_lang: str
    ) -> SubmitOutcome:
        """Score the member's selection and store it as their answer; durable before
        `Submitted`."""
        lang = member.language_in(group_lang)
        found = await self._open_multiple(chat_id, run_id, index, lang)
        if not isinstance(found, tuple):
            return found
        run, quiz = found
        selected = await self.selections.selected(run_id, index, member.user_id)
        judgement = judge_selection(quiz.questions[index], index, selected)
        if judgement is None:
            if await self._answered(run_id, index, member.user_id):
                return AlreadyAnswered(lang)
            return NothingSelected(lang)
        ids = selected_ids(quiz, index, selected)
        stored = await self.record(run, quiz, index, member, judgement, lang, selected_ids=ids)
        if stored is Stored.DUPLICATE:
            return AlreadyAnswered(lang)
        if stored is Stored.CLOSED:
            return Closed(lang)
        return Submitted(lang, quiz, run.orders[index], judgement)

    async def _answered(self, run_id: int, index: int, user_id: int) -> bool:
        return await self.runs.store.has_answered(run_id, index, user_id)

    # -- a typed number -----------------------------------------------------------------------

    async def typed(
        self,
        chat_id: int,
        reply_to: int,
        text: str,
        member: Learner,
        group_lang: str,
        separator: str,
    ) -> GroupTypedOutcome:
        """Judge and store a member's reply to message `reply_to` of chat `chat_id` (the open
        question of whichever of the group's runs asked it: one per forum topic)."""
        runs, run = self.runs, None
        for playing in await runs.active_runs(chat_id):
            if playing.is_open and playing.message_id is None:
                playing = await runs.sent_run(playing)
            if playing.is_open and playing.message_id == reply_to:
                run = playing
        if run is None:
            return NotAnAnswer()
        quiz = self._asking_number(run)
        if quiz is None:
            return NotAnAnswer()
        lang = member.language_in(group_lang)
        index, question = run.current, quiz.questions[run.current]
        typed = text.strip()
        value = parse_number(typed, separator, units(question, lang))
        if value is None:
            doubt = typed if ambiguous_number(typed, separator, units(question, lang)) else ""
            return Unreadable(lang, question, run.id, index, doubt)
        judgement = judge_number(question, index, value)
        if judgement is None:
            return NotAnAnswer()
        stored = await self.record(run, quiz, index, member, judgement, lang, typed=(typed, value))
        if stored is Stored.DUPLICATE:
            return AlreadyCounted()
        if stored is Stored.CLOSED:
            return NotAnAnswer()
        return Counted(lang, quiz, judgement)

    async def sent_without_reply(
        self, chat_id: int, thread_id: int, text: str
    ) -> NeedsReply | NotAnAnswer:
        """A member's message that is no reply to the open question: a number meant for the
        open number question of the run playing in its topic, or ordinary chat."""
        if not looks_numeric(text):
            return NotAnAnswer()
        for run in await self.runs.active_runs(chat_id):
            if run.thread_id != thread_id or not run.is_open:
                continue
            if self._asking_number(run) is not None:
                return NeedsReply(run.id, run.current)
        return NotAnAnswer()

    def _asking_number(self, run: GroupRun) -> Quiz | None:
        """The run's quiz when its current question is a number question, else None."""
        quiz = self.runs.quiz_of(run)
        if quiz is None or not 0 <= run.current < len(quiz):
            return None
        return quiz if quiz.questions[run.current].typed else None
