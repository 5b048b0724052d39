"""What review and practice rounds show: cards with "k of n", the answered card, the summary, the
offer to practise, /stop. HTML texts and keyboards, never a call.

Cards go through the quiz's own helpers (`question_render.option_lines`,
`question_render.verdict_popup`), so a question kind the quiz learns to show is shown the same
way here. Dates are days on the learner's calendar, written by Babel in their language; counts
are plural-aware.
"""

from __future__ import annotations

import html
from datetime import tzinfo

from telegram import InlineKeyboardMarkup

from bot.core.engine import Judgement, SetJudgement
from bot.core.kinds import QuestionKind
from bot.core.review import ReviewItem, local_day
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg import select_render
from bot.tg import toggle_render as toggle_keys
from bot.tg.flashcard_render import flipped, rated_popup, rating_labels
from bot.tg.private_render import after_stop
from bot.tg.question_render import joined, option_lines, unreviewed_line, verdict_popup
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_lines,
    popup,
    rich,
    with_image,
)
from bot.tg.wire.html_fit import fit_html
from bot.usecases.review_rounds import (
    NothingDue,
    NothingToPractise,
    RoundSummary,
    Stopped,
)
from bot.usecases.round_answers import CardAnswered, RoundCard


def _day(tr: Translator, moment: float, tz: tzinfo) -> str:
    return tr.day(local_day(moment, tz))


def header(tr: Translator, card: RoundCard, lang: str) -> str:
    k, n = tr.number(card.index + 1), tr.number(max(card.total, card.index + 1))
    if card.practice:
        label = tr._("🎯 Practice · {k} of {n}", k=k, n=n)
    else:
        label = tr._("🔁 Review · {k} of {n}", k=k, n=n)
    title = f"<b>{label}</b> · {html.escape(card.quiz.title.get(lang))}"
    return title + unreviewed_line(tr, card.quiz, lang)


def recall_line(tr: Translator, recall: float) -> str:
    """FSRS's predicted recall, as a learner reads it."""
    return tr._("🧠 You'd remember this ~{percent} today.", percent=tr.percent(recall))


def _body(tr: Translator, card: RoundCard, lang: str, marks: dict[int, str]) -> list[str]:
    predicted = [] if card.recall is None or marks else [html.escape(recall_line(tr, card.recall))]
    return [
        header(tr, card, lang),
        *predicted,
        "",
        rich(card.question.prompt.get(lang)),
        "",
        *option_lines(card.question, card.order, lang, marks),
    ]


def card(
    tr: Translator, shown: RoundCard, lang: str, selected: frozenset[int] = frozenset()
) -> Screen:
    """A question of a round, options in their fresh order, one button per letter; a
    select-all question has toggles (`selected`: the displayed positions ticked) and Submit."""
    order = "".join(str(i) for i in shown.order)
    if shown.question.flashcard:
        return flashcard_front(tr, shown, lang)
    if shown.question.kind is QuestionKind.MULTIPLE:
        lines = [*_body(tr, shown, lang, {}), "", html.escape(toggle_keys.hint(tr))]
        keys = toggle_keys.round_keyboard(
            tr, shown.round_id, shown.index, shown.item_id, order, selected
        )
        return Screen(fit_html("\n".join(lines)), keys)
    buttons = [
        button(
            LETTERS[pos],
            cb.ReviewAnswer(shown.round_id, shown.index, shown.item_id, order, pos),
        )
        for pos in range(len(shown.order))
    ]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    text = "\n".join(_body(tr, shown, lang, {}))
    screen = Screen(fit_html(text), InlineKeyboardMarkup(rows))
    return with_image(
        screen, shown.question.image, lang
    )  # a captioned photo (bot/tg/wire/photos.py)


# A flashcard card's rating buttons carry this for the option order they do not have (the
# callback's order field is two digits or more): it is never read.
NO_ORDER = "00"


def _flashcard_lines(tr: Translator, shown: RoundCard, lang: str, *, back: bool) -> list[str]:
    predicted = [] if shown.recall is None or back else [html.escape(recall_line(tr, shown.recall))]
    label = tr._("🃏 Flashcard")
    lines = [header(tr, shown, lang), *predicted, f"<i>{html.escape(label)}</i>", ""]
    lines.append(rich(shown.question.prompt.get(lang)))
    if back:
        lines += ["", "———", rich(shown.question.explanation.get(lang))]
    return lines


def flashcard_front(tr: Translator, shown: RoundCard, lang: str) -> Screen:
    """A flashcard card: its front and "Show answer"."""
    flip = cb.ReviewFlip(shown.round_id, shown.index, shown.item_id)
    keys = InlineKeyboardMarkup([[button(tr._("👀 Show answer"), flip)]])
    text = "\n".join(_flashcard_lines(tr, shown, lang, back=False))
    screen = Screen(fit_html(text), keys)
    return with_image(screen, shown.question.image, lang)


def flashcard_back(
    tr: Translator, shown: RoundCard, lang: str, *, caption: bool = False
) -> tuple[Screen, Screen | None]:
    """The flipped flashcard card: front, back and the four ratings, the back on its own when
    it has a picture or does not fit the front photo's caption (flashcard_render.flipped)."""
    labels = rating_labels(tr)
    row = [
        button(label, cb.ReviewAnswer(shown.round_id, shown.index, shown.item_id, NO_ORDER, i))
        for i, label in enumerate(labels)
    ]
    front = _flashcard_lines(tr, shown, lang, back=False)
    back = rich(shown.question.explanation.get(lang))
    keys = InlineKeyboardMarkup([row[:2], row[2:]])
    pictured = shown.question.explanation_image
    return flipped(
        tr, front, [header(tr, shown, lang)], back, keys, pictured, lang, caption=caption
    )


def where(tr: Translator, practice: bool, after: ReviewItem | None, tz: tzinfo) -> str:
    if practice:
        return tr._("🎯 Practice: your review schedule stays as it was.")
    if after is None:  # no card of a review round lacks one: FSRS keeps every question
        return tr._("🎯 Practice: your review schedule stays as it was.")
    return tr._("Next review of this question: {date}.", date=_day(tr, after.due_at, tz))


def answered(
    tr: Translator, outcome: CardAnswered, lang: str, tz: tzinfo, *, caption: bool = False
) -> tuple[Screen, Screen | None]:
    """The card once answered, and a second message only when one cannot hold it all.

    One message per question, as in a quiz: the card is edited to show the marked options, the
    verdict, the explanation, the guide, where the question goes next, and the way on. Past
    Telegram's 4096 characters the explanation follows on its own (cut, it would hide the why).
    `caption`: the card is a captioned photo (1024 characters); an explanation with a picture of
    its own follows as that photo.
    """
    shown, judgement = outcome.card, outcome.judgement
    if shown.question.flashcard:
        rating = rating_labels(tr)[judgement.option_index]
        # A back with a picture was rated on its own photo (flipped): the front is above it.
        if shown.question.explanation_image is not None:
            card_lines = [header(tr, shown, lang), "", rich(shown.question.explanation.get(lang))]
        else:
            card_lines = _flashcard_lines(tr, shown, lang, back=True)
        lines = [
            *card_lines,
            "",
            html.escape(tr._("Your rating: {rating}", rating=rating)),
            where(tr, shown.practice, outcome.after, tz),
        ]
        keyboard = answered_keyboard(tr, shown.round_id, shown.index, outcome.last)
        return Screen(fit_html("\n".join(lines)), keyboard), None
    if isinstance(judgement, SetJudgement):  # the quiz's marks: right pick, wrong pick, missed
        marks = select_render.marks(shown.question, shown.order, judgement.selected)
        body = _body(tr, shown, lang, marks)
        if not judgement.is_correct:
            body += ["", html.escape(select_render.legend(tr, marks.values()))]
    else:
        marks = {judgement.correct_position: "✅ "}
        if not judgement.is_correct:
            marks[judgement.position] = "❌ "
        body = _body(tr, shown, lang, marks)
    asked = fit_html("\n".join(body))
    why = "\n".join(
        [
            f"<b>{html.escape(verdict(tr, shown, judgement))}</b>",
            "",
            rich(shown.question.explanation.get(lang)),
            *guide_lines(tr, shown.quiz.guide, lang),
            "",
            where(tr, shown.practice, outcome.after, tz),
        ]
    )
    keyboard = answered_keyboard(tr, shown.round_id, shown.index, outcome.last)
    after = Screen(fit_html(why), keyboard)
    if (pictured := shown.question.explanation_image) is not None:
        return Screen(asked), with_image(after, pictured, lang)
    return joined(Screen(asked), after, caption=caption)


def verdict(tr: Translator, shown: RoundCard, judgement: Judgement | SetJudgement) -> str:
    """The verdict of an answered card (a select-all one names the right letters and its
    partial credit, as in a quiz)."""
    if isinstance(judgement, SetJudgement):
        return popup(select_render.verdict(tr, judgement, shown.order))
    if shown.question.flashcard:
        return rated_popup(tr, judgement.option_index)
    return verdict_popup(tr, judgement)


def answered_keyboard(
    tr: Translator, round_id: int, index: int, last: bool
) -> InlineKeyboardMarkup:
    """Under an answered card, whatever its kind: the way on (`last`: to the summary), then a
    small "⚠️ Report" (bot/tg/report_handlers.py), as under an answered quiz question. The report
    flow puts these back after its reasons."""
    label = tr._("🏁 See the summary") if last else tr._("Next ▶️")
    return InlineKeyboardMarkup(
        [
            [button(label, cb.ReviewStep(round_id, index + 1))],
            [button(tr._("⚠️ Report"), cb.CardReportOpen(round_id, index))],
        ]
    )


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
    return tr._("Next review: {date}.", date=_day(tr, next_at, tz))


def nothing_due(tr: Translator, outcome: NothingDue, tz: tzinfo) -> Screen:
    if outcome.next_at is None:
        return Screen(
            tr._("🎉 No reviews due, and your queue is empty. Questions you miss come back here.")
        )
    text = tr._("✅ No reviews due. The next one is on {date}.", date=_day(tr, outcome.next_at, tz))
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
        lines.append(
            tr.ngettext(
                "{n} question is due now: /review to go over it.",
                "{n} questions are due now: /review to go over them.",
                done.due_now,
            )
        )
    else:
        lines.append(_next_due(tr, done.next_due_at, tz))
    if done.practice:
        lines.append(tr._("Your review schedule stays as it was."))
    keyboard = None
    if done.practisable and not done.due_now and not done.practice:
        line, keyboard = _offer(tr, done.user_id, done.practisable)
        lines += ["", line]
    return Screen("\n".join(lines), keyboard)


def nothing_to_practise(tr: Translator, outcome: NothingToPractise) -> str:
    if outcome.due_now:
        return tr.ngettext(
            "{n} question is due now: /review to go over it.",
            "{n} questions are due now: /review to go over them.",
            outcome.due_now,
        )
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
