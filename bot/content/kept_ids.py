"""A group's uploaded quiz replaced by a new file: which of its questions are the old ones.

Answers, item analysis, /top, review cards and problem reports key on question ids. A file in a
format without ids (Aiken; GIFT without `::titles::`; a CSV with an empty `id` column; a
Moodle file whose names are Q1, Q2...) numbers its questions `q1`, `q2`... by position, so a
question inserted at the top took the first one's id, and every answer and review card of the
old quiz moved to the question below it. Such positional ids are matched to the version they
replace, by the passes of `quizbot content import` (`reimport_match.pairs`): a match keeps its
old id, the others get an id the quiz never used (`used`: answers stored under a removed
question's id must never follow a new one). Ids the file wrote itself (YAML's, GIFT's titles)
are the author's and stand. The map (file id -> served id) is stored with the file, so the quiz
rebuilt from it at every start gets the same ids (`with_ids`). Pure.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.content.formats.draft import unique
from bot.content.reimport_match import Texts, pairs, texts
from bot.core.models import SOURCE_LANGUAGE, Question, Quiz

# The ids a format gives by position (`q3`), and `unique`'s suffixed ones (`q3-2`).
POSITIONAL = re.compile(r"q\d+(?:-\d+)*")
_OWN_IDS = frozenset({"yaml"})  # formats whose every question id is written by the author


@dataclass(frozen=True, slots=True)
class KeptIds:
    """The new version's question ids, and what changed (served ids)."""

    ids: Mapping[str, str]  # file id -> served id, every question of the new file
    unchanged: int
    changed: tuple[str, ...]  # kept their id, with their text or key edited
    added: tuple[str, ...]
    removed: tuple[str, ...]

    def stored(self) -> str | None:
        """The map as the store keeps it; None when every id is the file's own."""
        if all(file_id == served for file_id, served in self.ids.items()):
            return None
        return json.dumps(dict(self.ids), sort_keys=True, separators=(",", ":"))


def _texts(question: Question) -> Texts:
    return texts(
        question.prompt.get(SOURCE_LANGUAGE),
        [o.text.get(SOURCE_LANGUAGE) for o in question.options],
    )


def _same(a: Question, b: Question) -> bool:
    """Whether a learner would meet the same question (its English and its key)."""
    keys = (a.kind, a.correct, a.correct_set, a.number)
    return _texts(a) == _texts(b) and keys == (b.kind, b.correct, b.correct_set, b.number)


def keep_ids(old: Quiz | None, new: Quiz, fmt: str, used: set[str]) -> KeptIds:
    """`new`'s questions under `old`'s ids where they are the same questions (`old` as served;
    None when it cannot be rebuilt any more: every positional question is new then). `used`:
    every id the quiz ever served."""
    before = list(old.questions) if old is not None else []
    placed: set[int] = set()  # the questions whose id is their position in the file
    if fmt not in _OWN_IDS:
        placed = {i for i, q in enumerate(new.questions) if POSITIONAL.fullmatch(q.id)}
    own = {q.id for i, q in enumerate(new.questions) if i not in placed}
    free = [q for q in before if q.id not in own]  # those an author's id did not claim
    order = sorted(placed)
    found = pairs([_texts(new.questions[i]) for i in order], [_texts(q) for q in free])
    matched = {order[k]: free[v] for k, v in found.items()}
    by_id = {q.id: q for q in before}
    taken = {*used, *own, *by_id}
    ids: dict[str, str] = {}
    added: list[str] = []
    changed: list[str] = []
    for index, question in enumerate(new.questions):
        theirs = matched.get(index) if index in placed else by_id.get(question.id)
        if theirs is not None:
            ids[question.id] = theirs.id
            if not _same(question, theirs):
                changed.append(theirs.id)
            continue
        fresh = question.id
        if index in placed and fresh in taken:
            fresh = unique(question.id, taken)
        taken.add(fresh)
        ids[question.id] = fresh
        added.append(fresh)
    served = set(ids.values())
    removed = tuple(q.id for q in before if q.id not in served)
    unchanged = len(new.questions) - len(added) - len(changed)
    return KeptIds(ids, unchanged, tuple(changed), tuple(added), removed)


def with_ids(quiz: Quiz, stored: str | None) -> Quiz:
    """The quiz rebuilt from its file, under the ids stored with it (`KeptIds.stored`). Its
    version folds the map in: the same file under other ids is another version for the runs
    and answers that carry one."""
    if not stored:
        return quiz
    try:
        ids = json.loads(stored)
    except ValueError:
        return quiz
    if not isinstance(ids, dict):
        return quiz
    questions = tuple(replace(q, id=str(ids.get(q.id, q.id))) for q in quiz.questions)
    digest = hashlib.sha256(f"{quiz.version}\0{stored}".encode()).hexdigest()
    return replace(quiz, questions=questions, version=digest[: len(quiz.version) or 16])
