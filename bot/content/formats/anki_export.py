"""Quiz drafts -> an Anki package (.apkg) with genanki: one deck per quiz and language.

Every question is a note of one two-field note type ("quizbot", Front and Back):
- a flashcard: the prompt on the front, the explanation on the back;
- a choice question (single, true/false, select-all): the prompt on the front; the right
  option(s), then the explanation, on the back (Anki asks nothing: the learner recalls the
  answer, so the wrong options are not written). Read back, it is a flashcard;
- a number question: the back is the value ± tolerance (or low–high) and the unit, then the
  explanation.
Pictures go into the package's media and the field as `<img src alt>`. Our text becomes HTML
(`code` -> <code>, code blocks -> <pre><code class="language-x">, line breaks -> <br>), which
`html_text` reads back to the same text.

Ids are derived from the quiz id (note type, deck) and the question id (note guid
`quizbot:<quiz>:<lang>:<question>`), so exporting a quiz again and importing it into Anki updates
its notes instead of duplicating them, and importing the package back here keeps the question
ids. genanki fills the SQLite collection (its public `Package.write_to_db`); the zip is written
here, with fixed member dates, and nothing is left in the temporary folder.
"""

from __future__ import annotations

import hashlib
import html
import io
import itertools
import json
import os
import re
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

import genanki

from bot.content.formats.draft import (
    FLASHCARD,
    NUMBER,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
)
from bot.core.kinds import NumberAnswer

_FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)\n(.*?)\n```$", re.MULTILINE | re.DOTALL)
_CODE = re.compile(r"`([^`\n]+)`")
_ZIP_DATE = (2026, 1, 1, 0, 0, 0)
CSS = (
    ".card { font-family: sans-serif; font-size: 20px; text-align: center; color: black;"
    " background-color: white; }\npre { text-align: left; }\n"
)
_TEMPLATE = {
    "name": "Card 1",
    "qfmt": "{{Front}}",
    "afmt": "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}",
}


def stable_id(*parts: str) -> int:
    """A positive 31-bit id from names (genanki's model and deck ids live in 2**30..2**31)."""
    digest = hashlib.sha256(":".join(("quizbot", *parts)).encode("utf-8")).digest()
    return (1 << 30) | (int.from_bytes(digest[:4], "big") & ((1 << 30) - 1))


def write(quizzes: Sequence[DraftQuiz]) -> bytes:
    """The .apkg bytes: legacy schema 11 (`collection.anki2`), which every Anki version reads."""
    several = len({quiz.lang for quiz in quizzes}) > 1
    media: dict[str, bytes] = {}
    decks = []
    for quiz in quizzes:
        title = f"{quiz.title} ({quiz.lang})" if several else quiz.title
        model = genanki.Model(
            stable_id("model", quiz.id),
            "quizbot",
            fields=[{"name": "Front"}, {"name": "Back"}],
            templates=[_TEMPLATE],
            css=CSS,
        )
        deck_id = stable_id("deck", quiz.id, quiz.lang)
        deck = genanki.Deck(deck_id, title, text_html(quiz.description))
        for question in quiz.questions:
            front = text_html(question.prompt) + _picture(question.image, media)
            back = text_html(back_text(question)) + _picture(question.explanation_image, media)
            deck.add_note(
                genanki.Note(
                    model=model,
                    fields=[front, back],
                    guid=f"quizbot:{quiz.id}:{quiz.lang}:{question.id}",
                    tags=[tag.replace(" ", "_") for tag in question.tags if tag.strip()],
                )
            )
        decks.append(deck)
    return _package(genanki.Package(decks), media)


def back_text(question: DraftQuestion) -> str:
    """What Anki shows after the front: the answer (unless a flashcard), then the explanation."""
    if question.kind == FLASHCARD:
        answer = ""
    elif question.kind == NUMBER and question.number is not None:
        answer = number_text(question.number, question.unit or question.number.unit)
    else:
        answer = "\n".join(option.text for option in question.options if option.correct)
    return "\n\n".join(part for part in (answer, question.explanation) if part)


def number_text(key: NumberAnswer, unit: str) -> str:
    """`0.5 ± 0.05 s`, `64`, `0.3–0.34 s`: digits and signs only, readable in every language."""

    def num(value: float) -> str:
        return format(value, ".15g")

    if key.value is not None:
        shown = num(key.value) + (f" ± {num(key.tolerance)}" if key.tolerance else "")
    else:
        assert key.low is not None and key.high is not None
        shown = f"{num(key.low)}–{num(key.high)}"
    return f"{shown} {unit}" if unit else shown


def text_html(text: str) -> str:
    """Our text as Anki's HTML: escaped, code spans and blocks as elements, lines as <br>."""
    out, at = [], 0
    for block in _FENCE.finditer(text):
        # <pre> is a block: the line breaks around it are implied (a <br> would double them).
        out.append(_inline(text[at : block.start()].removesuffix("\n").removeprefix("\n")))
        css = f' class="language-{block[1]}"' if block[1] else ""
        out.append(f"<pre><code{css}>{html.escape(block[2], quote=False)}</code></pre>")
        at = block.end()
    out.append(_inline(text[at:].removeprefix("\n") if at else text))
    return "".join(out)


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    return _CODE.sub(r"<code>\1</code>", escaped).replace("\n", "<br>")


def _picture(picture: DraftPicture | None, media: dict[str, bytes]) -> str:
    if picture is None:
        return ""
    base = Path(picture.name).name or "picture.png"
    stem, ext = os.path.splitext(base)
    name, n = base, 2
    while name in media and media[name] != picture.data:  # another picture has this name
        name, n = f"{stem}-{n}{ext}", n + 1
    media[name] = picture.data
    alt = f' alt="{html.escape(picture.alt)}"' if picture.alt else ""
    return f'<br><img src="{html.escape(name)}"{alt}>'


def _package(package: genanki.Package, media: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="quizbot-anki-") as folder:
        path = Path(folder) / "collection.anki2"
        connection = sqlite3.connect(path)
        try:
            now = time.time()
            package.write_to_db(connection.cursor(), now, itertools.count(int(now * 1000)))
            connection.commit()
        finally:
            connection.close()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            _member(archive, "collection.anki2", path.read_bytes())
            names = list(media)
            _member(archive, "media", json.dumps({str(i): n for i, n in enumerate(names)}).encode())
            for index, name in enumerate(names):
                _member(archive, str(index), media[name])
    return out.getvalue()


def _member(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    archive.writestr(zipfile.ZipInfo(name, _ZIP_DATE), data, zipfile.ZIP_DEFLATED)
