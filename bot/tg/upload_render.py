"""What an uploader reads: the checked quiz's summary, or every problem with its line number.

Worded in the uploader's language, the checker's and importer's messages included: they come
as `problems.Msg` values (an English text with its gettext id and parameters), translated here,
and the YAML key they are about is named in words ("question « sum », option B"). Every
problem in one message, as many as Telegram's 4,096 characters hold (`long_lists.bounded`).
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Callable, Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.content.kept_ids import KeptIds
from bot.content.problems import Msg
from bot.content.upload_limits import UploadLimits, UploadProblem
from bot.content.uploads import CheckedUpload
from bot.core.bidi import isolate, isolate_if_needed
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import GuidePath, Quiz
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg.long_lists import bounded
from bot.tg.screen_render import Screen, button, guide_line, quiz_title
from bot.tg.wire.html_fit import fit_html
from bot.usecases.quiz_uploads import (
    MAX_GROUP_CHECKS,
    Choice,
    Refusal,
    Stored,
    TooBig,
    TooFrequent,
    TooManyRefused,
    TooSlow,
)

SUMMARY_ROOM = 600  # left after a summary's warnings for the notes `stored` adds below them
_QUESTION_ID = re.compile(r"q(\d+)")
MAX_GROUP_BUTTONS = MAX_GROUP_CHECKS  # every group checked may be offered
# Setting keys of a group's upload buttons (the group handler passes them on): the schedule
# hint, the delete confirmation, and the answers to "Replace …?" (value: the pending token).
REPLACE_KEYS = {"up_r": Choice.REPLACE, "up_n": Choice.KEEP_BOTH, "up_x": Choice.CANCEL}
# The guide buttons of a summary (value: the quiz id): the i-th guide of guides.yaml, or none.
GUIDE_KEYS: dict[str, int | None] = {f"upg_{c}": i for i, c in enumerate(string.ascii_lowercase)}
GUIDE_KEYS["upg_none"] = None
BUTTON_KEYS = frozenset({"sched", "delq", "delx", *REPLACE_KEYS, *GUIDE_KEYS})


def how_to_upload(tr: Translator) -> str:
    return tr._(
        "Send a quiz file with /upload as its caption, or reply /upload to a quiz file "
        "(YAML, GIFT, Aiken, CSV, Moodle XML, QTI 2.1 or Anki)."
    )


def download_failed(tr: Translator) -> str:
    return tr._("I could not download the file from Telegram. Please send it again.")


def refusal(tr: Translator, refused: Refusal) -> str:
    match refused:
        case TooBig(limit_kb):
            return tr._("This file is too big: a quiz file may have at most {n} KB.", n=limit_kb)
        case TooFrequent(minutes):
            return tr.ngettext(
                "Too many uploads in this group for now: try again in {n} minute.",
                "Too many uploads in this group for now: try again in {n} minutes.",
                minutes,
            )
        case TooManyRefused(minutes):
            return tr.ngettext(
                "Too many refused files in this group for now: try again in {n} minute.",
                "Too many refused files in this group for now: try again in {n} minutes.",
                minutes,
            )
        case TooSlow(seconds):
            return tr._(
                "Checking this file took longer than {n} s, so I stopped. Nothing was changed.",
                n=seconds,
            )


def translated(tr: Translator, message: str) -> str:
    """A checker's message in the reader's language (its parameters too, when they are
    messages themselves); a plain string (from a part not yet worded for translation) as is."""
    if not isinstance(message, Msg):
        return message
    params = {k: translated(tr, v) if isinstance(v, Msg) else v for k, v in message.params.items()}
    if message.plural is not None:
        return tr.ngettext(message.msgid, message.plural, message.n, **params)
    return tr._(message.msgid, **params)


def _field(tr: Translator, name: str) -> str:
    words = {
        "prompt": tr._("prompt"),
        "explanation": tr._("explanation"),
        "answer": tr._("answer"),
        "options": tr._("options"),
        "kind": tr._("kind of question"),
        "unit": tr._("unit"),
        "image": tr._("picture"),
        "title": tr._("title"),
        "description": tr._("description"),
        "id": tr._("quiz id"),
        "guide": tr._("guide"),
        "level": tr._("level"),
        "languages": tr._("languages"),
        "questions": tr._("questions"),
        "file": tr._("picture file"),
        "same_as_source": tr._("same_as_source"),
        "value": tr._("value"),
        "tolerance": tr._("tolerance"),
        "low": tr._("low end"),
        "high": tr._("high end"),
    }
    return words.get(name) or tr._("“{key}”", key=name)


def place(tr: Translator, key: str, lang: str = "") -> str:
    """A checker key in words: questions.sum.options.b -> question « sum », option B; a
    converted file's q3 -> question 3; "" when the key names nothing."""
    parts = [p for p in key.split(".") if p] if key else []
    words: list[str] = []
    if lang:
        words.append(tr._("{language} translation", language=tr.language_label(lang)))
    if parts[:1] == ["questions"] and len(parts) >= 2:
        qid, rest = parts[1], parts[2:]
        number = _QUESTION_ID.fullmatch(qid)
        words.append(tr._("question {n}", n=number[1]) if number else
                     tr._("question “{id}”", id=qid))  # fmt: skip
        if rest[:1] == ["options"] and len(rest) >= 2:
            oid = rest[1]
            words.append(tr._("option {letter}", letter=oid.upper()) if len(oid) == 1 else
                         tr._("option “{id}”", id=oid))  # fmt: skip
        elif rest:
            words.append(_field(tr, rest[0]))
    elif parts:
        words.append(_field(tr, parts[0].split("[")[0]))
    return ", ".join(words)


def _problem(tr: Translator, problem: UploadProblem, limits: UploadLimits) -> str:
    match problem.code:
        case "not_utf8":
            what = tr._("the file is not UTF-8 text: save it as UTF-8 and send it again")
        case "unknown_format":
            what = tr._(
                "I read quiz files in our YAML format (.yaml), GIFT (.gift, or .txt with "
                "braces), Aiken (.txt), our CSV layout (.csv), Moodle XML (.xml), QTI 2.1 (.zip) "
                "and Anki (.apkg, .colpkg)"
            )
        case "no_questions":
            what = tr._("I found no question I can use in this file")
        case "no_explanation":
            what = tr._("no explanation: the right answer is shown after each answer instead")
        case "not_one_quiz":
            what = tr._("the file must hold exactly one quiz")
        case "too_many_questions":
            what = tr._("too many questions: at most {n}", n=limits.max_questions)
        case "too_big":
            what = tr._("the file is too big: at most {n} KB", n=limits.max_bytes // 1024)
        case "skipped":
            what = tr._("question left out: {problem}", problem=translated(tr, problem.detail))
        case _:
            what = translated(tr, problem.detail)
    where = place(tr, problem.key, problem.lang)
    if where:
        what = tr._("{place}: {problem}", place=where, problem=what)
    if problem.line > 0:
        return tr._("Line {line}: {problem}", line=problem.line, problem=what)
    return what


def _more(tr: Translator) -> Callable[[int], str]:
    return lambda n: tr.ngettext("…and {n} more problem", "…and {n} more problems", n)


def problems(tr: Translator, name: str, checked: CheckedUpload, limits: UploadLimits) -> str:
    """The file was refused: every problem with its line, then that nothing changed."""
    head = [
        "❌ "
        + tr._(
            "{file}: this quiz cannot be used. Nothing was changed.",
            file=html.escape(isolate_if_needed(name)),
        )
    ]
    items = ["• " + html.escape(_problem(tr, p, limits)) for p in checked.errors]
    return bounded(head, items, _more(tr))


def stored(
    tr: Translator, name: str, stored_: Stored, limits: UploadLimits, chat_id: int
) -> Screen:
    """The quiz is the group's now: the summary, and Push / Schedule buttons."""
    text = summary(tr, name, stored_.checked, limits, stored_.typed_id, stored_.quiz.guide)
    if stored_.version > 1:
        note = _new_version(tr, stored_.version) + _kept_note(tr, stored_.kept)
        text = fit_html(text + "\n" + html.escape(note))
    rows = [_push_row(tr, chat_id, stored_.typed_id)]
    if not stored_.checked.names_guide:
        keys = list(GUIDE_KEYS)

        def in_group(index: int | None) -> cb.Callback:
            return cb.Setting(chat_id, keys[-1 if index is None else index], stored_.typed_id)

        rows += _guide_rows(tr, stored_.checked.guides, stored_.quiz.guide, in_group)
    return Screen(text, InlineKeyboardMarkup(rows))


def _push_row(tr: Translator, chat_id: int, typed_id: str) -> list[InlineKeyboardButton]:
    return [
        button("▶️ " + tr._("Push"), cb.Setting(chat_id, "push", typed_id)),
        button("🗓 " + tr._("Schedule"), cb.Setting(chat_id, "sched", typed_id)),
    ]


def _guide_rows(
    tr: Translator,
    guides: Mapping[str, GuidePath],
    current: GuidePath | None,
    data: Callable[[int | None], cb.Callback],
) -> list[list[InlineKeyboardButton]]:
    """One button per guide of the deployment (the first 26), and "No guide" once one is set:
    the file names none, so an admin says which one the quiz belongs to, if any. `data`: the
    button's callback for the i-th guide (None: no guide)."""
    rows = [
        [button("📖 " + guide.title.get(tr.lang), data(index))]
        for index, guide in enumerate(list(guides.values())[: len(GUIDE_KEYS) - 1])
        if current is None or guide.id != current.id
    ]
    if current is not None:
        rows.append([button("🚫 " + tr._("No guide"), data(None))])
    return rows


def guide_line_of(tr: Translator, guide: GuidePath | None) -> str:
    """The summary's line about the quiz's guide."""
    if guide is not None:
        return guide_line(tr, guide, tr.lang)
    return html.escape(tr._("📖 No guide: the file names none, so the quiz links to no guide."))


def guide_picked(
    tr: Translator, shown: str, chat_id: int, typed_id: str, quiz: Quiz, *, in_group: bool = True
) -> Screen:
    """The summary once an admin picked the quiz's guide (or none): its guide line says so, and
    only Push and Schedule are left (in a private chat, no button)."""
    lines = [line for line in shown.split("\n") if not line.startswith("📖")]
    lines += ["", guide_line_of(tr, quiz.guide)]
    text = fit_html("\n".join(lines))
    if not in_group:
        return Screen(text)
    return Screen(text, InlineKeyboardMarkup([_push_row(tr, chat_id, typed_id)]))


def _kept_note(tr: Translator, kept: KeptIds | None) -> str:
    """What became of the last version's questions (plain text, a line each after a line
    feed; "" for a quiz new to the group)."""
    if kept is None:
        return ""
    counts = [
        tr.ngettext("{n} question unchanged", "{n} questions unchanged", kept.unchanged),
        tr.ngettext("{n} question changed", "{n} questions changed", len(kept.changed)),
        tr.ngettext("{n} question added", "{n} questions added", len(kept.added)),
        tr.ngettext("{n} question removed", "{n} questions removed", len(kept.removed)),
    ]
    head = tr._(
        "Its questions were matched to the last version's: answers, review cards and reports "
        "stay with their questions; a removed question leaves the members' reviews."
    )
    return "\n" + head + "\n" + "\n".join("• " + line for line in counts)


def _new_version(tr: Translator, version: int) -> str:
    return tr._(
        "New version {n} of this group's quiz; a run already under way finishes on the "
        "version it started with.",
        n=version,
    )


def summary(
    tr: Translator,
    name: str,
    checked: CheckedUpload,
    limits: UploadLimits,
    typed_id: str,
    guide: GuidePath | None,
    *,
    buttons: bool = True,
) -> str:
    """The file is a sound quiz: its title, size, languages, guide and warnings (and, when the
    file names no guide and the guide `buttons` follow, a word on them)."""
    quiz = checked.quiz
    assert quiz is not None
    picking = [] if checked.names_guide or not buttons else [html.escape(tr._(
        "📖 Tap the guide this quiz belongs to, if one does."))]  # fmt: skip
    lines = [
        "✅ " + tr._("{file} is a sound quiz.", file=html.escape(isolate_if_needed(name))),
        tr._("Title: {title}", title=html.escape(quiz_title(quiz, tr.lang))),
        tr._("Quiz id: {id}", id=html.escape(typed_id)),
        tr.ngettext("{n} question", "{n} questions", len(quiz.questions)),
        tr._(
            "Languages: {names}",
            names=", ".join(tr.language_label(code) for code in quiz.languages),
        ),
        guide_line_of(tr, guide),
    ]
    warnings = checked.warnings
    if not warnings:
        return fit_html("\n".join([*lines, *picking]))
    lines.append(tr.ngettext("{n} warning:", "{n} warnings:", len(warnings)))
    items = ["• " + html.escape(_problem(tr, p, limits)) for p in warnings]
    text = bounded(lines, items, _more(tr), limit=MESSAGE_MAX_CHARS - SUMMARY_ROOM)
    return "\n".join([text, *picking])


def shipped_id(tr: Translator, quiz_id: str) -> str:
    return html.escape(
        tr._(
            "The quiz id {id} is already one of the bot's own quizzes: give yours another id "
            "and send it again. Nothing was changed.",
            id=quiz_id,
        )
    )


def stored_privately(
    tr: Translator,
    name: str,
    stored_: Stored,
    limits: UploadLimits,
    group_title: str,
    chat_id: int,
) -> Screen:
    """The summary of a file sent privately for group `chat_id`, with the guide buttons when
    the file names no guide (private buttons: the group's would not work here)."""
    text = summary(tr, name, stored_.checked, limits, stored_.typed_id, stored_.quiz.guide)
    if stored_.version > 1:
        text += "\n" + html.escape(_new_version(tr, stored_.version) + _kept_note(tr, stored_.kept))
    note = tr._(
        "It belongs to {group} now: /push {id} there plays it, /schedule {id} ... schedules it.",
        group=isolate(group_title or "?"),  # escaped with the note (shown_name would twice)
        id=stored_.typed_id,
    )
    text = fit_html(text + "\n" + html.escape(note))
    if stored_.checked.names_guide:
        return Screen(text)

    def privately(index: int | None) -> cb.Callback:
        return cb.UploadGuide(chat_id, -1 if index is None else index, stored_.typed_id)

    rows = _guide_rows(tr, stored_.checked.guides, stored_.quiz.guide, privately)
    return Screen(text, InlineKeyboardMarkup(rows))
