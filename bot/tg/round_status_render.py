"""What review and practice rounds say around their cards: nothing due (with the offer to
practise missed questions not due yet), the summary at a round's end, nothing to practise,
/stop, and a tap refused (during an exam, on a round over, someone else's, twice). HTML texts
and keyboards, never a call. Apart from rounds_render.py, which draws the cards themselves.
"""

from __future__ import annotations

from datetime import tzinfo

from telegram import InlineKeyboardMarkup

from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.private_render import after_stop
from bot.tg.rounds_render import day
from bot.tg.screen_render import Screen, button
from bot.usecases.review_rounds import NothingDue, NothingToPractise, RoundSummary, Stopped


def _offer(tr: Translator, user_id: int, count: int) -> tuple[str, InlineKeyboardMarkup]:
    line = tr.ngettext(
        "{n} missed question is not due yet: practise it now, your review schedule stays as it is.",
        "{n} missed questions are not due yet: practise them now, your review schedule stays "
        "as it is.",
        count,
    )
    label = tr._("🎯 Practise my mistakes now")
    return line, InlineKeyboardMarkup([[button(label, cb.PractiseNow(user_id))]])


def _next_due(tr: Translator, next_at: float | None, tz: tzinfo) -> str:
    if next_at is None:
        return tr._("Your review queue is empty: questions you miss come back here.")
    return tr._("Next review: {date}.", date=day(tr, next_at, tz))


def nothing_due(tr: Translator, outcome: NothingDue, tz: tzinfo) -> Screen:
    if outcome.next_at is None:
        return Screen(
            tr._("🎉 No reviews due, and your queue is empty. Questions you miss come back here.")
        )
    text = tr._("✅ No reviews due. The next one is on {date}.", date=day(tr, outcome.next_at, tz))
    if not outcome.practisable:
        return Screen(text)
    line, keyboard = _offer(tr, outcome.user_id, outcome.practisable)
    return Screen(f"{text}\n\n{line}", keyboard)


def summary(tr: Translator, done: RoundSummary, tz: tzinfo) -> Screen:
    """The end of a round: right answers out of how many, when the next review is, and (with
    missed questions not due) the offer to practise them now."""
    if done.practice:
        head = tr.ngettext(
            "🏁 Practice done: {right} of {n} question right.",
            "🏁 Practice done: {right} of {n} questions right.",
            done.answered,
            right=tr.number(done.correct),
        )
    else:
        head = tr.ngettext(
            "🏁 Review done: {right} of {n} question right.",
            "🏁 Review done: {right} of {n} questions right.",
            done.answered,
            right=tr.number(done.correct),
        )
    lines = [f"<b>{head}</b>", ""]
    if done.due_now:
        lines.append(_due_now(tr, done.due_now))
    else:
        lines.append(_next_due(tr, done.next_due_at, tz))
    if done.practice:
        lines.append(tr._("Your review schedule stays as it was."))
    keyboard = None
    if done.practisable and not done.due_now and not done.practice:
        line, keyboard = _offer(tr, done.user_id, done.practisable)
        lines += ["", line]
    return Screen("\n".join(lines), keyboard)


def _due_now(tr: Translator, count: int) -> str:
    return tr.ngettext(
        "{n} question is due now: /review to go over it.",
        "{n} questions are due now: /review to go over them.",
        count,
    )


def nothing_to_practise(tr: Translator, outcome: NothingToPractise) -> str:
    if outcome.due_now:
        return _due_now(tr, outcome.due_now)
    return tr._("🎉 Nothing to practise: your review queue is empty.")


def stopped(tr: Translator, outcome: Stopped, quiz_waiting: bool = False) -> str:
    """The round is over; a quiz still running is not touched, and the learner learns how to
    end it too (they may have meant it)."""
    if outcome.practice:
        text = tr.ngettext(
            "⏹ Practice stopped after {k} of {n} question ({right} right).",
            "⏹ Practice stopped after {k} of {n} questions ({right} right).",
            outcome.total,
            k=tr.number(outcome.answered),
            right=tr.number(outcome.correct),
        )
    else:
        text = tr.ngettext(
            "⏹ Review stopped after {k} of {n} question ({right} right).",
            "⏹ Review stopped after {k} of {n} questions ({right} right).",
            outcome.total,
            k=tr.number(outcome.answered),
            right=tr.number(outcome.correct),
        )
    again = tr._("/review to start again.")
    return after_stop(tr, f"{text} {again}", quiz_waiting)


def in_exam(tr: Translator) -> str:
    """/review or "Practise my mistakes now" during an exam (also a popup: under 200 characters)."""
    return tr._(
        "⏱ You are in an exam: your reviews wait until it ends, so that none gives its answers "
        "away. /stop ends the exam."
    )


def round_over(tr: Translator) -> str:
    return tr._("This review is over. /review to start a new one.")


def not_yours(tr: Translator) -> str:
    return tr._("This button is not for you.")


def already_answered(tr: Translator) -> str:
    return tr._("You already answered this question.")
