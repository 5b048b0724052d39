"""Plural forms at 0, 1, 2 and 5 in French (3 forms) and Wolof (1), dates, units, names, help."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, translator
from bot.i18n_tools import catalogue_path, placeholders, read_catalogue
from bot.tg.private_render import help_text, language_picker

COUNTS = (0, 1, 2, 5)
# CLDR: French "one" covers 0 and 1; msgstr[2] is "other" (msgstr[1] is "many", for millions).
FORM = {"fr": {0: 0, 1: 0, 2: 2, 5: 2}, "wo": {0: 0, 1: 0, 2: 0, 5: 0}}


def plural_messages(lang: str) -> list[tuple[tuple[str, str], tuple[str, ...]]]:
    return [
        (tuple(m.id), tuple(m.string))  # type: ignore[misc]
        for m in read_catalogue(catalogue_path(lang))
        if m.id and m.pluralizable
    ]


@pytest.mark.parametrize("lang", ["fr", "wo"])
@pytest.mark.parametrize("n", COUNTS)
def test_every_plural_picks_the_right_form(lang: str, n: int) -> None:
    tr = translator(lang)
    messages = plural_messages(lang)
    assert len(messages) > 8
    for (singular, plural), forms in messages:
        names = placeholders(singular) | placeholders(plural)
        values = {name.strip("{}"): "X" for name in names}
        values.pop("n", None)
        expected = forms[FORM[lang][n]].format(n=tr.number(n), **values)
        assert tr.ngettext(singular, plural, n, **values) == expected, (singular, n)


@pytest.mark.parametrize(
    ("n", "french", "wolof"),
    [
        (0, "• G : 100 % sur 0 réponse", "• G: 100% ci 0 tontu"),
        (1, "• G : 100 % sur 1 réponse", "• G: 100% ci 1 tontu"),
        (2, "• G : 100 % sur 2 réponses", "• G: 100% ci 2 tontu"),
        (5, "• G : 100 % sur 5 réponses", "• G: 100% ci 5 tontu"),
    ],
)
def test_accuracy_agrees_with_its_count(n: int, french: str, wolof: str) -> None:
    args = ("• {guide}: {percent} of {n} answer", "• {guide}: {percent} of {n} answers", n)
    for lang, expected in (("fr", french), ("wo", wolof)):
        tr = translator(lang)
        shown = tr.ngettext(*args, guide="G", percent=tr.percent(1))
        assert shown.replace("\u00a0", " ") == expected


@pytest.mark.parametrize(
    ("n", "finished"),
    [(0, "0 terminée"), (1, "1 terminée"), (2, "2 terminées"), (5, "5 terminées")],
)
def test_runs_finished_agrees(n: int, finished: str) -> None:
    tr = translator("fr")
    assert tr.ngettext("{n} finished", "{n} finished", n) == finished


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [
        ("en", "Dec 1, 2026", "Dec 2, 2026"),
        ("fr", "1er déc. 2026", "2 déc. 2026"),
        ("wo", "1 Des, 2026", "2 Des, 2026"),
    ],
)
def test_the_first_of_the_month(lang: str, first: str, second: str) -> None:
    tr = translator(lang)
    assert tr.day(date(2026, 12, 1)) == first
    assert tr.day(date(2026, 12, 2)) == second
    assert tr.short_day(date(2026, 12, 1)).endswith(
        {"fr": "1er déc.", "en": "Dec 1", "wo": "1 Des"}[lang]
    )
    assert tr.month_day(date(2026, 12, 1)) == {"fr": "1er déc.", "en": "Dec 1", "wo": "1 Des"}[lang]


@pytest.mark.parametrize(
    ("lang", "shown"),
    [
        ("en", "Wed, Dec 2 at 6:30\u202fPM"),
        ("fr", "mer. 2 déc. à 18:30"),
        ("wo", "Àla, 2 Des ci 18:30"),
    ],
)
def test_a_moment_reads_as_the_chat_writes_it(lang: str, shown: str) -> None:
    """The dashboard's schedules: the day as /schedule writes it, the time to the minute."""
    at = datetime(2026, 12, 2, 18, 30, 59, tzinfo=ZoneInfo("Africa/Dakar"))
    assert translator(lang).moment(at) == shown


@pytest.mark.parametrize(("lang", "ten"), [("en", "10 s"), ("fr", "10\u00a0s"), ("wo", "10 s")])
def test_seconds_are_localized(lang: str, ten: str) -> None:
    assert translator(lang).seconds(10) == ten


def test_language_names_in_the_readers_language() -> None:
    assert [translator("fr").language_label(c) for c in SUPPORTED_LANGUAGES] == [
        "anglais",
        "français",
        "wolof",
    ]
    assert translator("wo").language_label("fr") == "Farañse"
    assert translator("en").language_label("fr") == "French"


def test_french_help_has_its_space_before_the_colon() -> None:
    text = help_text(translator("fr"))
    assert "/start\u00a0: " in text and "/start: " not in text


@pytest.mark.parametrize("current", [*SUPPORTED_LANGUAGES, None])
def test_the_language_picker_keeps_its_order(current: str | None) -> None:
    screen = language_picker(translator(current or "en"), current)
    assert screen.keyboard is not None
    labels = [row[0].text for row in screen.keyboard.inline_keyboard]
    assert [label.removeprefix("✓ ") for label in labels] == ["English", "Français", "Wolof"]
    assert [label.startswith("✓ ") for label in labels] == [
        c == current for c in SUPPORTED_LANGUAGES
    ]
