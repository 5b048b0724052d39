"""Quiz drafts -> the YAML of a quiz source and of its translations (what `import` writes).

Every string is written double-quoted (JSON's escapes are a subset of YAML's), so no text can
turn into YAML syntax, a number or a boolean; the loader reads it back unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.content.formats.draft import (
    FLASHCARD,
    MULTIPLE,
    NUMBER,
    OPTION_IDS,
    TRUE_FALSE,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
)
from bot.core.kinds import NumberAnswer

_NULL_KEYS = {"null", "~"}


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _key(key: str) -> str:
    return _q(key) if key.casefold() in _NULL_KEYS else key


def option_ids(question: DraftQuestion) -> str | tuple[str, ...]:
    """The ids a source file gives the options of `question`, in order."""
    return ("true", "false") if question.kind == TRUE_FALSE else OPTION_IDS


def source_yaml(
    quiz: DraftQuiz, *, guide: str, level: str, languages: Sequence[str], origin: str
) -> str:
    """A quiz source: ids, answer key and the strings of `quiz` (meant to be English)."""
    lines = [
        f"# Imported by `quizbot content import` from {origin}.",
        f"# Translations live beside it in {quiz.id}.<lang>.yaml.",
        f"id: {_key(quiz.id)}",
        f"guide: {_key(guide)}",
        f"level: {level}",
        f"languages: [{', '.join(languages)}]",
        f"title: {_q(quiz.title)}",
        f"description: {_q(quiz.description or quiz.title)}",
        "",
        "questions:",
    ]
    for question in quiz.questions:
        lines.append(f"  {_key(question.id)}:")
        lines += _tags(question)
        if question.kind == NUMBER and question.number is not None:
            lines.append(f"    kind: {NUMBER}")
            lines.append(f"    prompt: {_q(question.prompt)}")
            lines.append(f"    answer: {_number_key(question.number)}")
            if question.unit:
                lines.append(f"    unit: {_q(question.unit)}")
            lines.append(f"    explanation: {_q(question.explanation)}")
            lines.append("")
            continue
        if question.kind == FLASHCARD:  # a front and a back: no options, no answer
            lines.append(f"    kind: {FLASHCARD}")
            lines.append(f"    prompt: {_q(question.prompt)}")
            lines += _picture("image", question.image)
            lines.append(f"    explanation: {_q(question.explanation)}")
            lines += _picture("explanation_image", question.explanation_image)
            lines.append("")
            continue
        if question.kind in (TRUE_FALSE, MULTIPLE):
            lines.append(f"    kind: {question.kind}")
        lines.append(f"    prompt: {_q(question.prompt)}")
        lines += _picture("image", question.image)
        lines.append("    options:")
        for option_id, option in zip(option_ids(question), question.options, strict=False):
            lines.append(f"      {option_id}: {_q(option.text)}")
        answer = option_ids(question)[question.answer]
        if question.kind == MULTIPLE:  # every right option: answer: [a, c]
            answer = (
                "[" + ", ".join(option_ids(question)[i] for i in sorted(question.answers)) + "]"
            )
        lines.append(f"    answer: {_q(answer) if question.kind == TRUE_FALSE else answer}")
        lines.append(f"    explanation: {_q(question.explanation)}")
        lines += _picture("explanation_image", question.explanation_image)
        lines.append("")
    return "\n".join(lines)


def _picture(field: str, picture: DraftPicture | None) -> list[str]:
    """A source's `image:`: its file under media/ and its alt text ("" when the file gave
    none: the checker then asks for it)."""
    if picture is None:
        return []
    return [f"    {field}:", f"      file: {_q(picture.name)}", f"      alt: {_q(picture.alt)}"]


def _translated_picture(field: str, picture: DraftPicture | None) -> list[str]:
    """A translation's `image:`: its alt text, and `file:` only for a picture of its own
    (`name`; "" when it shows the source's). Nothing when it has neither."""
    if picture is None or not (picture.name or picture.alt):
        return []
    lines = [f"    {field}:"]
    if picture.name:
        lines.append(f"      file: {_q(picture.name)}")
    if picture.alt:
        lines.append(f"      alt: {_q(picture.alt)}")
    return lines


def _tags(question: DraftQuestion) -> list[str]:
    """The file's own labels as a comment (quizbot has no tags; a comment keeps them in sight)."""
    if not question.tags:
        return []
    words = [" ".join(tag.split()) for tag in question.tags]
    return ["    # tags: " + ", ".join(word for word in words if word)]


def translation_yaml(
    quiz: DraftQuiz, *, origin: str, same_as_source: Sequence[str] = (), reviewed: bool = True
) -> str:
    """A translation file: the same keys as the source, strings only (never the answer); the
    keys rightly the same as English, and `reviewed: false`, when the file it replaces had
    them (`translation_keep`)."""
    lines = [
        f"# {quiz.lang} strings, imported by `quizbot content import` from {origin}.",
    ]
    if quiz.title:
        lines.append(f"title: {_q(quiz.title)}")
    if quiz.description:
        lines.append(f"description: {_q(quiz.description)}")
    lines += ["", "questions:"]
    for question in quiz.questions:
        lines.append(f"  {_key(question.id)}:")
        lines.append(f"    prompt: {_q(question.prompt)}")
        if question.unit:
            lines.append(f"    unit: {_q(question.unit)}")
        lines += _translated_picture("image", question.image)
        if question.options:
            lines.append("    options:")
        for option_id, option in zip(option_ids(question), question.options, strict=False):
            lines.append(f"      {option_id}: {_q(option.text)}")
        if question.explanation:
            lines.append(f"    explanation: {_q(question.explanation)}")
        lines += _translated_picture("explanation_image", question.explanation_image)
        lines.append("")
    if same_as_source:
        lines += ["same_as_source:", *(f"  - {_q(key)}" for key in same_as_source), ""]
    if not reviewed:
        lines += ["reviewed: false", ""]
    return "\n".join(lines)


def _number_key(key: NumberAnswer) -> str:
    """`{value: 3.5, tolerance: 0.1}` or `{low: 1, high: 5}` (numbers as text, "." decimal)."""

    def num(value: float) -> str:
        return _q(format(value, ".15g"))

    if key.value is not None:
        tolerance = f", tolerance: {num(key.tolerance)}" if key.tolerance else ""
        return f"{{value: {num(key.value)}{tolerance}}}"
    assert key.low is not None and key.high is not None
    return f"{{low: {num(key.low)}, high: {num(key.high)}}}"
