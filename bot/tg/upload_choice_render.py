"""The choices a quiz file's sender makes, in words: which of their groups a file sent privately
is for, and whether it replaces the group's quiz of the same id or is kept beside it; and the
answers when that cannot be done (no group, the group gone, someone else's file).

Each button is bound to the file's token and group (in a private chat, also to the sender's own
chat): bot/tg/callbacks.py.
"""

from __future__ import annotations

import html

from telegram import InlineKeyboardMarkup

from bot.core.bidi import isolate
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.screen_render import Screen, button
from bot.tg.upload_render import REPLACE_KEYS
from bot.tg.wire.html_fit import fit_html
from bot.usecases.quiz_uploads import Choice, Replaces


def how_to_upload_private(tr: Translator) -> str:
    return html.escape(
        tr._(
            "Send me a quiz file with /upload as its caption (YAML, GIFT, Aiken, CSV, Moodle XML, "
            "QTI 2.1 or Anki); I will ask which of your groups it is for."
        )
    )


def file_without_upload(tr: Translator) -> str:
    """A file sent privately without the /upload caption: how to make it an upload."""
    return html.escape(
        tr._(
            "To make this file a quiz for a group you administer, reply /upload to it. "
            "/help lists what I can do."
        )
    )


def no_groups(tr: Translator) -> str:
    return html.escape(
        tr._(
            "I know of no group of mine that you administer. Send the file in your group with "
            "/upload as its caption (after that I offer the group here too), or add me to it."
        )
    )


def unreachable(tr: Translator) -> str:
    return tr._("I cannot reach this group any more. Nothing was changed.")


def not_your_file(tr: Translator) -> str:
    return tr._("Only the admin who sent this file can choose.")


def cancelled(tr: Translator) -> str:
    return html.escape(tr._("Cancelled. Nothing was changed."))


def confirm_replace(
    tr: Translator, name: str, asked: Replaces, chat_id: int, token: str, *, in_group: bool
) -> Screen:
    """The "Replace …?" question with its three choices, bound to the file's token and group
    (and, in a private chat, to the sender's own chat; in a group, the token is the sender's)."""
    questions = tr.ngettext("{n} question", "{n} questions", len(asked.incoming.questions))
    lines = [
        "♻️ " + tr._("Replace “{title}”?", title=isolate(asked.current_title.get(tr.lang))),
        tr._(
            "This group already has a quiz with the id {id}. The file {file} holds "
            "“{title}” ({questions}).",
            id=asked.typed_id,
            file=isolate(name),
            title=isolate(asked.incoming.title.get(tr.lang)),
            questions=questions,
        ),
        tr._(
            "Replace makes it a new version of the group's quiz (a run under way finishes on "
            "the version it started with); Keep both adds it as {id}. Nothing changes until "
            "you choose.",
            id=asked.free_id,
        ),
    ]
    labels = {
        Choice.REPLACE: "♻️ " + tr._("Replace"),
        Choice.KEEP_BOTH: "➕ " + tr._("Keep both ({id})", id=asked.free_id),
        Choice.CANCEL: "✖️ " + tr._("Cancel"),
    }
    keys = {choice: key for key, choice in REPLACE_KEYS.items()}
    rows = [
        [
            button(
                label,
                cb.Setting(chat_id, keys[choice], token)
                if in_group
                else cb.UploadChoice(chat_id, token, choice.value),
            )
        ]
        for choice, label in labels.items()
    ]
    text = fit_html(html.escape("\n".join(lines)))
    return Screen(text, InlineKeyboardMarkup(rows))


def choose_group(tr: Translator, groups: list[tuple[int, str]], token: str) -> Screen:
    rows = [[button(title or str(chat_id), cb.UploadFor(chat_id, token))]
            for chat_id, title in groups]  # fmt: skip
    return Screen(html.escape(tr._("Which group is this quiz for?")), InlineKeyboardMarkup(rows))
