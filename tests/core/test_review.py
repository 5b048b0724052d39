"""FSRS scheduling: the rating rule, the Leitner mapping, and due days in the learner's zone."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fsrs import Card, Rating, Scheduler, State

from bot.core.review import (
    MEDIAN_MIN_ANSWERS,
    ReviewItem,
    after_miss,
    after_review,
    decode_order,
    due_after,
    encode_order,
    from_box,
    median_time,
    parse_clock,
    rating_for,
    recall,
    review_order,
)
from bot.core.stats import Accuracy, question_stats, quiz_scores, streak

UTC_ZONE = ZoneInfo("UTC")


def ts(text: str, tz: str = "UTC") -> float:
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz)).timestamp()


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
    assert (got.due_at, got.last_seen_at) == (ts(due, zone), ts(missed_at, zone))
    assert got.stability < 1  # FSRS's Again on a new card


def test_the_same_instant_falls_on_different_days_in_different_zones() -> None:
    moment = datetime(2026, 3, 10, 23, 30, tzinfo=UTC).timestamp()
    assert due_after(moment, 1, ZoneInfo("UTC")) == ts("2026-03-11 00:00")
    # 23:30 UTC is 08:30 on the 11th in Tokyo: due on the 12th, Tokyo time.
    assert due_after(moment, 1, ZoneInfo("Asia/Tokyo")) == ts("2026-03-12 00:00", "Asia/Tokyo")
    # ...and 18:30 on the 10th in New York: due on the 11th, New York time.
    ny = ZoneInfo("America/New_York")
    assert due_after(moment, 1, ny) == ts("2026-03-11 00:00", "America/New_York")


@pytest.mark.parametrize(
    ("correct", "elapsed_ms", "median_ms", "partial", "rating"),
    [
        (False, None, None, False, Rating.Again),
        (False, 1_000, 10_000, False, Rating.Again),  # wrong, however fast
        (False, 30_000, 10_000, True, Rating.Hard),  # a partly right select-all submission
        (True, None, None, False, Rating.Good),  # untimed
        (True, 1_000, None, False, Rating.Good),  # no median yet
        (True, 10_001, 10_000, False, Rating.Hard),  # slower than the median
        (True, 10_000, 10_000, False, Rating.Good),  # at the median
        (True, 5_000, 10_000, False, Rating.Good),  # exactly half the median: not fast
        (True, 4_999, 10_000, False, Rating.Easy),  # under half the median
        (True, 0, 10_000, False, Rating.Easy),
        (True, 600_000, 10_000, False, Rating.Hard),  # ten minutes: slow, still at it
        (True, 600_001, 10_000, False, Rating.Good),  # longer: away, then back; timing says nothing
        (True, 3 * 3_600_000, 10_000, False, Rating.Good),  # a card shown hours before
    ],
)
def test_the_rating_rule(
    correct: bool, elapsed_ms: int | None, median_ms: float | None, partial: bool, rating: Rating
) -> None:
    assert rating_for(correct, elapsed_ms, median_ms, partial=partial) is rating


@pytest.mark.parametrize(
    ("times", "median"),
    [
        ([], None),
        ([1, 2, 3, 4], None),  # fewer than MEDIAN_MIN_ANSWERS: noise, no median
        ([5, 1, 4, 2, 3], 3.0),
        ([6, 1, 5, 2, 4, 3], 3.5),
        # Answers given after the learner was away say nothing of the question's time.
        ([5, 1, 4, 2, 3, 600_001, 36_000_000, 86_400_000], 3.0),
        ([1, 2, 3, 4, 600_001], None),
    ],
)
def test_a_questions_median_time(times: list[int], median: float | None) -> None:
    assert MEDIAN_MIN_ANSWERS == 5
    assert median_time(times) == median


@pytest.mark.parametrize(
    ("box", "stability", "difficulty"),
    [(1, 1.0, 5.0), (2, 3.0, 5.0), (3, 7.0, 5.0), (4, 14.0, 5.0), (5, 30.0, 5.0)],
)
def test_a_leitner_box_becomes_the_stability_its_interval_stood_for(
    box: int, stability: float, difficulty: float
) -> None:
    assert from_box(box) == (stability, difficulty)
    # FSRS's stability is the interval after which recall falls to 90 %: a migrated question
    # due on its Leitner day is predicted at 90 % that day, so nothing moves.
    last = ts("2026-05-01 20:00")
    migrated = ReviewItem(1, "quiz", "q1", stability, difficulty, last + box * 86_400, last)
    assert recall(migrated, last + stability * 86_400, UTC_ZONE) == pytest.approx(0.9, abs=1e-3)


def oracle_days(stability: float, difficulty: float, rating: Rating, elapsed_days: int) -> int:
    """The interval the fsrs package gives by itself (days, UTC midnights), for comparison."""
    fsrs = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    last = datetime(2026, 5, 1, tzinfo=UTC)
    card = Card(1, State.Review, None, stability, difficulty, last, last)
    reviewed = last + timedelta(days=elapsed_days)
    new, _ = fsrs.review_card(card, rating, reviewed)
    return (new.due - reviewed).days


@pytest.mark.parametrize("rating", list(Rating))
@pytest.mark.parametrize(("box", "late"), [(1, 0), (3, 0), (3, 4), (5, 0)])
def test_a_review_is_rescheduled_as_fsrs_says(rating: Rating, box: int, late: int) -> None:
    stability, difficulty = from_box(box)
    last = ts("2026-05-01 20:00")
    elapsed = int(stability) + late
    now = ts("2026-05-01 08:00") + elapsed * 86_400  # on the due day (or later), any hour
    before = ReviewItem(1, "quiz", "q1", stability, difficulty, last, last)
    got = after_review(before, rating, now, UTC_ZONE)
    days = oracle_days(stability, difficulty, rating, elapsed)
    assert got.due_at == ts("2026-05-01 00:00") + (elapsed + days) * 86_400
    assert got.last_seen_at == now


def test_harder_ratings_come_back_sooner_and_right_answers_space_out() -> None:
    now = ts("2026-01-01 10:00")
    item = after_miss(1, "quiz", "q1", now, UTC_ZONE)
    assert item.due_at == ts("2026-01-02 00:00")
    gaps = []
    for _ in range(4):  # answered right (Good) on each due day
        now = item.due_at + 3600
        assert item.is_due(now) and not item.is_due(item.due_at - 1)
        nxt = after_review(item, Rating.Good, now, UTC_ZONE)
        gaps.append(round((nxt.due_at - item.due_at) / 86_400))
        item = nxt
    assert gaps == sorted(gaps) and gaps[-1] > gaps[0] >= 1
    by_rating = [after_review(item, r, item.due_at, UTC_ZONE).due_at for r in Rating]
    assert by_rating == sorted(by_rating) and by_rating[0] < by_rating[2]  # Again < Good
    # A lapse is sooner, but not back to day one: FSRS keeps part of what was learnt.
    assert item.due_at + 86_400 <= by_rating[0] < item.due_at + (item.stability / 2) * 86_400


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
        ("7h", "07:00"),  # a whole hour, as French writes it too
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


def test_a_best_score_keeps_the_total_it_was_out_of_when_the_quiz_changed_length() -> None:
    # 8/10 before the quiz was cut to 5 questions, then 4/5 and 3/5: "best 8/5" is no score.
    # The best is the best share right, shown out of its own total: 8/10 (80 %) ties 4/5, and
    # the later of a tie wins, as it is the quiz as it is now.
    scores = quiz_scores([("a", 1.0, 8, 10), ("a", 2.0, 4, 5), ("a", 3.0, 3, 5)])
    assert [(s.best, s.best_total, s.last, s.total) for s in scores] == [(4, 5, 3, 5)]
    # Grown from 4 to 8 questions: 4/4 stays the best, out of 4, not "4/8".
    scores = quiz_scores([("b", 1.0, 4, 4), ("b", 2.0, 6, 8)])
    assert [(s.best, s.best_total, s.last, s.total) for s in scores] == [(4, 4, 6, 8)]


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
