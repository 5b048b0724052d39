"""The rules of a group run: which taps count, what a restart must do, and popup text that fits.

A group run shows one question at a time to a whole chat. Only the question currently open takes
answers; the store enforces one answer per member per question. Everything here is pure so the
adapter and the service only move values around.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from bot.core.engine import Judgement, OptionOrders, Verdict, judge
from bot.core.limits import POPUP_MAX_CHARS
from bot.core.models import Question, Quiz


@dataclass(frozen=True, slots=True)
class GroupRun:
    """A quiz played by a whole group; `current` is -1 before the first question is asked."""

    id: int
    chat_id: int
    quiz_id: str
    orders: OptionOrders
    seconds: float
    current: int = -1
    is_open: bool = False
    message_id: int | None = None
    sent_at: float | None = None
    deadline: float | None = None
    version: str = ""  # the quiz's content version when the run started
    typed: bool = False  # number questions asked (typed answers on at its start), else left out
    flashcards: bool = False  # flashcards shown (on at its start), else left out
    # The open question's send was released to Telegram (its message id may not be recorded:
    # the worker died in between). Never sent again: see `resume_step`.
    released: bool = False
    # The forum topic it plays in (every one of its sends carries it); 0: none (General, or a
    # group without topics).
    thread_id: int = 0


def played(quiz: Quiz, typed: bool, flashcards: bool = False) -> Quiz:
    """The quiz as a group run plays it: without its number questions unless the group takes
    typed answers, and without its flashcards unless the group shows them (a flashcard is one
    learner's recall: private quizzes and /review rate it; a group sees its front, then its
    back, and nobody is scored). A run's question indexes, counts ("3/9"), last question and
    scores are all over this quiz, so a left-out question is never asked, revealed or
    counted."""

    def asked(question: Question) -> bool:
        if question.flashcard:
            return flashcards
        return typed or not question.typed

    if all(asked(q) for q in quiz.questions):
        return quiz
    return replace(quiz, questions=tuple(q for q in quiz.questions if asked(q)))


def judge_tap(
    run: GroupRun, quiz: Quiz, question_index: int, position: int
) -> tuple[Verdict, Judgement | None]:
    """Whether a tap may be recorded: only on the open question, only on a real button."""
    if not run.is_open or question_index != run.current or not 0 <= question_index < len(quiz):
        return Verdict.CLOSED, None
    if quiz.questions[question_index].flashcard:  # no buttons in a group: nobody answers it
        return Verdict.INVALID, None
    judgement = judge(
        quiz.questions[question_index], run.orders[question_index], question_index, position
    )
    if judgement is None:
        return Verdict.INVALID, None
    return Verdict.ACCEPTED, judgement


def elapsed_ms(sent_at: float | None, now: float) -> int:
    """Milliseconds from the question being sent to the tap (never negative)."""
    if sent_at is None:
        return 0
    return max(0, round((now - sent_at) * 1000))


class Step(StrEnum):
    ASK = "ask"  # send question `index` (again if its send was never released)
    WAIT = "wait"  # the open question still has time: set its timer again
    REVEAL = "reveal"  # its time is up: reveal it, then go on
    FINISH = "finish"  # every question was revealed: post the leaderboard


def resume_step(run: GroupRun, quiz: Quiz, now: float) -> tuple[Step, int]:
    """What a run found active at start-up (or by another worker) needs next, and for which
    question.

    An open question without a message id is sent only if its send was never released: then
    nothing reached the chat. Released but not recorded (the worker died while Telegram was
    answering, or before it wrote the id), the question is most likely in the chat, and sending
    it again would show it twice: it is taken as asked (at most once). Its buttons work without
    the id (a tap names the run and the question, not the message); its reveal, which repeats
    the question with the right answer, comes as a new message instead of an edit. At worst,
    had the send died on the way, the group sees that reveal without having seen the question.
    """
    if run.current < 0:
        return Step.ASK, 0
    if run.is_open:
        if run.message_id is None and not run.released:
            return Step.ASK, run.current
        if run.deadline is not None and run.deadline > now:
            return Step.WAIT, run.current
        return Step.REVEAL, run.current
    if run.current + 1 < len(quiz):
        return Step.ASK, run.current + 1
    return Step.FINISH, run.current


def fit_popup(head: str, body: str, limit: int = POPUP_MAX_CHARS) -> str:
    """`head` then as much of `body` as fits, cut after a sentence, else a word, never mid-word."""
    text = f"{head}\n{body}" if body else head
    if len(text) <= limit:
        return text
    room = limit - len(head) - 1
    if room < 10:
        return head[:limit]
    cut = body[:room]
    sentence_end = max(cut.rfind(mark) for mark in (". ", "! ", "? ", ".\n"))
    if sentence_end >= room // 2:
        return f"{head}\n{cut[: sentence_end + 1]}"
    space = cut[: room - 1].rfind(" ")
    if space <= 0:
        return f"{head}\n{cut[: room - 1]}…"
    return f"{head}\n{cut[:space].rstrip(' ,;:')}…"
