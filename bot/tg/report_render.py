"""What the "⚠️ Report" flow shows: the reasons (in the answered question's own keyboard), the
invitation to add a sentence with its Skip button, the thanks, and the refusals' popups.

The reasons replace the answered question's buttons instead of arriving as a message: a learner
who changes their mind taps Back and the chat holds nothing more. Only the invitation is a
message of its own, because it asks for the learner's next message.
"""

from __future__ import annotations

from telegram import InlineKeyboardMarkup

from bot.core.problem_report import SENTENCE_WAIT_SECONDS, Reason
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.screen_render import Screen, button


def reason_label(tr: Translator, reason: Reason) -> str:
    labels = {
        Reason.KEY: tr._("The answer key looks wrong"),
        Reason.UNCLEAR: tr._("The question is unclear"),
        Reason.TRANSLATION: tr._("The translation is wrong"),
        Reason.OTHER: tr._("Something else"),
    }
    return labels[reason]


def reasons_keyboard(
    tr: Translator, attempt_id: int, index: int, *, card: bool = False
) -> InlineKeyboardMarkup:
    """The reasons, one a row, then Back to the answered question's own buttons. `card`: a
    review or practice card, `attempt_id` its round and `index` its place in it."""
    reason_of = cb.CardReportReason if card else cb.ReportReason
    back: cb.Callback = (
        cb.CardReportBack(attempt_id, index) if card else cb.ReportBack(attempt_id, index)
    )
    rows = [
        [button(reason_label(tr, reason), reason_of(attempt_id, index, reason.code))]
        for reason in Reason
    ]
    rows.append([button(tr._("⬅️ Back"), back)])
    return InlineKeyboardMarkup(rows)


def set_reasons_keyboard(tr: Translator, set_id: int, index: int) -> InlineKeyboardMarkup:
    """The reasons for question `index` of a /practice set, then Back."""
    rows = [
        [button(reason_label(tr, reason), cb.SetReportReason(set_id, index, reason.code))]
        for reason in Reason
    ]
    rows.append([button(tr._("⬅️ Back"), cb.SetReportBack(set_id, index))])
    return InlineKeyboardMarkup(rows)


def set_answered_keyboard(tr: Translator, set_id: int, index: int) -> InlineKeyboardMarkup:
    """An answered /practice question's only button: ⚠️ Report, as on every answered card."""
    return InlineKeyboardMarkup([[button(tr._("⚠️ Report"), cb.SetReportOpen(set_id, index))]])


def invitation(tr: Translator, reason: Reason, report_id: int) -> Screen:
    """After a reason: the report is stored; one optional sentence, or Skip."""
    minutes = round(SENTENCE_WAIT_SECONDS / 60)
    text = "\n".join(
        [
            tr._("⚠️ Reported: {reason}.", reason=reason_label(tr, reason)),
            tr.ngettext(
                "Tell the authors more in one sentence: send it as your next message within "
                "{n} minute, or tap Skip.",
                "Tell the authors more in one sentence: send it as your next message within "
                "{n} minutes, or tap Skip.",
                minutes,
            ),
        ]
    )
    keyboard = InlineKeyboardMarkup([[button(tr._("Skip"), cb.ReportSkip(report_id))]])
    return Screen(text, keyboard)


def thanks(tr: Translator) -> Screen:
    return Screen(tr._("🙏 Thanks — the authors will look at it."))


def already(tr: Translator) -> str:
    return tr._("You already reported this question for this reason.")


def refused(tr: Translator) -> str:
    """A forged or foreign button, or a question whose content has changed since."""
    return tr._("This question cannot be reported from here.")


def expired(tr: Translator) -> str:
    """A Skip naming no report of the tapper's (forged, or forgotten since)."""
    return tr._("This button has expired.")


def empty_sentence(tr: Translator) -> Screen:
    return Screen(tr._("That message has no text I can keep. Send a sentence, or tap Skip."))
