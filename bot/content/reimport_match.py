"""A quiz re-imported from a format without question ids, matched to the source it replaces.

Aiken carries no question ids and no explanations. A teacher who exports a quiz to Aiken, edits
one question and imports it again over the same quiz (`--force`) got every question back as
new (`q1`, `q2`... with the right option standing in for each explanation): the history stored
under the old ids, the explanations and every translation no longer matched anything. So each
question of the file is matched to one of the replaced source's, in three passes: the same
prompt; else the same position when most options are the same (the prompt was reworded); else
the most similar question (prompt and options, `difflib`) above `SIMILAR`. A matched question
takes the old id and explanation; the others are new, under an id no question of the old
source had (answers stored under a removed question's id must not follow a new one). The
questions the format cannot carry are left to `source_keep`, as for any re-import. A group's
upload that replaces its quiz is matched by the same passes (`pairs`, through `kept_ids`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from bot.content.formats.draft import DraftQuestion, DraftQuiz, unique
from bot.content.problems import Msg
from bot.content.source_keep import NOT_CARRIED

# Formats whose questions have no id, and no explanation, of their own.
NO_IDS = frozenset({"aiken"})
SIMILAR = 0.6  # difflib ratio of prompt and options: below it, two questions are different
_MOST_PAIRS = 40_000  # similarity is quadratic: past this many pairs, the rest are new


@dataclass(frozen=True, slots=True)
class Matched:
    """The draft under the old ids, and what the teacher changed (question ids)."""

    quiz: DraftQuiz
    matched: int  # found unchanged
    changed: tuple[str, ...]  # found, with their English (or their key) edited
    reworded: tuple[str, ...]  # of `changed`, those whose text changed: translations to review
    added: tuple[str, ...]
    removed: tuple[str, ...]
    kept_explanations: frozenset[int]  # the file's lines whose question got its old explanation


# A question as the matching sees it: its prompt and its options' texts, spaces folded.
Texts = tuple[str, tuple[str, ...]]


def _norm(text: str) -> str:
    return " ".join(text.split())


def texts(prompt: str, options: Sequence[str]) -> Texts:
    """What the matching compares of a question (any format's, or a served quiz's)."""
    return _norm(prompt), tuple(_norm(o) for o in options)


def _texts(question: DraftQuestion) -> Texts:
    return texts(question.prompt, [o.text for o in question.options])


def _options_mostly_match(a: Texts, b: Texts) -> bool:
    mine, theirs = a[1], set(b[1])
    shared = sum(1 for text in mine if text in theirs)
    return shared > 0 and 2 * shared >= max(len(mine), len(theirs))


def _whole(question: Texts) -> str:
    prompt, options = question
    return "\n".join((prompt, *options))


def pairs(draft: Sequence[Texts], old: Sequence[Texts]) -> dict[int, int]:
    """New index -> old index, by the three passes of the module's docstring (each old question
    taken once); the new questions left out are new."""
    found: dict[int, int] = {}
    taken: set[int] = set()
    by_prompt: dict[str, list[int]] = {}
    for index, question in enumerate(old):
        by_prompt.setdefault(question[0], []).append(index)
    for index, question in enumerate(draft):
        same = [i for i in by_prompt.get(question[0], []) if i not in taken]
        if same:
            found[index] = same[0]
            taken.add(same[0])
    for index, question in enumerate(draft):
        if index in found or index >= len(old) or index in taken:
            continue
        if _options_mostly_match(question, old[index]):
            found[index] = index
            taken.add(index)
    left = [i for i in range(len(draft)) if i not in found]
    free = [i for i in range(len(old)) if i not in taken]
    if len(left) * len(free) > _MOST_PAIRS:
        return found
    scored = []
    for index in left:
        matcher = SequenceMatcher(None, "", _whole(draft[index]), autojunk=False)  # b is cached
        for other in free:
            matcher.set_seq1(_whole(old[other]))
            if matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR:
                ratio = matcher.ratio()
                if ratio >= SIMILAR:
                    scored.append((-ratio, index, other))
    for _, index, other in sorted(scored):
        if index not in found and other not in taken:
            found[index] = other
            taken.add(other)
    return found


def match(old: DraftQuiz, draft: DraftQuiz, fmt: str) -> Matched:
    """`draft` (read from `fmt`, one of `NO_IDS`) with its questions under `old`'s ids."""
    carried = [q for q in old.questions if q.kind not in NOT_CARRIED.get(fmt, frozenset())]
    found = pairs([_texts(q) for q in draft.questions], [_texts(q) for q in carried])
    ids = {q.id for q in old.questions}
    taken = set(ids)
    questions: list[DraftQuestion] = []
    changed: list[str] = []
    reworded: list[str] = []
    added: list[str] = []
    kept_lines: set[int] = set()
    for index, question in enumerate(draft.questions):
        theirs = carried[found[index]] if index in found else None
        if theirs is None:
            fresh = question.id if question.id not in taken else unique(question.id, taken)
            taken.add(fresh)
            questions.append(replace(question, id=fresh))
            added.append(fresh)
            continue
        if _texts(question) != _texts(theirs):
            reworded.append(theirs.id)
            changed.append(theirs.id)
        elif question.answers != theirs.answers:
            changed.append(theirs.id)
        explanation = theirs.explanation or question.explanation
        kept_lines.add(question.line)
        questions.append(replace(question, id=theirs.id, explanation=explanation))
    kept = {q.id for q in questions}
    removed = tuple(q.id for q in carried if q.id not in kept)
    # The format has no title either: the file's name is not one.
    quiz = replace(draft, questions=tuple(questions), title=old.title)
    unchanged = len(found) - len(changed)
    return Matched(quiz, unchanged, tuple(changed), tuple(reworded), tuple(added), removed,
                   frozenset(kept_lines))  # fmt: skip


def summary(quiz_id: str, found: Matched) -> list[Msg]:
    """What the import did with each question, for the command line and an upload's reply."""
    notes = [
        Msg.ngettext(
            "{id}: {n} question matched unchanged (its id, explanation and translations kept)",
            "{id}: {n} questions matched unchanged (their ids, explanations and translations kept)",
            found.matched,
            id=quiz_id,
        )
    ]
    if found.changed:
        notes.append(
            Msg.ngettext(
                "{id}: {n} question changed: {questions} (its id and explanation kept)",
                "{id}: {n} questions changed: {questions} (their ids and explanations kept)",
                len(found.changed),
                id=quiz_id,
                questions=", ".join(found.changed),
            )
        )
    if found.added:
        notes.append(
            Msg.ngettext(
                "{id}: {n} question added: {questions} (write its explanation and translations)",
                "{id}: {n} questions added: {questions} (write their explanations and "
                "translations)",
                len(found.added),
                id=quiz_id,
                questions=", ".join(found.added),
            )
        )
    if found.removed:
        notes.append(
            Msg.ngettext(
                "{id}: {n} question removed: {questions} (from its translations too)",
                "{id}: {n} questions removed: {questions} (from their translations too)",
                len(found.removed),
                id=quiz_id,
                questions=", ".join(found.removed),
            )
        )
    return notes
