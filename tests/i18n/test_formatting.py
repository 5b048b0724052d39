"""Numbers, percentages, dates and language names read as each language writes them."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.scoring import SPEED_MAX, ScoringMode, ScoringRule
from bot.i18n import choose_language, normalize, translator
from bot.tg.standings_render import points, scoring_name

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(
    ("lang", "percent", "number"),
    [
        ("en", "75%", "1,234,567.5"),
        ("fr", f"75{NBSP}%", f"1{NNBSP}234{NNBSP}567,5"),
        ("wo", "75%", "1.234.567,5"),
    ],
)
def test_numbers_and_percentages(lang: str, percent: str, number: str) -> None:
    tr = translator(lang)
    assert tr.percent(0.75) == percent
    assert tr.number(1234567.5) == number


def test_counts_are_formatted_and_pluralised_per_language() -> None:
    fr, wo = translator("fr"), translator("wo")
    assert fr.ngettext("{n} question", "{n} questions", 0) == "0 question"
    assert fr.ngettext("{n} question", "{n} questions", 1) == "1 question"
    assert fr.ngettext("{n} question", "{n} questions", 2500) == f"2{NNBSP}500 questions"
    assert wo.ngettext("{n} question", "{n} questions", 1) == "1 laaj"
    assert wo.ngettext("{n} question", "{n} questions", 8) == "8 laaj"
    assert translator("en").ngettext("{n} question", "{n} questions", 1) == "1 question"


def test_dates_in_the_chat_time_zone() -> None:
    moment = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)
    paris = translator("fr").datetime(moment, ZoneInfo("Europe/Paris"))
    assert "1 mars 2026" in paris and "15:05" in paris
    dakar = translator("wo").datetime(moment, ZoneInfo("Africa/Dakar"))
    assert "2026" in dakar and "14:05" in dakar
    assert "2:05" in translator("en").datetime(moment, ZoneInfo("Africa/Dakar"))


def test_language_names_in_their_own_language() -> None:
    tr = translator("en")
    assert [tr.language_name(code) for code in ("en", "fr", "wo")] == [
        "English",
        "Français",
        "Wolof",
    ]


@pytest.mark.parametrize(
    ("stored", "telegram", "expected"),
    [
        ("wo", "fr", "wo"),  # a stored choice wins
        (None, "fr-FR", "fr"),  # else Telegram's, region dropped
        (None, "de", "en"),  # unsupported: the default
        ("xx", None, "en"),
        (None, None, "en"),
    ],
)
def test_choose_language(stored: str | None, telegram: str | None, expected: str) -> None:
    assert choose_language(stored=stored, telegram_code=telegram) == expected


def test_choose_language_for_a_group_ignores_the_member() -> None:
    # A group's messages follow the group's setting; the configured default otherwise.
    assert choose_language(stored="fr", default="wo") == "fr"
    assert choose_language(stored=None, default="wo") == "wo"
    assert normalize("WO") == "wo"


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_the_speed_scorings_most_points_read_as_its_leaderboards_points(lang: str) -> None:
    """/settings and a run's footer said "ba 1 000 poñ" in Wolof (French spacing, copied into
    the catalogue) above a leaderboard that writes "3.105 poñ": the same figure, two ways."""
    tr = translator(lang)
    shown = scoring_name(tr, ScoringRule(ScoringMode.SPEED, streak_bonus=False))
    assert tr.number(SPEED_MAX) in shown, shown
    assert tr.number(SPEED_MAX) in points(tr, SPEED_MAX)
