"""The dashboard's arithmetic: weeks in a time zone, hardest questions first, start parameters."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.core.dashboard_math import chat_of, group_start_param, hardest, weeks
from bot.core.stats import Accuracy, QuestionStats

DAKAR, PARIS = ZoneInfo("Africa/Dakar"), ZoneInfo("Europe/Paris")


def at(tz: ZoneInfo, *parts: int) -> float:
    return datetime(*parts, tzinfo=tz).timestamp()  # type: ignore[misc]


def test_weeks_start_on_monday_in_the_zone_and_drop_older_rows() -> None:
    now = at(PARIS, 2026, 11, 30, 12)  # a Monday
    rows = [
        (at(PARIS, 2026, 11, 30, 0, 30), 1),  # this week (Monday just after midnight in Paris)
        (at(PARIS, 2026, 11, 29, 23, 30), 0),  # Sunday: last week
        (at(PARIS, 2026, 11, 23, 9), 1),  # last week's Monday
        (at(PARIS, 2025, 1, 1), 1),  # too old
    ]
    shown = weeks(rows, PARIS, now, shown=3)
    assert [w.start for w in shown] == [date(2026, 11, 16), date(2026, 11, 23), date(2026, 11, 30)]
    assert [(w.count, w.right) for w in shown] == [(0, 0), (2, 1), (1, 1)]
    assert shown[1].ratio == 0.5 and shown[0].ratio == 0.0


def test_hardest_first_then_most_answered() -> None:
    def q(question_id: str, right: int, total: int) -> QuestionStats:
        return QuestionStats("quiz", question_id, Accuracy(right, total))

    order = hardest([q("a", 3, 4), q("b", 0, 2), q("c", 0, 5), q("d", 0, 0), q("e", 1, 2)], limit=3)
    assert [s.question_id for s in order] == ["c", "b", "e"]


def test_start_parameters_name_groups() -> None:
    assert group_start_param(-1001234) == "g-1001234"
    assert chat_of("g-1001234") == chat_of("-1001234") == -1001234
    assert chat_of("g") is None and chat_of("quiz") is None and chat_of(None) is None


def test_a_chat_id_beyond_telegrams_52_bits_or_zero_is_no_chat() -> None:
    # A 20-digit id once reached the store and failed there (500: too large for SQLite).
    assert chat_of(str(-(2**52 - 1))) == -(2**52 - 1)
    for text in ("0", "g0", str(2**52), "-" + "9" * 19, "9" * 30, "1" * 5000):
        assert chat_of(text) is None, text
