"""What review and practice rounds show on a card: "k of n" with the question, a flashcard's
front and back, the answered card with its verdict and next review date. HTML texts and
keyboards, never a call; what a round says around its cards is round_status_render.py.

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
from bot.tg.question_render import joined, option_lines, unreviewed_line, verdict_popup
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_lines,
    popup,
    quiz_title,
    rich,
    with_image,
)
from bot.tg.wire.html_fit import fit_html
from bot.usecases.round_answers import CardAnswered, RoundCard


def day(tr: Translator, moment: float, tz: tzinfo) -> str:
    return tr.day(local_day(moment, tz))


def header(tr: Translator, card: RoundCard, lang: str) -> str:
    k, n = tr.number(card.index + 1), tr.number(max(card.total, card.index + 1))
    if card.practice:
        label = tr._("🎯 Practice · {k} of {n}", k=k, n=n)
    else:
        label = tr._("🔁 Review · {k} of {n}", k=k, n=n)
    title = f"<b>{label}</b> · {html.escape(quiz_title(card.quiz, lang))}"
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
    # The round keeps the order: its buttons carry the same digits for every card, never the
    # order itself, which would tell the letter of the option the author wrote first.
    kept = range(len(shown.order)) if shown.order_kept else shown.order
    order = "".join(str(i) for i in kept)
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
    return tr._("Next review of this question: {date}.", date=day(tr, after.due_at, tz))


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
