"""When an open group question's message may be refreshed with the live count and time left.

Telegram allows about 20 messages a minute per group, and a run already costs two per question
(the question and its reveal). Refreshing on every tap would spend that budget in a busy group
and draw 429s that pause the whole bot, so the refreshes are planned up front, per question: a
fixed number of steps, evenly spaced, never closer than `min_step` seconds, and few enough that
question + refreshes + reveal stay within `per_minute` (12 by default: well under 20, leaving room
for the intro, the results and the admins' commands). A step whose count did not change since
the last one shown is skipped (the caller's job), so a quiet group costs nothing extra.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MESSAGES_PER_QUESTION = 2  # the question itself and its reveal


@dataclass(frozen=True, slots=True)
class LivePolicy:
    min_step: float = 5.0  # seconds between two refreshes, at least
    per_minute: int = 12  # group messages a minute a run may cost, refreshes included


def live_steps(seconds: float, policy: LivePolicy = LivePolicy()) -> list[float]:
    """Offsets (seconds after the question was sent) at which its message may be refreshed.

    With the default policy: 10 s questions get none, 20 s two, 30 s four (every 6 s), 60 s ten.
    """
    if seconds <= 0 or policy.min_step <= 0:
        return []
    by_budget = math.floor(policy.per_minute * seconds / 60 + 1e-9) - MESSAGES_PER_QUESTION
    by_spacing = math.ceil(seconds / policy.min_step - 1e-9) - 1
    n = max(0, min(by_budget, by_spacing))
    step = seconds / (n + 1)
    return [round(step * (k + 1), 3) for k in range(n)]


def messages_per_minute(seconds: float, policy: LivePolicy = LivePolicy()) -> float:
    """What a run's question flow costs a group at most, refreshes included (for checks/docs)."""
    return (MESSAGES_PER_QUESTION + len(live_steps(seconds, policy))) * 60 / seconds
