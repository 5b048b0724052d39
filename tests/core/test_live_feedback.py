"""The live count's refresh plan stays within a group's sending limits (no timing involved)."""

from __future__ import annotations

import pytest

from bot.core.live_feedback import LivePolicy, live_steps, messages_per_minute
from bot.usecases.group_settings import SECONDS_CHOICES

TELEGRAM_GROUP_PER_MINUTE = 20


@pytest.mark.parametrize("seconds", SECONDS_CHOICES)
def test_every_question_length_stays_well_under_the_group_limit(seconds: int) -> None:
    steps = live_steps(seconds)
    assert messages_per_minute(seconds) <= 12 < TELEGRAM_GROUP_PER_MINUTE
    gaps = [b - a for a, b in zip([0.0, *steps], [*steps, float(seconds)], strict=True)]
    assert min(gaps) >= 5.0 - 1e-9  # never closer than every 5 s, nor just before the reveal
    assert steps == sorted(steps) and all(0 < s < seconds for s in steps)


def test_what_each_length_costs() -> None:
    assert live_steps(10) == []
    assert live_steps(30) == [6.0, 12.0, 18.0, 24.0]  # 6 messages a 30 s question: 12 a minute
    assert len(live_steps(20)) == 2 and len(live_steps(60)) == 10


def test_a_policy_can_be_tighter_or_looser() -> None:
    assert live_steps(30, LivePolicy(per_minute=4)) == []  # only question + reveal fit
    assert live_steps(2, LivePolicy(min_step=0.5, per_minute=600)) == [0.5, 1.0, 1.5]
    assert live_steps(0) == [] and live_steps(30, LivePolicy(min_step=0)) == []
