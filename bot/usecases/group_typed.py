"""A member's typed reply in a group run: the answer to the open number question, or nothing.

Only a reply to the open question's own message counts (the run's `message_id`, kept by the
store), from the chat the run plays in; a member's first readable reply is stored, and the
store's key (run, question, member) makes it the only one. Nothing else a member says in the
group is an answer; but a number sent without that reply while a number question is open
(`NeedsReply`) earns its sender a hint on how to answer, since they meant it as one.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.answers import units
from bot.core.engine import Judgement, judge_number
from bot.core.kinds import ambiguous_number, parse_number
from bot.core.models import Question, Quiz
from bot.store import Stored
from bot.usecases.group_runs import GroupRuns
from bot.usecases.learner_profile import Learner


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


async def sent_without_reply(
    runs: GroupRuns, chat_id: int, thread_id: int, text: str
) -> NeedsReply | NotAnAnswer:
    """A member's message that is no reply to the open question: a number meant for the open
    number question of the run playing in its topic, or ordinary chat."""
    if not looks_numeric(text):
        return NotAnAnswer()
    for run in await runs.active_runs(chat_id):
        if run.thread_id != thread_id or not run.is_open:
            continue
        quiz = runs.quiz_of(run)
        if quiz is not None and 0 <= run.current < len(quiz) and quiz.questions[run.current].typed:
            return NeedsReply(run.id, run.current)
    return NotAnAnswer()


async def answer_typed(
    runs: GroupRuns,
    chat_id: int,
    reply_to: int,
    text: str,
    member: Learner,
    group_lang: str,
    separator: str,
) -> GroupTypedOutcome:
    """Judge and store a member's reply to message `reply_to` of chat `chat_id` (the open
    question of whichever of the group's runs asked it: one per forum topic)."""
    run = None
    for playing in await runs.active_runs(chat_id):
        if playing.is_open and playing.message_id is None:
            playing = await runs.sent_run(playing)
        if playing.is_open and playing.message_id == reply_to:
            run = playing
    if run is None:
        return NotAnAnswer()
    quiz = runs.quiz_of(run)
    if quiz is None or not 0 <= run.current < len(quiz) or not quiz.questions[run.current].typed:
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
    stored = await runs.record(run, quiz, index, member, judgement, lang, typed=(typed, value))
    if stored is Stored.DUPLICATE:
        return AlreadyCounted()
    if stored is Stored.CLOSED:
        return NotAnAnswer()
    return Counted(lang, quiz, judgement)
