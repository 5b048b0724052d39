"""What a translation re-imported from a format keeps of the translation file it replaces.

GIFT, Aiken and CSV carry questions, options and explanations, but not a quiz's description
(GIFT, Aiken), a number question's unit (GIFT, Aiken, CSV), a picture (its alt text, or the
translation's own file: a diagram with French labels), nor our file's `same_as_source` list and
`reviewed` flag. A translation exported to one of them, edited, and imported again
(`content export Q --format gift --lang fr`, then `content import ... --lang fr --id Q`) must
not lose them: the README promises a round trip, and the checker would refuse the result
("description: missing fr translation"). So the new file takes each of those from the file it
replaces when the import has none; what the import has always wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from bot.content.formats.draft import (
    NUMBER,
    OPTION_IDS,
    SINGLE,
    TRUE_FALSE,
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
)
from bot.content.problems import Problems
from bot.content.schema import ImageTranslation, QuestionTranslation, QuizTranslation
from bot.content.sources import parse_file


@dataclass(frozen=True, slots=True)
class Kept:
    """The translation to write, and the file-only keys kept from the one it replaces."""

    quiz: DraftQuiz
    same_as_source: tuple[str, ...] = ()
    reviewed: bool = True
    # (question id, image field) -> the picture of its own the replaced file named: a picture
    # the import carries with the same bytes is that file (`translation_pictures`).
    own_files: dict[tuple[str, str], str] = field(default_factory=dict)


def kept_from(
    path: Path,
    draft: DraftQuiz,
    order: Sequence[str] = (),
    not_carried: frozenset[str] = frozenset(),
) -> Kept:
    """`draft` with what it lacks taken from the translation file at `path` (if there is a
    sound one): title, description, units, explanations, pictures (alt text and own file),
    `same_as_source`, `reviewed`, and the questions the format could not carry (`not_carried`:
    a select-all or number question in CSV or Aiken), all in the source's question order
    (`order`)."""
    if not path.is_file():
        return Kept(draft)
    parsed = parse_file(path, QuizTranslation, Problems())
    if parsed is None:  # a broken file: nothing to keep, the checker says what is wrong
        return Kept(draft)
    old = parsed.model
    questions = []
    for question in draft.questions:
        before = old.questions.get(question.id)
        if before is not None:
            question = replace(
                question,
                unit=question.unit or (before.unit or "" if question.kind == NUMBER else ""),
                explanation=question.explanation or before.explanation or "",
                image=_merged(question.image, before.image),
                explanation_image=_merged(question.explanation_image, before.explanation_image),
            )
        questions.append(question)
    have = {q.id for q in questions}
    for qid in order:
        before = old.questions.get(qid)
        if (
            qid in not_carried
            and qid not in have
            and before is not None
            and (carried := _carried(qid, before))
        ):
            questions.append(carried)
    place = {qid: n for n, qid in enumerate(order)}
    questions.sort(key=lambda q: place.get(q.id, len(place)))
    quiz = replace(
        draft,
        title=draft.title or old.title or "",
        description=draft.description or old.description or "",
        questions=tuple(questions),
    )
    own_files = {
        (qid, name): picture.file
        for qid, before in old.questions.items()
        for name, picture in (
            ("image", before.image),
            ("explanation_image", before.explanation_image),
        )
        if picture is not None and picture.file is not None
    }
    return Kept(quiz, tuple(old.same_as_source), old.reviewed, own_files)


def _carried(qid: str, before: QuestionTranslation) -> DraftQuestion | None:
    """The old file's translation of a question, as a draft the writer puts back unchanged;
    None when its option keys are not the writer's (`true`/`false`, or a, b, c... in order)."""
    keys = tuple(before.options)
    kind = TRUE_FALSE if keys == ("true", "false") else NUMBER if not keys else SINGLE
    if kind == SINGLE and keys != tuple(OPTION_IDS[: len(keys)]):
        return None
    return DraftQuestion(
        qid,
        before.prompt or "",
        tuple(DraftOption(text) for text in before.options.values()),
        before.explanation or "",
        kind=kind,
        unit=before.unit or "",
        image=_kept(before.image),
        explanation_image=_kept(before.explanation_image),
    )


def _merged(carried: DraftPicture | None, before: ImageTranslation | None) -> DraftPicture | None:
    """The picture the import carries (Moodle, QTI), its alt text from the old file when the
    import has none; else the old file's picture (GIFT, CSV and Aiken carry none)."""
    if carried is None:
        return _kept(before)
    if carried.alt or before is None or not before.alt:
        return carried
    return replace(carried, alt=before.alt)


def _kept(picture: ImageTranslation | None) -> DraftPicture | None:
    """A picture as the old file gives it, for the writer to put back: its alt text, and its
    own file under media/ (`name`; "" when the translation shows the source's picture). No
    bytes: the file is on disk already and stays as it is."""
    if picture is None or (not picture.alt and picture.file is None):
        return None
    return DraftPicture(picture.file or "", b"", picture.alt or "")
