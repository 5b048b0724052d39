"""A question in a private chat: its screen, then once answered the marked options, the
verdict, the explanation and the way on (one message when it fits, two when it cannot).

The header and option lines are shared with every other place that asks a question (group
runs, review and practice rounds, exams, each kind's renderer).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from telegram import InlineKeyboardMarkup

from bot.core.engine import Attempt, Judgement
from bot.core.kinds import QuestionKind
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import Question, Quiz
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg import toggle_render as toggle_keys
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_lines,
    quiz_title,
    rich,
    with_image,
)
from bot.tg.wire.captions import fits_caption
from bot.tg.wire.html_fit import fit_html


def option_lines(
    question: Question, order: Sequence[int], lang: str, marks: dict[int, str]
) -> list[str]:
    return [
        f"{marks.get(pos, '')}<b>{LETTERS[pos]}.</b> "
        f"{rich(question.options[option].text.get(lang))}"
        for pos, option in enumerate(order)
    ]


def question_header(tr: Translator, quiz: Quiz, index: int, lang: str) -> str:
    """The counter and title; on the first question, the unreviewed-translation line (a deep
    link or a group run reaches it without the quiz card's notice)."""
    counter = tr._("Question {k}/{n}", k=tr.number(index + 1), n=tr.number(len(quiz)))
    line = f"<b>{counter}</b> · {html.escape(quiz_title(quiz, lang))}"
    return line + unreviewed_line(tr, quiz, lang) if index == 0 else line


def unreviewed_line(tr: Translator, quiz: Quiz, lang: str) -> str:
    """A line under a question's header when its translation in `lang` awaits a native
    speaker's review ("" otherwise): every route to a question says so, not only the card."""
    if lang not in quiz.unreviewed:
        return ""
    notice = tr._("⚠️ This translation has not yet been reviewed by a native speaker.")
    return f"\n<i>{html.escape(notice)}</i>"


def question(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    index: int,
    lang: str,
    selected: frozenset[int] = frozenset(),
) -> Screen:
    """A question with its options lettered in full, and one short button per letter; a
    select-all question has toggles (`selected`: the option indexes ticked) and Submit."""
    q = quiz.questions[index]
    order = attempt.orders[index]
    lines = [
        question_header(tr, quiz, index, lang),
        "",
        rich(q.prompt.get(lang)),
        "",
        *option_lines(q, order, lang, {}),
    ]
    if q.kind is QuestionKind.MULTIPLE:
        ticked = [pos for pos, option in enumerate(order) if option in selected]
        markup = toggle_keys.keyboard(tr, attempt.id, index, len(order), ticked)
        text = "\n".join([*lines, "", toggle_keys.hint(tr)])
        return Screen(fit_html(text), markup)
    text = "\n".join(lines)
    buttons = [button(LETTERS[pos], cb.Answer(attempt.id, index, pos)) for pos in range(len(order))]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    screen = Screen(fit_html(text), InlineKeyboardMarkup(rows))
    return with_image(screen, q.image, lang)


def answered_question(
    tr: Translator, quiz: Quiz, attempt: Attempt, judgement: Judgement, lang: str
) -> Screen:
    """The question as it reads once answered: right option ticked, a wrong choice crossed out."""
    q = quiz.questions[judgement.question_index]
    order = attempt.orders[judgement.question_index]
    marks = {judgement.correct_position: "✅ "}
    if not judgement.is_correct:
        marks[judgement.position] = "❌ "
    text = "\n".join(
        [
            question_header(tr, quiz, judgement.question_index, lang),
            "",
            rich(q.prompt.get(lang)),
            "",
            *option_lines(q, order, lang, marks),
        ]
    )
    return Screen(fit_html(text))


def verdict_popup(tr: Translator, judgement: Judgement) -> str:
    if judgement.is_correct:
        return tr._("✅ Right!")
    return tr._("❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position])


def explanation(
    tr: Translator, quiz: Quiz, attempt: Attempt, judgement: Judgement, lang: str
) -> Screen:
    """Why the right answer is right, a link to the guide, and the way on."""
    if judgement.is_correct:
        head = tr._("✅ Right!")
    else:
        head = tr._(
            "❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position]
        )
    return explained(tr, quiz, attempt.id, judgement.question_index, head, lang)


def explained(
    tr: Translator, quiz: Quiz, attempt_id: int, index: int, head: str, lang: str
) -> Screen:
    """The verdict line `head`, the explanation, the guide and Next: after any kind of answer."""
    q = quiz.questions[index]
    text = "\n".join(
        [
            f"<b>{head}</b>",
            "",
            rich(q.explanation.get(lang)),
            *guide_lines(tr, quiz.guide, lang),
        ]
    )
    keyboard = answered_keyboard(tr, quiz, attempt_id, index)
    return Screen(fit_html(text), keyboard)


def answered_keyboard(
    tr: Translator, quiz: Quiz, attempt_id: int, index: int
) -> InlineKeyboardMarkup:
    """The buttons under an answered question, whatever its kind: the way on, then a small
    "⚠️ Report" (bot/tg/report_handlers.py). Every answered screen builds them here, and the
    report flow puts them back here after its reasons."""
    following = index + 1
    label = tr._("Next ▶️") if following < len(quiz) else tr._("🏁 See my score")
    return InlineKeyboardMarkup(
        [
            [button(label, cb.Next(attempt_id, following))],
            [button(tr._("⚠️ Report"), cb.ReportOpen(attempt_id, index))],
        ]
    )


def joined(asked: Screen, why: Screen, *, caption: bool = False) -> tuple[Screen, Screen | None]:
    """One message for the answered question and its explanation when it fits (see `answered`;
    `caption`: the question is a captioned photo, which holds 1024 characters)."""
    # The HTML source's length: at least what Telegram counts once the tags are parsed (a cut
    # question is already at the limit, so it never joins its explanation).
    combined = f"{asked.text}\n\n{why.text}"
    if fits_caption(combined) if caption else len(combined) <= MESSAGE_MAX_CHARS:
        return Screen(combined, why.keyboard), None
    return asked, why


def answered(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    judgement: Judgement,
    lang: str,
    *,
    caption: bool = False,
) -> tuple[Screen, Screen | None]:
    """The question message once answered, and a second message only when one cannot hold it all.

    One message per question: the tapped question is edited to show the marked options, the
    verdict, the explanation, the guide and the way on (one Bot API call fewer per question than
    an edit plus a new message). Telegram refuses a text over 4096 characters, and cutting an
    explanation short would hide the why, so a long question and explanation keep two messages:
    the marked question, then the explanation with the Next button.

    `caption`: the question is a captioned photo, whose caption holds 1024 characters. An
    explanation with a picture of its own always follows as a message of its own (a photo)."""
    asked = answered_question(tr, quiz, attempt, judgement, lang)
    why = explanation(tr, quiz, attempt, judgement, lang)
    pictured = quiz.questions[judgement.question_index].explanation_image
    if pictured is not None:
        return asked, with_image(why, pictured, lang)
    return joined(asked, why, caption=caption)
