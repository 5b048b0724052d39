"""One Moodle XML `<question>` -> a draft question, or the reason (at its line) it is left out.

- `multichoice` with `<single>true</single>`: `single`, the full-marks answer right (other
  fractions reported: quizbot has no partial credit there); `<single>false</single>`: `multiple`,
  the answers with a positive fraction right; fractions other than +100/k for each of the k right
  answers and -100/k for each wrong one (quizbot's own rule, bot/core/kinds.py) are reported.
- `truefalse`: `true_false`, the options True then False (in the file's language).
- `numerical`: `number`, the first full-marks answer with its tolerance (other answers reported),
  the unit whose multiplier is 1 (other units reported).
- `shortanswer`: a `number` when every answer is a number, else left out (typed words).
- `description`: left out, unless quizbot wrote it for a flashcard (tag `quizbot-flashcard`):
  then a flashcard again, its text the front and its general feedback the back.
- `essay`, `matching`, `cloze`, `calculated`... : left out, named.

The question text is the prompt; `<generalfeedback>` and the right answer's feedback are the
explanation; a wrong answer's feedback is appended to it and reported. The first picture of the
question text is the question's, the first of the general feedback the explanation's.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from bot.content.drift import TRUE_FALSE_LABELS
from bot.content.formats.draft import (
    FLASHCARD,
    MULTIPLE,
    SINGLE,
    TRUE_FALSE,
    DraftOption,
    DraftQuestion,
)
from bot.content.formats.moodle_number import numerical
from bot.content.formats.moodle_read import (
    FLASHCARD_TAG,
    Answer,
    Read,
    answers_of,
    common,
    draft,
    explanation,
)
from bot.content.formats.moodle_text import child, plain
from bot.content.problems import N_, Msg
from bot.core.kinds import MULTIPLE_MAX_OPTIONS


def read_question(read: Read) -> DraftQuestion | None:
    kind = read.element.get("type", "")
    reader = _READERS.get(kind)
    if reader is None:
        if kind == "essay":
            read.report.skip(Msg(N_("an essay question (a teacher marks it): not supported")))
        else:
            read.report.skip(
                Msg(N_("{type} questions are not supported (quizbot reads multichoice, "
                       "truefalse, numerical, and shortanswer when its answers are numbers)"),
                    type=kind or "?")
            )  # fmt: skip
        return None
    question = reader(read)
    if question is not None and read.fields.dropped:
        read.report.note(Msg(N_("formatting not kept: {tags}"),
                             tags=", ".join(sorted(read.fields.dropped))))  # fmt: skip
    return question


def _multichoice(read: Read) -> DraftQuestion | None:
    # As Moodle's trans_single: "false", "" and "0" (empty to PHP) are several answers.
    written = child(read.element, "single")
    single = written is None or plain(written) not in ("false", "0", "")
    most = read.limits.max_options if single else min(read.limits.max_options,
                                                       MULTIPLE_MAX_OPTIONS)  # fmt: skip
    count = len(read.element.findall("answer"))  # before reading any: 10,000 cost nothing
    if not 2 <= count <= most:
        what = Msg(N_("a question")) if single else Msg(N_("a several-answer question"))
        read.report.skip(Msg(N_("{count} answers: {what} needs 2 to {most}"),
                             count=count, what=what, most=most))  # fmt: skip
        return None
    parts = common(read)
    answers = answers_of(read, rich=True)
    if parts is None or answers is None:
        return None
    prompt, image, general, shown = parts
    if any(not answer.text for answer in answers):
        read.report.skip(Msg(N_("an answer is empty")))
        return None
    if any(answer.has_picture for answer in answers):
        read.report.note(Msg(N_("a picture inside a choice is not kept")))
    if single:
        right = [math.isclose(a.fraction, 1.0, abs_tol=1e-6) for a in answers]
        if sum(right) != 1:
            read.report.skip(Msg(N_("answers with full marks: {n}; a one-answer question "
                                    "needs exactly one"), n=sum(right)))  # fmt: skip
            return None
        if any(not r and a.fraction != 0 for a, r in zip(answers, right, strict=True)):
            read.report.note(Msg(N_("partial marks of the other answers not kept: only the "
                                    "full-marks answer is right")))  # fmt: skip
    else:
        right = [a.fraction > 0 for a in answers]
        if not any(right) or all(right):
            read.report.skip(Msg(N_("a several-answer question needs a right answer (positive "
                                    "weight) and a wrong one")))  # fmt: skip
            return None
        _check_weights(read, answers, right)
    options = tuple(
        DraftOption(read.clean(a.text), r, a.line) for a, r in zip(answers, right, strict=True)
    )
    said = explanation(read, general, answers, right)
    kind = SINGLE if single else MULTIPLE
    return draft(read, prompt, options, said, kind, image, shown)


def _check_weights(read: Read, answers: list[Answer], right: list[bool]) -> None:
    share = 1 / sum(right)
    ours = all(
        math.isclose(a.fraction, share if r else -share, abs_tol=1e-4)
        for a, r in zip(answers, right, strict=True)
    )
    if not ours:
        weights = ", ".join(f"{a.fraction * 100:g}" for a in answers)
        read.report.note(Msg(N_("answer weights {weights} not kept: quizbot scores (right "
                                "answers selected - wrong ones selected) / right answers, "
                                "floored at 0"), weights=weights))  # fmt: skip


def _truefalse(read: Read) -> DraftQuestion | None:
    if len(read.element.findall("answer")) != 2:
        read.report.skip(Msg(N_("a true/false question needs two answers, true and false")))
        return None
    parts = common(read)
    answers = answers_of(read, rich=False)
    if parts is None or answers is None:
        return None
    prompt, image, general, shown = parts
    # Moodle's importer: the answers' texts say which is true; old files put true first.
    words = [a.text.strip().casefold() for a in answers]
    if sorted(words) == ["false", "true"] and words[0] == "false":
        answers.reverse()
    true_right = math.isclose(answers[0].fraction, 1.0, abs_tol=1e-6)
    labels = TRUE_FALSE_LABELS.get(read.lang, TRUE_FALSE_LABELS["en"])
    right = [true_right, not true_right]
    for answer, label in zip(answers, labels, strict=True):
        answer.text = label
    options = (DraftOption(labels[0], true_right), DraftOption(labels[1], not true_right))
    said = explanation(read, general, answers, right)
    return draft(read, prompt, options, said, TRUE_FALSE, image, shown)


def _description(read: Read) -> DraftQuestion | None:
    tags = [plain(tag) for tag in read.element.findall("tags/tag")]
    if FLASHCARD_TAG not in tags:
        read.report.skip(Msg(N_("a description (text without a question): left out")))
        return None
    parts = common(read)
    if parts is None:
        return None
    prompt, image, back, shown = parts
    if not back.strip():
        read.report.skip(Msg(N_("the back is empty: left out")))
        return None
    return draft(read, prompt, (), read.clean(back), FLASHCARD, image, shown)


_READERS: dict[str, Callable[[Read], DraftQuestion | None]] = {
    "multichoice": _multichoice,
    "truefalse": _truefalse,
    "numerical": numerical,
    "shortanswer": lambda read: numerical(read, short=True),
    "description": _description,
}
