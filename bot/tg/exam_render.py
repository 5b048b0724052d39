"""What exam mode looks like: picking a quiz and a clock, the time left on each question, and
the results with every explanation at the end (none before).

Results can outgrow one message (a long quiz with long explanations), so they come as a list of
messages, each under Telegram's limit and never cut inside a question.
"""

from __future__ import annotations

import html

from telegram import InlineKeyboardMarkup

from bot.core.exam import PER_QUESTION_CHOICES, TOTAL_CHOICES, ExamClock
from bot.core.kinds import ONE_TAP
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import Catalog, Quiz
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.private_render import after_stop
from bot.tg.screen_render import LETTERS, Screen, button, guide_line, quiz_title, rich
from bot.tg.wire.html_fit import fit_html
from bot.usecases.practice_outcomes import ExamStopped, PracticeAnswered, PracticeQuestion

MARKS = {"r": "✅", "w": "❌", "t": "⏰"}


def picker(tr: Translator, catalog: Catalog, lang: str) -> Screen:
    text = "\n".join(
        [
            "<b>" + tr._("⏱ Exam") + "</b>",
            tr._(
                "A quiz against the clock: no explanation until the end, then every one. "
                "Which quiz?"
            ),
        ]
    )
    rows = [[button(quiz.title.get(lang), cb.ExamPick(quiz.id))] for quiz in catalog]
    return Screen(text, InlineKeyboardMarkup(rows))


def clock_choice(tr: Translator, quiz: Quiz, lang: str) -> Screen:
    heading = tr._("⏱ {title}: how much time?", title=html.escape(quiz_title(quiz, lang)))
    per_question = [
        button(tr._("{n} s per question", n=tr.number(seconds)), cb.ExamGo(quiz.id, "q", seconds))
        for seconds in PER_QUESTION_CHOICES
    ]
    total = [
        button(tr._("{n} min in all", n=tr.number(seconds // 60)), cb.ExamGo(quiz.id, "t", seconds))
        for seconds in TOTAL_CHOICES
    ]
    lines = [f"<b>{heading}</b>"]
    asked = sum(1 for q in quiz.questions if q.kind in ONE_TAP)  # as the exam draws them
    if 0 < asked < len(quiz.questions):  # say why "Exam 1/9" for an 11-question quiz
        lines.append(
            tr.ngettext(
                "The exam asks {asked} of the {total} questions: {n} question that needs typing "
                "or several answers is left out (the quiz asks it: /quizzes).",
                "The exam asks {asked} of the {total} questions: {n} questions that need typing "
                "or several answers are left out (the quiz asks them: /quizzes).",
                len(quiz.questions) - asked,
                asked=tr.number(asked),
                total=tr.number(len(quiz.questions)),
            )
        )
    return Screen("\n".join(lines), InlineKeyboardMarkup([per_question, total]))


def time_line(tr: Translator, asked: PracticeQuestion, now: float) -> str:
    exam = asked.exam
    if exam is None:
        return ""
    left = round(exam.left(now))
    if exam.clock is ExamClock.PER_QUESTION:
        return tr._("⏱ {n} s for this question", n=tr.number(left))
    minutes, seconds = divmod(left, 60)
    return tr._("⏱ {time} left in all", time=f"{minutes}:{seconds:02d}")


def answered(tr: Translator, outcome: PracticeAnswered) -> str:
    """The popup after an exam answer: no verdict yet."""
    if outcome.judgement is None:
        return tr._("⏰ Time was up: this one counts as missed.")
    return tr._("Answer saved: {letter}.", letter=LETTERS[outcome.judgement.position])


def stopped(tr: Translator, outcome: ExamStopped, quiz_waiting: bool = False) -> str:
    """/stop ended the exam; a quiz still running is not touched, and the learner learns how to
    end it too."""
    text = tr.ngettext(
        "⏹ Exam stopped after {k} of {n} question ({right} right).",
        "⏹ Exam stopped after {k} of {n} questions ({right} right).",
        outcome.total,
        k=tr.number(outcome.answered),
        right=tr.number(outcome.correct),
    )
    after = tr._("The ones you missed join your reviews. /exam to take another.")
    return after_stop(tr, f"{text} {after}", quiz_waiting)


def time_is_up(tr: Translator) -> str:
    """The popup for a tap on a question whose time ran out: not counted, nothing changed."""
    return tr._("⏰ Time is up for this question: it was counted as missed. Nothing changed.")


def question_timed_out(tr: Translator, outcome: PracticeAnswered) -> str:
    """Sent when a question's own time ran out without an answer; the next one follows."""
    return tr._(
        "⏰ Time is up for question {n}: it counts as missed.",
        n=tr.number(outcome.asked.index + 1),
    )


def exam_timed_out(tr: Translator) -> str:
    """Above the results when the clock ended the exam: why it ended without a tap."""
    return tr._("⏰ Time is up: every question not answered counts as missed.")


def results(
    tr: Translator, outcome: PracticeAnswered, lang: str, note: str | None = None
) -> list[str]:
    """The score, then every question with its mark and explanation, in messages that fit
    (`note` first: why the exam ended, when the clock ended it)."""
    quiz = outcome.asked.quiz
    heading = tr._(
        "🏁 Exam finished: {title}, {correct}/{total}",
        title=html.escape(quiz_title(quiz, lang)),
        correct=tr.number(outcome.correct),
        total=tr.number(outcome.asked.total),
    )
    blocks = [f"{note}\n\n<b>{heading}</b>" if note else f"<b>{heading}</b>"]
    picked = (*outcome.picked, *[""] * (len(outcome.marked) - len(outcome.picked)))
    for (asked, mark), pick in zip(outcome.marked, picked, strict=True):
        question = asked.question
        right = LETTERS[asked.order.index(question.correct)]
        lines = [
            f"{MARKS.get(mark, '')} <b>{tr.number(asked.index + 1)}.</b> "
            + rich(question.prompt.get(lang))
        ]
        # A missed question shows the learner's own pick first (by id: stored since 031).
        mine = next((i for i, o in enumerate(question.options) if o.id == pick), None)
        if mark != "r" and mine is not None and mine in asked.order:
            lines.append(
                tr._("Your answer: {answer}", answer=LETTERS[asked.order.index(mine)])
                + " · "
                + rich(question.options[mine].text.get(lang))
            )
        lines.append(
            tr._("Right answer: {answer}", answer=right)
            + " · "
            + rich(question.options[question.correct].text.get(lang))
        )
        lines.append(f"<i>{rich(question.explanation.get(lang))}</i>")
        blocks.append("\n".join(lines))
    if quiz.guide is not None:
        blocks.append(guide_line(tr, quiz.guide, lang))
    blocks.append(tr._("Missed questions join your review queue: /review. /exam for another."))
    messages: list[str] = []
    current = ""
    for block in blocks:
        block = fit_html(block)  # a single huge block: cut, never lost
        if current and len(current) + 2 + len(block) > MESSAGE_MAX_CHARS:
            messages.append(current)
            current = block
        else:
            current = f"{current}\n\n{block}" if current else block
    messages.append(current)
    return messages
