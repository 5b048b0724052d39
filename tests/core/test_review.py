"""Leitner scheduling: promotion, demotion, mastery, and due days in the learner's time zone."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.review import (
    INTERVALS,
    LAST_BOX,
    ReviewItem,
    after_miss,
    after_review,
    decode_order,
    due_after,
    encode_order,
    parse_clock,
    review_order,
)
from bot.core.stats import Accuracy, question_stats, quiz_scores, streak

UTC_ZONE = ZoneInfo("UTC")


def ts(text: str, tz: str = "UTC") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz)).timestamp()


def item(box: int, due: float = 0.0) -> ReviewItem:
    return ReviewItem(1, "quiz", "q1", box, due, 0.0)


@pytest.mark.parametrize(
    ("missed_at", "zone", "due"),
    [
        # Missed today: due when the learner's tomorrow begins, not 24 hours later.
        ("2026-03-10 09:00", "UTC", "2026-03-11 00:00"),
        ("2026-03-10 23:59", "UTC", "2026-03-11 00:00"),
        ("2026-03-10 23:30", "Europe/Paris", "2026-03-11 00:00"),
        ("2026-03-10 00:10", "America/New_York", "2026-03-11 00:00"),
        ("2026-03-10 18:00", "Asia/Tokyo", "2026-03-11 00:00"),
        # Across a DST change (Paris springs forward on 2026-03-29): still local midnight.
        ("2026-03-28 12:00", "Europe/Paris", "2026-03-29 00:00"),
    ],
)
def test_a_miss_is_due_at_the_start_of_the_learners_next_day(
    missed_at: str, zone: str, due: str
) -> None:
    tz = ZoneInfo(zone)
    got = after_miss(7, "quiz", "q1", ts(missed_at, zone), tz)
    assert (got.box, got.due_at, got.last_seen_at) == (1, ts(due, zone), ts(missed_at, zone))


def test_the_same_instant_falls_on_different_days_in_different_zones() -> None:
    moment = datetime(2026, 3, 10, 23, 30, tzinfo=UTC).timestamp()
    assert due_after(moment, 1, ZoneInfo("UTC")) == ts("2026-03-11 00:00")
    # 23:30 UTC is 08:30 on the 11th in Tokyo: due on the 12th, Tokyo time.
    assert due_after(moment, 1, ZoneInfo("Asia/Tokyo")) == ts("2026-03-12 00:00", "Asia/Tokyo")
    # ...and 18:30 on the 10th in New York: due on the 11th, New York time.
    ny = ZoneInfo("America/New_York")
    assert due_after(moment, 1, ny) == ts("2026-03-11 00:00", "America/New_York")


@pytest.mark.parametrize(
    ("box", "correct", "new_box", "days"),
    [
        (1, True, 2, 3),
        (2, True, 3, 7),
        (3, True, 4, 14),
        (4, True, 5, 30),
        (5, True, None, None),  # mastered: leaves the queue
        (1, False, 1, 1),
        (3, False, 1, 1),
        (5, False, 1, 1),
    ],
)
def test_promotion_demotion_and_mastery(
    box: int, correct: bool, new_box: int | None, days: int | None
) -> None:
    now = ts("2026-05-01 20:00")
    got = after_review(item(box), correct, now, UTC_ZONE)
    if new_box is None:
        assert got is None
        return
    assert got is not None and got.box == new_box and got.last_seen_at == now
    assert got.due_at == ts("2026-05-01 00:00") + days * 86_400  # type: ignore[operator]


def test_five_right_answers_master_a_miss() -> None:
    now = ts("2026-01-01 10:00")
    current: ReviewItem | None = after_miss(1, "quiz", "q1", now, UTC_ZONE)
    reviews = 0
    while current is not None:
        now = current.due_at + 3600
        assert current.is_due(now) and not current.is_due(current.due_at - 1)
        current = after_review(current, True, now, UTC_ZONE)
        reviews += 1
    assert reviews == LAST_BOX == len(INTERVALS)


def test_orders_are_permutations_and_forged_ones_are_refused() -> None:
    order = review_order(4, random.Random(3))
    assert sorted(order) == [0, 1, 2, 3]
    assert decode_order(encode_order(order), 4) == order
    for forged in ["0012", "012", "01234", "ab12", "0129"]:
        assert decode_order(forged, 4) is None


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("7:30", "07:30"),
        ("07:05", "07:05"),
        ("23:59", "23:59"),
        ("24:00", None),
        ("25:00", None),
        ("7h30", "07:30"),  # as French writes it, and as /schedule reads it
        ("7:60", None),
        ("7:5", None),
        ("seven", None),
        ("12", None),
        ("-1:30", None),
    ],
)
def test_parse_clock(text: str, parsed: str | None) -> None:
    assert parse_clock(text) == parsed


@pytest.mark.parametrize(
    ("active", "today", "expected"),
    [
        ([], date(2026, 1, 10), 0),
        ([date(2026, 1, 10)], date(2026, 1, 10), 1),
        ([date(2026, 1, 8), date(2026, 1, 9), date(2026, 1, 10)], date(2026, 1, 10), 3),
        # Not yet active today: yesterday's streak still counts.
        ([date(2026, 1, 8), date(2026, 1, 9)], date(2026, 1, 10), 2),
        ([date(2026, 1, 7), date(2026, 1, 9), date(2026, 1, 10)], date(2026, 1, 10), 2),
        ([date(2026, 1, 8)], date(2026, 1, 10), 0),
    ],
)
def test_streak(active: list[date], today: date, expected: int) -> None:
    assert streak(active, today) == expected


def test_best_and_last_scores() -> None:
    scores = quiz_scores([("a", 1.0, 5, 8), ("a", 3.0, 4, 8), ("b", 2.0, 2, 3), ("a", 2.0, 7, 8)])
    assert [(s.quiz_id, s.attempts, s.best, s.last, s.total) for s in scores] == [
        ("a", 3, 7, 4, 8),
        ("b", 1, 2, 2, 3),
    ]


def test_question_stats_share_right_wrong_choice_and_languages() -> None:
    rows = [
        ("q", "why", "en", "b", True, 6),
        ("q", "why", "fr", "b", True, 1),
        ("q", "why", "fr", "c", False, 3),
        ("q", "why", "fr", "a", False, 1),
        ("q", "why", None, "a", False, 1),
        ("q", "zeta", "en", "d", True, 2),
    ]
    first, second = question_stats(rows)
    assert first.overall == Accuracy(7, 12)
    assert first.most_chosen_wrong == "c"
    assert first.by_language == {"en": Accuracy(6, 6), "fr": Accuracy(1, 5), "?": Accuracy(0, 1)}
    assert second.most_chosen_wrong is None and second.overall.ratio == 1.0
