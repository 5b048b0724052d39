"""A number question's key in words, in the reader's language: "64", "0,5 ± 0,05 Go", "de 30 à
34 GB". Shared by the chat screens (bot/tg) and the dashboard's pages (bot/web)."""

from __future__ import annotations

from bot.core.models import Question
from bot.i18n import Translator


def with_unit(tr: Translator, value: float, unit: str) -> str:
    """A value as this language writes it, with the unit after it when there is one."""
    number = tr.decimal(value)
    return tr._("{value} {unit}", value=number, unit=unit) if unit else number


def key_text(tr: Translator, question: Question, lang: str) -> str:
    """The right answer in words: "64", "0,5 ± 0,05 Go", "from 30 to 34 GB" (plain text)."""
    key = question.number
    assert key is not None
    unit = question.unit.get(lang)
    if key.value is not None:
        if key.tolerance:
            return tr._(
                "{value} ± {tolerance}",
                value=tr.decimal(key.value),
                tolerance=with_unit(tr, key.tolerance, unit),
            )
        return with_unit(tr, key.value, unit)
    assert key.low is not None and key.high is not None
    return tr._("from {low} to {high}", low=tr.decimal(key.low), high=with_unit(tr, key.high, unit))
