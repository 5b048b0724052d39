"""A translation the import leaves alone, brought in line with the English source it replaces.

When a source is imported again (`content import ... --force`) from a file that holds no
translation (an English sheet, an Aiken file), the translation files stay as they are. Two
things can then be wrong with them. A question whose English changed still has the translation
of the old English: the file is marked `reviewed: false` (the flag the bot and the checker's
coverage table already read: the learner is told the translation awaits review) and a comment
above the question says which one to look at. And with Aiken, which cannot carry translations
at all, a question (or an option) the teacher removed must go from the translations as well,
or the checker refuses the quiz for translating a question the source no longer has.

A translation that only needs the flag and the comments is edited line by line, so its diff is
those lines alone; one that loses a question is written again (`translation_yaml`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from bot.content.formats.draft import DraftQuiz
from bot.content.problems import Problems
from bot.content.schema import QuizTranslation
from bot.content.sources import parse_file
from bot.content.translation_yaml import translation_file
from bot.content.translations import translated_strings
from bot.content.yaml_nodes import KeyPath, key_str
from bot.content.yaml_writer import option_ids

REVIEW_COMMENT = "  # review: the English of this question changed; check this translation"
_REVIEWED = re.compile(r"(?m)^reviewed:.*$")


def reviewed_again(
    path: Path, source: DraftQuiz, reworded: Collection[str], *, drop: bool
) -> str | None:
    """The new text of the translation at `path` (None: it stays as it is): `reworded`
    questions marked for review; with `drop`, the questions and options `source` no longer has
    left out."""
    if not path.is_file():
        return None
    parsed = parse_file(path, QuizTranslation, Problems())
    if parsed is None:  # a broken file: the checker says what is wrong with it
        return None
    model = parsed.model
    review = [qid for qid in reworded if qid in model.questions]
    strings = translated_strings(model)
    stale = _stale(strings, source) if drop else set()
    if not review and not stale:
        return None
    old = path.read_text(encoding="utf-8")
    whole = {str(at[1]) for at in stale if len(at) == 2}
    cut = _without(old, whole) if stale == _all_of(strings, whole) else None
    if cut is not None and not any(key.split(".")[1] in whole for key in model.same_as_source
                                   if key.startswith("questions.")):  # fmt: skip
        text = _flagged(cut) if review else cut
    elif stale:
        gone = {key_str(at) for at in stale}
        text = translation_file(
            {at: s for at, s in strings.items() if at not in stale},
            [at for at in strings if at not in stale],
            header=[line for line in _leading(old)],
            reviewed=model.reviewed and not review,
            same_as_source=[
                key
                for key in model.same_as_source
                if key not in gone and not any(key.startswith(g + ".") for g in gone)
            ],
            image_files={
                (qid, name): image.file
                for qid, question in model.questions.items()
                if ("questions", qid) not in stale
                for name in ("image", "explanation_image")
                if (image := getattr(question, name)) is not None and image.file is not None
            },
        )
    else:
        text = _flagged(old)
    return _commented(text, review)


def _stale(strings: dict[KeyPath, str], source: DraftQuiz) -> set[KeyPath]:
    """The translation's questions the source no longer has (as `("questions", id)`, with all
    their keys) and options past the source's."""
    options = {q.id: set(option_ids(q)[: len(q.options)]) for q in source.questions}
    stale: set[KeyPath] = set()
    for at in strings:
        if at[0] != "questions":
            continue
        qid = str(at[1])
        if qid not in options:
            stale.update({("questions", qid), at})
        elif at[2] == "options" and options[qid] and str(at[3]) not in options[qid]:
            stale.add(at)
    return stale


def _all_of(strings: dict[KeyPath, str], qids: set[str]) -> set[KeyPath]:
    """Every key of the questions `qids`, as `_stale` names them."""
    keys: set[KeyPath] = {("questions", qid) for qid in qids}
    return keys | {at for at in strings if at[0] == "questions" and str(at[1]) in qids}


def _without(text: str, qids: set[str]) -> str | None:
    """`text` without the blocks of the questions `qids` (from the key's line to the next
    question's); None when one cannot be found as a plain `  id:` line."""
    lines = text.splitlines(keepends=True)
    for qid in qids:
        key = re.compile(rf"^  {re.escape(qid)}:\s*$")
        start = next((i for i, line in enumerate(lines) if key.match(line)), None)
        if start is None:
            return None
        end = start + 1
        while end < len(lines) and not re.match(r"^ {0,2}[^\s#]", lines[end]):
            end += 1
        if start > 0 and lines[start - 1].rstrip("\n") == REVIEW_COMMENT:
            start -= 1
        del lines[start:end]
    return "".join(lines)


def _leading(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return lines


def _flagged(text: str) -> str:
    """`text` with `reviewed: false`, in place of its `reviewed:` line or after its leading
    comments."""
    if _REVIEWED.search(text):
        return _REVIEWED.sub("reviewed: false", text, count=1)
    lines = text.splitlines(keepends=True)
    at = len(_leading(text))
    return "".join([*lines[:at], "reviewed: false\n", *lines[at:]])


def _commented(text: str, review: list[str]) -> str:
    lines = text.splitlines(keepends=True)
    for qid in review:
        key = re.compile(rf"^  {re.escape(qid)}:\s*$")
        for index, line in enumerate(lines):
            if key.match(line):
                if index == 0 or lines[index - 1].rstrip("\n") != REVIEW_COMMENT:
                    lines.insert(index, REVIEW_COMMENT + "\n")
                break
    return "".join(lines)
