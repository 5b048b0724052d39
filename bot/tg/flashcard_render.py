"""A flashcard in a private quiz: its front with "Show answer", its back with the four rating
buttons, and the rated card with its next review day (bot/core/kinds.py says why a flashcard is
rated by the learner and never scored)."""

from __future__ import annotations

import html
from datetime import tzinfo

from telegram import InlineKeyboardMarkup

from bot.core.engine import Attempt
from bot.core.kinds import FLASHCARD_RATINGS
from bot.core.models import Image, Quiz
from bot.core.review import ReviewItem, local_day
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.question_render import answered_keyboard, question_header
from bot.tg.screen_render import Screen, button, rich, with_image
from bot.tg.wire.captions import fits_caption
from bot.tg.wire.html_fit import fit_html


def rating_labels(tr: Translator) -> tuple[str, ...]:
    """The rating buttons' labels, in `FLASHCARD_RATINGS` order."""
    return (tr._("🔁 Again"), tr._("😓 Hard"), tr._("🙂 Good"), tr._("😎 Easy"))


def _front(tr: Translator, quiz: Quiz, index: int, lang: str) -> list[str]:
    q = quiz.questions[index]
    label = tr._("🃏 Flashcard")
    return [
        question_header(tr, quiz, index, lang),
        f"<i>{html.escape(label)}</i>",
        "",
        rich(q.prompt.get(lang)),
    ]


def front(tr: Translator, quiz: Quiz, attempt: Attempt, index: int, lang: str) -> Screen:
    """The front, with one button: "Show answer"."""
    text = "\n".join([*_front(tr, quiz, index, lang), "", tr._("Recall the answer, then look.")])
    keyboard = InlineKeyboardMarkup([[button(tr._("👀 Show answer"), cb.Flip(attempt.id, index))]])
    screen = Screen(fit_html(text), keyboard)
    return with_image(screen, quiz.questions[index].image, lang)


def back(
    tr: Translator, quiz: Quiz, attempt: Attempt, index: int, lang: str, *, caption: bool = False
) -> tuple[Screen, Screen | None]:
    """Front and back, and the four ratings (each an answer: ans:<attempt>:<q>:<0..3>), and a
    second message only when one cannot hold it all (see `flipped`; `caption`: the front is a
    captioned photo)."""
    q = quiz.questions[index]
    labels = rating_labels(tr)
    row = [
        button(labels[i], cb.Answer(attempt.id, index, i)) for i in range(len(FLASHCARD_RATINGS))
    ]
    keys = InlineKeyboardMarkup([row[:2], row[2:]])
    head = [question_header(tr, quiz, index, lang)]
    return flipped(
        tr, _front(tr, quiz, index, lang), head, rich(q.explanation.get(lang)), keys,
        q.explanation_image, lang, caption=caption,
    )  # fmt: skip


def flipped(
    tr: Translator,
    front_lines: list[str],
    head: list[str],
    back_text: str,
    keys: InlineKeyboardMarkup,
    pictured: Image | None,
    lang: str,
    *,
    caption: bool,
) -> tuple[Screen, Screen | None]:
    """A flipped flashcard, in a quiz or a review round: front and back in the tapped message,
    or, as an answered question's explanation goes (question_render.answered), the front without its
    button and the back as a message of its own: a photo when the back has a picture, or a
    text when front and back do not fit the front photo's 1024-character caption. The rating
    buttons go with the back."""
    ask = tr._("How well did you remember it?")
    full = "\n".join([*front_lines, "", "———", back_text, "", ask])
    if pictured is None and (not caption or fits_caption(full)):
        return Screen(fit_html(full), keys), None
    alone = Screen(fit_html("\n".join([*head, "", back_text, "", ask])), keys)
    return Screen(fit_html("\n".join(front_lines))), with_image(alone, pictured, lang)


def rated(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    index: int,
    rating: int,
    due: ReviewItem | None,
    tz: tzinfo | None,
    lang: str,
) -> Screen:
    """The card once rated: front, back, the rating and FSRS's next review day, then Next."""
    q = quiz.questions[index]
    # A back with a picture was rated on its own photo (see `flipped`): the front is above it.
    shown = [question_header(tr, quiz, index, lang), ""] if q.explanation_image else [
        *_front(tr, quiz, index, lang), "", "———"
    ]  # fmt: skip
    lines = [
        *shown,
        rich(q.explanation.get(lang)),
        "",
        tr._("Your rating: {rating}", rating=rating_labels(tr)[rating]),
    ]
    if due is not None and tz is not None:
        day = tr.day(local_day(due.due_at, tz))
        lines.append(tr._("Next review of this card: {date}.", date=day))
    keyboard = answered_keyboard(tr, quiz, attempt.id, index)
    return Screen(fit_html("\n".join(lines)), keyboard)


def rated_popup(tr: Translator, rating: int) -> str:
    return tr._("Rated: {rating}", rating=rating_labels(tr)[rating])
