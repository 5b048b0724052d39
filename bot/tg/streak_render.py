"""The streak line of the daily reminder: the count, and a gentle note when it would break."""

from __future__ import annotations

from bot.core.streaks import StreakStatus
from bot.i18n import Translator


def streak_line(tr: Translator, status: StreakStatus) -> str:
    if status.at_risk:
        return tr.ngettext(
            "🔥 Your streak: {n} day. One quiz, /practice or /review today keeps it going.",
            "🔥 Your streak: {n} days. One quiz, /practice or /review today keeps it going.",
            status.days,
        )
    return tr.ngettext("🔥 Your streak: {n} day.", "🔥 Your streak: {n} days.", status.days)
