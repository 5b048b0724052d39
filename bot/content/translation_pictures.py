"""Which picture file an imported translation names: the source's, or one of its own.

A translation shows the source's picture unless it names its own under content/media/ (`file:`
in `<quiz>.<lang>.yaml`: a diagram with French labels, say). A translator's round trip
(`content export Q --format F --lang fr`, edit, `content import … --lang fr --id Q --force`) must
not quietly swap the French diagram back to the English one, so what the import decides is:

- GIFT, CSV and Aiken carry no picture: the translation keeps the picture the file it replaces
  named (`translation_keep`), file and alt text; the file under media/ is left as it is.
- Moodle XML and QTI (and an Anki deck) carry the bytes of the picture shown in that language,
  its own when it has one (`exporter`). Bytes equal to the source's picture: the source's, no
  `file:`. Equal to the picture the replaced file named: that file, unchanged, nothing written.
  Other bytes: the translator's new picture, held to the same rules as any imported picture
  and written under media/ (`MediaPlan`); one it refuses is named by line, and the picture the
  replaced file named is kept (the source's if it named none). An alt text the import lacks
  (an LMS that dropped it) is the replaced file's (`translation_keep`).

A picture on a question the source shows none with is dropped: the checker refuses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from bot.content.formats.draft import DraftPicture, DraftQuestion, DraftQuiz
from bot.content.import_media import MediaPlan
from bot.content.media import read_media


def place_translation(
    translation: DraftQuiz,
    source: DraftQuiz,
    own_files: Mapping[tuple[str, str], str],
    pictures: MediaPlan,
    content: Path,
) -> DraftQuiz:
    """`translation` with each picture's `name` the file it names ("" for the source's), as the
    module's docstring says. `own_files` are the replaced file's own pictures (`Kept`)."""
    theirs = {q.id: q for q in source.questions}
    questions = []
    for question in translation.questions:
        english = theirs.get(question.id)
        image, shown = (
            _placed(translation.id, question, field, english, own_files, pictures, content)
            for field in ("image", "explanation_image")
        )
        questions.append(replace(question, image=image, explanation_image=shown))
    return replace(translation, questions=tuple(questions))


def _placed(
    quiz_id: str,
    question: DraftQuestion,
    field: str,
    english: DraftQuestion | None,
    own_files: Mapping[tuple[str, str], str],
    pictures: MediaPlan,
    content: Path,
) -> DraftPicture | None:
    """The picture `field` of `question`, named as the module's docstring says."""
    kept = own_files.get((question.id, field), "")  # the replaced file's own picture, if any
    picture: DraftPicture | None = getattr(question, field)
    source: DraftPicture | None = getattr(english, field) if english is not None else None
    if picture is None or source is None or english is None:
        return None
    if not picture.data and picture.name in ("", kept):
        return picture  # from the replaced file: its own picture, or the source's
    carried = _digest(picture.data)
    if carried == _source_digest(source, content):
        return DraftPicture("", b"", picture.alt)
    if kept and carried == _file_digest(kept, content):
        return DraftPicture(kept, b"", picture.alt)
    # The translator's new picture, held to the rules on the source's kind; refused: named by
    # line (`pictures.problems`), and the replaced file's own picture kept.
    placed = pictures.place(quiz_id, replace(english, line=question.line), picture)
    return DraftPicture(placed.name if placed is not None else kept, b"", picture.alt)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _source_digest(picture: DraftPicture, content: Path) -> str | None:
    """The source's picture: carried by this import, or its file under media/."""
    return _digest(picture.data) if picture.data else _file_digest(picture.name, content)


def _file_digest(name: str, content: Path) -> str | None:
    """A file under media/ as the checker reads it (None when it cannot: nothing matches)."""
    found, _ = read_media(content, name)
    return found.sha256 if found is not None else None
