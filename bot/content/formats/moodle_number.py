"""Moodle's `numerical` questions, and `shortanswer` ones whose answers are all numbers ->
quizbot's `number`: the first full-marks answer with its `<tolerance>` (the other answers are
reported: quizbot keeps one value), the unit whose multiplier is 1 (other units reported). A
short answer with a word in it is left out: quizbot's typed answers are numbers.
"""

from __future__ import annotations

import math
from dataclasses import replace

from bot.content.formats.draft import NUMBER, DraftQuestion
from bot.content.formats.moodle_read import Read, answers_of, common, draft
from bot.content.formats.moodle_text import child, plain
from bot.content.problems import N_, Msg
from bot.core.kinds import NumberAnswer


def _number_of(text: str) -> float | None:
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def numerical(read: Read, *, short: bool = False) -> DraftQuestion | None:
    count = len(read.element.findall("answer"))
    if count > read.limits.max_options:
        read.report.skip(Msg(N_("{count} answers: quizbot reads at most {most} in a question"),
                             count=count, most=read.limits.max_options))  # fmt: skip
        return None
    parts = common(read)
    answers = answers_of(read, rich=False)
    if parts is None or answers is None:
        return None
    prompt, image, general, shown = parts
    kept: tuple[NumberAnswer, str] | None = None
    dropped: list[str] = []
    for answer, element in zip(answers, read.element.findall("answer"), strict=True):
        value = _number_of(answer.text)
        tolerance = 0.0 if short else _number_of(plain(child(element, "tolerance"))) or 0.0
        if value is None:
            if short:
                read.report.skip(Msg(N_("a short-answer question (typed words): not supported; "
                                        "quizbot's typed answers are numbers")))  # fmt: skip
                return None
            if answer.text.strip() != "*":
                read.report.skip(Msg(N_("the right value is not a number: {value}"),
                                     value=answer.text))  # fmt: skip
                return None
            dropped.append(f"* ({answer.fraction * 100:g}%)")
            continue
        written = f"{answer.text.strip()}" + (f" ± {abs(tolerance):g}" if tolerance else "")
        if kept is None and answer.fraction >= 1 - 1e-6:
            kept = (NumberAnswer(value=value, tolerance=abs(tolerance)), answer.feedback)
        else:
            dropped.append(f"{written} ({answer.fraction * 100:g}%)")
    if kept is None:
        read.report.skip(Msg(N_("numerical question without a full-credit answer")))
        return None
    if short:
        read.report.note(Msg(N_("short answer read as a number question (every answer is a "
                                "number)")))  # fmt: skip
    if dropped:
        read.report.note(Msg(N_("numerical answers left out (quizbot keeps one value or range): "
                                "{answers}"), answers=", ".join(dropped)))  # fmt: skip
    key, feedback = kept
    explanation = read.clean("\n".join(part for part in (general, feedback) if part))
    question = draft(read, prompt, (), explanation, NUMBER, image, shown, key)
    unit = _unit(read)
    return replace(question, unit=read.clean(unit)) if unit else question


def _unit(read: Read) -> str:
    """The unit whose multiplier is 1; any other unit reported."""
    base, others = "", []
    units = child(read.element, "units")
    for unit in units.findall("unit") if units is not None else []:
        name = plain(child(unit, "unit_name"))
        multiplier = _number_of(plain(child(unit, "multiplier")) or "1")
        if not base and multiplier == 1:
            base = name
        elif name:
            others.append(name)
    if others:  # a file may list thousands: the first ten are named
        listed = ", ".join(others[:10]) + (", …" if len(others) > 10 else "")
        read.report.note(Msg(N_("units left out (quizbot shows one unit): {units}"),
                             units=listed))  # fmt: skip
    return base
