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

Options are the same story one level down: those formats letter a question's options a, b,
c... by position, and answers keep the option id chosen, so an option inserted above the
others moved every past choice to its neighbour (/groupstats' "most chosen wrong answer" named
the right option). Within a matched question each option is matched to the old question's by
its English text (exactly, then `_loose`ly); a match keeps its old id, a new option gets an id
the question never used. The stored map then gives that question
`{"id": <served id>, "options": {<file option id>: <served option id>, ...}}` in place of the
plain served id (maps stored before options were matched, all plain, read as they were).
"""

from __future__ import annotations

import hashlib
import json
import re
import string
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from bot.content.formats.draft import unique
from bot.content.reimport_match import Texts, pairs, texts
from bot.core.kinds import QuestionKind
from bot.core.models import SOURCE_LANGUAGE, Question, Quiz

# The ids a format gives by position (`q3`), and `unique`'s suffixed ones (`q3-2`).
POSITIONAL = re.compile(r"q\d+(?:-\d+)*")
_OWN_IDS = frozenset({"yaml"})  # formats whose every question id is written by the author
# The kinds whose options a format letters by position (true_false's are `true` and `false`).
_LETTERED = frozenset({QuestionKind.SINGLE, QuestionKind.MULTIPLE})


@dataclass(frozen=True, slots=True)
class KeptIds:
    """The new version's question ids, and what changed (served ids)."""

    ids: Mapping[str, str]  # file id -> served id, every question of the new file
    unchanged: int
    changed: tuple[str, ...]  # kept their id, with their text or key edited
    added: tuple[str, ...]
    removed: tuple[str, ...]
    # file question id -> (file option id -> served option id), where they differ
    options: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def stored(self) -> str | None:
        """The map as the store keeps it; None when every id is the file's own."""
        if not self.options and all(file_id == served for file_id, served in self.ids.items()):
            return None
        ids: dict[str, object] = {
            file_id: {"id": served, "options": dict(self.options[file_id])}
            if file_id in self.options
            else served
            for file_id, served in self.ids.items()
        }
        return json.dumps(ids, sort_keys=True, separators=(",", ":"))


def _texts(question: Question) -> Texts:
    return texts(
        question.prompt.get(SOURCE_LANGUAGE),
        [o.text.get(SOURCE_LANGUAGE) for o in question.options],
    )


def _same(a: Question, b: Question) -> bool:
    """Whether a learner would meet the same question (its English and its key)."""
    keys = (a.kind, a.correct, a.correct_set, a.number)
    return _texts(a) == _texts(b) and keys == (b.kind, b.correct, b.correct_set, b.number)


def _loose(text: str) -> str:
    """An option's text as the second pass compares it: case, width and spacing aside."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _fresh_ids() -> Iterator[str]:
    yield from string.ascii_lowercase
    n = 27
    while True:
        yield f"o{n}"
        n += 1


def _option_ids(new: Question, old: Question, used: set[str]) -> dict[str, str]:
    """File option id -> served option id for `new`, matched to `old` (as served) by text:
    exactly, then loosely; each old option taken once. The others get an id that is not in
    `used` (every option id the question ever served) nor `old`'s. Empty when no id changes."""
    if new.kind not in _LETTERED or old.kind not in _LETTERED:
        return {}
    mine = [o.text.get(SOURCE_LANGUAGE) for o in new.options]
    theirs = [o.text.get(SOURCE_LANGUAGE) for o in old.options]
    found: dict[int, int] = {}
    for same in (lambda t: t, _loose):
        for i, text in enumerate(mine):
            if i in found:
                continue
            free = (k for k, t in enumerate(theirs) if k not in found.values())
            match = next((k for k in free if same(theirs[k]) == same(text)), None)
            if match is not None:
                found[i] = match
    ids = {new.options[i].id: old.options[k].id for i, k in found.items()}
    taken = {*used, *(o.id for o in old.options)}
    fresh = (candidate for candidate in _fresh_ids() if candidate not in taken)
    for i, option in enumerate(new.options):
        if i not in found:
            ids[option.id] = next(fresh)
    return {} if all(f == s for f, s in ids.items()) else ids


def keep_ids(
    old: Quiz | None,
    new: Quiz,
    fmt: str,
    used: set[str],
    used_options: Mapping[str, set[str]] | None = None,
) -> KeptIds:
    """`new`'s questions under `old`'s ids where they are the same questions (`old` as served;
    None when it cannot be rebuilt any more: every positional question is new then). `used`:
    every id the quiz ever served; `used_options`: served question id -> every option id it
    ever served (the answers' and the stored maps')."""
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
    options: dict[str, dict[str, str]] = {}
    added: list[str] = []
    changed: list[str] = []
    for index, question in enumerate(new.questions):
        theirs = matched.get(index) if index in placed else by_id.get(question.id)
        if theirs is not None:
            ids[question.id] = theirs.id
            if fmt not in _OWN_IDS:  # YAML's option ids are the author's, as its question ids
                once = (used_options or {}).get(theirs.id, set())
                if kept := _option_ids(question, theirs, once):
                    options[question.id] = kept
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
    return KeptIds(ids, unchanged, tuple(changed), tuple(added), removed, options)


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
    questions = tuple(_served(q, ids.get(q.id)) for q in quiz.questions)
    digest = hashlib.sha256(f"{quiz.version}\0{stored}".encode()).hexdigest()
    return replace(quiz, questions=questions, version=digest[: len(quiz.version) or 16])


def _served(question: Question, kept: object) -> Question:
    """One question under its stored ids: a plain served id, or `{"id", "options"}`."""
    if isinstance(kept, dict):
        options = kept.get("options")
        if isinstance(options, dict):
            new = tuple(replace(o, id=str(options.get(o.id, o.id))) for o in question.options)
            question = replace(question, options=new)
        kept = kept.get("id")
    return question if kept is None else replace(question, id=str(kept))
