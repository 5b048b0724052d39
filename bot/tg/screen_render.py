"""The `Screen` every renderer returns, and the pieces of text they all build it from: content
text as Telegram HTML (`rich`), names, pictures, the guide's link, buttons, cut lists' tails.

Functions here take core values and a Translator and never call Telegram, so every screen can be
tested and checked against Telegram's limits on its own.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace
from functools import lru_cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.bidi import isolate, isolate_if_needed
from bot.core.limits import MESSAGE_MAX_CHARS, POPUP_MAX_CHARS, TYPED_BACK_MAX_CHARS
from bot.core.markup import fenced, plain, split_code
from bot.core.models import SOURCE_LANGUAGE, GuidePath, Image, Level, MediaFile, Question, Quiz
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg.wire.html_fit import fit_html

LETTERS = "ABCDEFGHIJ"


MAX_LIST_BUTTONS = 100  # Telegram's most buttons in one inline keyboard


RICH_KEPT = 8192  # content texts kept rendered (`rich`); the least recently shown go first


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    keyboard: InlineKeyboardMarkup | None = None
    # A picture sent with the text (tg/wire/photos.py), and its alt text in the screen's language.
    photo: MediaFile | None = None
    alt: str = ""


def shown_name(name: str | None) -> str:
    """A person's name or a group's title inside our text: bidi-isolated (bot/core/bidi.py: an
    unclosed right-to-left override reversed the rest of a leaderboard line), then escaped;
    "?" for none."""
    return html.escape(isolate(name or "?"))


def quiz_title(quiz: Quiz, lang: str) -> str:
    """A quiz's title inside our text (not escaped): an uploaded quiz's is its uploader's, so
    one that could reorder the line is bidi-isolated as a name is (`isolate_if_needed`)."""
    return isolate_if_needed(quiz.title.get(lang))


def member_name(tr: Translator, user_id: int, name: str | None) -> str:
    """A group member on a board or in the standings: `shown_name`, except a pseudonym, which
    /forget leaves on a member's group results (a negative id, bot/store/forget.py): no name
    is kept for it, and "?" read as a glitch."""
    if user_id < 0:
        return html.escape(tr._("a former member"))
    return shown_name(name)


def with_image(screen: Screen, image: Image | None, lang: str) -> Screen:
    """The screen carrying the content picture (if any) in `lang`."""
    if image is None:
        return screen
    return replace(screen, photo=image.file(lang), alt=image.alt.get(lang))


@lru_cache(maxsize=RICH_KEPT)
def rich(text: str) -> str:
    """Content text as Telegram HTML: escaped, `code` spans as <code>, fenced blocks as
    <pre><code class="language-python"> (Telegram shows the language on the block).

    Kept per text (a pure function of it): a tap shows the same prompt, options and
    explanation again (issue 32); an edited text is another key."""
    return "".join(_rich_piece(is_code, piece) for is_code, piece in split_code(text))


def _rich_piece(is_code: bool, piece: str) -> str:
    if not is_code:
        return html.escape(piece)
    block = fenced(piece)
    if block is None:
        return f"<code>{html.escape(piece)}</code>"
    lang, code = block
    tag = f'<code class="language-{lang}">' if lang else "<code>"
    return f"<pre>{tag}{html.escape(code)}</code></pre>"


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def typed_back(typed: str) -> str:
    """A typed argument as a reply quotes it (not escaped): cut, so that a reply quoting one
    never outgrows a message, and bidi-isolated if it could reorder the reply's line."""
    return isolate_if_needed(truncate(typed, TYPED_BACK_MAX_CHARS))


def popup(text: str) -> str:
    """A callback popup: plain text (no HTML there), within Telegram's 200 characters."""
    return truncate(plain(text), POPUP_MAX_CHARS)


def guide_link(guide: GuidePath, lang: str) -> str:
    """The guide's title as a link; says "(in English)" when there is no page in `lang`."""
    url = html.escape(guide.url.get(lang), quote=True)
    link = f'<a href="{url}">{html.escape(guide.title.get(lang))}</a>'
    if lang == SOURCE_LANGUAGE or guide.url.has(lang):
        return link
    note = translator(lang)._("(in English)")
    return f"{link} {html.escape(note)}"


def guide_line(tr: Translator, guide: GuidePath | None, lang: str) -> str:
    """ "📖 Guide: <link>", or "" for a quiz that links to no guide (a group's upload)."""
    if guide is None:
        return ""
    return tr._("📖 Guide: {link}", link=guide_link(guide, lang))


def guide_lines(tr: Translator, guide: GuidePath | None, lang: str) -> list[str]:
    """A blank line and the guide's, or nothing for a quiz without a guide."""
    line = guide_line(tr, guide, lang)
    return ["", line] if line else []


def revealed(tr: Translator, quiz: Quiz, question: Question, lang: str, lines: list[str]) -> Screen:
    """A group reveal: `lines` (the question and how the group answered), then why and the
    guide. Past Telegram's limit the explanation goes, never a cut inside a tag."""
    lines = [
        *lines,
        "",
        f"<i>{rich(question.explanation.get(lang))}</i>",
        *guide_lines(tr, quiz.guide, lang),
    ]
    text = "\n".join(lines)
    if len(text) > MESSAGE_MAX_CHARS:
        text = "\n".join(line for line in lines if not line.startswith("<i>"))
    return Screen(fit_html(text))


def level_name(tr: Translator, level: Level) -> str:
    names = {
        Level.BEGINNER: tr._("beginner"),
        Level.INTERMEDIATE: tr._("intermediate"),
        Level.ADVANCED: tr._("advanced"),
    }
    return names[level]


def button(text: str, data: cb.Callback) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=cb.encode(data))


def more_quizzes(tr: Translator, n: int) -> str:
    return tr.ngettext("…and {n} more quiz", "…and {n} more quizzes", n)


def more_questions(tr: Translator, n: int) -> str:
    """Under a list cut short (bot/tg/long_lists.py): how many questions are left out."""
    return tr.ngettext("…and {n} more question", "…and {n} more questions", n)
