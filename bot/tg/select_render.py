"""What a select-all question (kind: multiple) says once a selection is toggled or submitted.

The verdict names the right letters; a partly right selection shows its partial credit (the
rule is bot/core/kinds.py's: right picks minus wrong picks over the right options, at least 0).
The answered question marks every option: ✅ a right pick, ❌ a wrong pick, ⭕ a right option
left out (not ⚠️: that is the Report button's, right below), and its legend names only the marks
it shows.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Sequence

from bot.core.engine import Attempt, SetJudgement
from bot.core.models import Question, Quiz
from bot.i18n import Translator
from bot.tg.question_render import explained, joined, question_header
from bot.tg.screen_render import LETTERS, Screen, popup, rich
from bot.tg.wire.html_fit import fit_html

RIGHT_PICK, WRONG_PICK, MISSED = "✅ ", "❌ ", "⭕ "


def letters(order: Sequence[int], options: Collection[int]) -> str:
    """The displayed letters of some options, in display order: "A, C"."""
    return ", ".join(LETTERS[pos] for pos, option in enumerate(order) if option in options)


def verdict(tr: Translator, judgement: SetJudgement, order: Sequence[int]) -> str:
    """The verdict line: right, partly right with its credit, or not right at all."""
    if judgement.is_correct:
        return tr._("✅ Right! You found every right answer.")
    right = letters(order, judgement.key)
    if judgement.score.fraction > 0:
        return tr.ngettext(
            "🟡 Partly right ({score}): the right answer is {letters}.",
            "🟡 Partly right ({score}): the right answers are {letters}.",
            len(judgement.key),
            score=tr.percent(judgement.score.fraction),
            letters=right,
        )
    return tr.ngettext(
        "❌ Not quite: the right answer is {letters}.",
        "❌ Not quite: the right answers are {letters}.",
        len(judgement.key),
        letters=right,
    )


def selection_popup(tr: Translator, order: Sequence[int], selected: Collection[int]) -> str:
    """Told to the tapper alone after a toggle: what they have selected so far."""
    if not selected:
        return tr._("Nothing selected yet.")
    return popup(
        tr.ngettext(
            "Selected: {letters}. Tap Submit when you are done.",
            "Selected: {letters} ({n} options). Tap Submit when you are done.",
            len(selected),
            letters=letters(order, selected),
        )
    )


def nothing_selected(tr: Translator) -> str:
    return tr._("Select at least one option, then tap Submit.")


def marks(question: Question, order: Sequence[int], selected: Collection[int]) -> dict[int, str]:
    """Display position -> mark: a right pick, a wrong pick, or a right option left out."""
    out: dict[int, str] = {}
    for pos, option in enumerate(order):
        if option in selected:
            out[pos] = RIGHT_PICK if option in question.key else WRONG_PICK
        elif option in question.key:
            out[pos] = MISSED
    return out


def legend(tr: Translator, shown: Collection[str]) -> str:
    """What the marks `shown` mean (the values of `marks`), in the order of the marks; the
    ones a screen does not use are left out."""
    words = {
        RIGHT_PICK: tr._("✅ right pick"),
        WRONG_PICK: tr._("❌ wrong pick"),
        MISSED: tr._("⭕ right answer left out"),
    }
    return " · ".join(word for mark, word in words.items() if mark in shown)


def recorded(tr: Translator, order: Sequence[int], selected: Collection[int]) -> str:
    """A member's popup in a group that keeps verdicts for the reveal: the letters they chose."""
    return tr.ngettext(
        "🗳 Your answer {letters} is recorded. Whether it is right comes with the reveal.",
        "🗳 Your answers {letters} are recorded. Whether they are right comes with the reveal.",
        len(selected),
        letters=letters(order, selected),
    )


def answered(
    tr: Translator, quiz: Quiz, attempt: Attempt, judgement: SetJudgement, lang: str
) -> tuple[Screen, Screen | None]:
    """The question message once submitted (see `question_render.answered`: one message when it
    fits)."""
    index = judgement.question_index
    q, order = quiz.questions[index], attempt.orders[index]
    marked = marks(q, order, judgement.selected)
    lines = [question_header(tr, quiz, index, lang), "", rich(q.prompt.get(lang)), ""]
    lines += [
        f"{marked.get(pos, '')}<b>{LETTERS[pos]}.</b> {rich(q.options[option].text.get(lang))}"
        for pos, option in enumerate(order)
    ]
    if not judgement.is_correct:
        lines += ["", html.escape(legend(tr, marked.values()))]
    asked = Screen(fit_html("\n".join(lines)))
    head = html.escape(verdict(tr, judgement, order))
    return joined(asked, explained(tr, quiz, attempt.id, index, head, lang))
