"""The reminder's texts in each language: times of day as the language writes them, the due
count agreeing with its noun at 0, 1, 2 and 5 (French's three forms, Wolof's one), the button
only when there is something to review."""

from __future__ import annotations

import pytest

from bot.core.streaks import StreakStatus
from bot.i18n import translator
from bot.store.reviews import Reminder
from bot.tg import reminder_render as rr
from bot.usecases.reminders import Nudge

NNBSP = "\u202f"


@pytest.mark.parametrize(
    ("lang", "evening", "morning"),
    [
        ("en", f"6:30{NNBSP}PM", f"7:05{NNBSP}AM"),
        ("fr", "18:30", "07:05"),
        ("wo", "18:30", "07:05"),
    ],
)
def test_times_of_day_are_the_languages_own(lang: str, evening: str, morning: str) -> None:
    tr = translator(lang)
    assert rr.at_time(tr, Reminder(1, "18:30", "UTC")) == evening
    assert rr.at_time(tr, Reminder(1, "07:05", "UTC")) == morning


@pytest.mark.parametrize(
    ("n", "french", "wolof"),
    [
        (1, "⏰ 1 question est à réviser. /review pour la revoir.", "⏰ Laaj yi war a xoolaat: 1."),
        (
            2,
            "⏰ 2 questions sont à réviser. /review pour les revoir.",
            "⏰ Laaj yi war a xoolaat: 2.",
        ),
        (
            5,
            "⏰ 5 questions sont à réviser. /review pour les revoir.",
            "⏰ Laaj yi war a xoolaat: 5.",
        ),
    ],
)
def test_the_due_count_agrees_with_its_noun(n: int, french: str, wolof: str) -> None:
    nudge = Nudge(n, StreakStatus(0, False))
    fr = rr.reminder(translator("fr"), nudge, 7)
    assert fr.text == french and fr.keyboard is not None
    assert rr.reminder(translator("wo"), nudge, 7).text.startswith(wolof)


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_nothing_due_but_a_streak_to_save_is_a_note_without_a_button(lang: str) -> None:
    screen = rr.reminder(translator(lang), Nudge(0, StreakStatus(3, True)), 7)
    assert screen.keyboard is None and screen.text.startswith("🔥")
