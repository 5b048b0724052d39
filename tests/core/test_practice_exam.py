"""Practice sets never repeat a question until all were seen; the exam clock with a hand clock."""

from __future__ import annotations

import random

import pytest

from bot.core.exam import ExamClock, start_exam
from bot.core.practice import QuestionKey, draw

POOL = [QuestionKey(f"quiz{i // 4}", f"q{i % 4}") for i in range(12)]


@pytest.mark.parametrize("length", [5, 10, 20])
def test_sets_cover_the_pool_before_any_repeat(length: int) -> None:
    rng = random.Random(length)
    seen: frozenset[QuestionKey] = frozenset()
    shown: list[QuestionKey] = []
    for _ in range(6):
        result = draw(POOL, seen, length, rng)
        assert len(result.questions) == min(length, len(POOL))
        assert len(set(result.questions)) == len(result.questions)  # no repeat within a set
        shown += result.questions
        seen = result.seen
    # every window of 12 consecutive draws holds the whole pool: no repeat before all seen
    for start in range(0, len(shown) - len(POOL) + 1, len(POOL)):
        assert set(shown[start : start + len(POOL)]) == set(POOL)


@pytest.mark.parametrize(
    ("seen", "length", "drawn_unseen", "new_cycle", "seen_after"),
    [
        (0, 5, 5, False, 5),
        (10, 5, 2, True, 3),  # 2 left: they come first, then 3 of a new cycle
        (12, 5, 0, True, 5),  # everything seen: a new cycle
        (7, 5, 5, False, 12),  # exactly the rest: the cycle is complete, no new one yet
    ],
)
def test_draw_table(
    seen: int, length: int, drawn_unseen: int, new_cycle: bool, seen_after: int
) -> None:
    before = frozenset(POOL[:seen])
    result = draw(POOL, before, length, random.Random(1))
    unseen_part = [key for key in result.questions if key not in before]
    assert len(unseen_part) >= drawn_unseen
    assert set(result.questions[:drawn_unseen]).isdisjoint(before)
    assert result.new_cycle is new_cycle
    assert len(result.seen) == seen_after


def test_seen_questions_removed_from_the_content_are_forgotten() -> None:
    gone = QuestionKey("old", "q0")
    result = draw(POOL[:2], {gone, POOL[0]}, 1, random.Random(0))
    assert result.questions == (POOL[1],)
    assert gone not in result.seen


def test_a_small_pool_gives_a_shorter_set() -> None:
    result = draw(POOL[:3], frozenset(), 10, random.Random(0))
    assert sorted(result.questions, key=str) == sorted(POOL[:3], key=str)


def test_key_round_trip() -> None:
    assert QuestionKey.decode(POOL[5].encode()) == POOL[5]


def test_exam_per_question_clock() -> None:
    exam = start_exam(ExamClock.PER_QUESTION, 30, now=1000.0)
    assert exam.left(1010.0) == 20.0
    assert exam.accepts(1030.0) and not exam.accepts(1030.5)
    assert not exam.over(5000.0)  # a per-question clock never ends the exam
    later = exam.shown(2000.0)  # the next question gets its own 30 s
    assert later.accepts(2029.0) and later.left(2040.0) == 0.0


def test_exam_total_clock() -> None:
    exam = start_exam(ExamClock.TOTAL, 300, now=1000.0)
    second = exam.shown(1250.0)  # 50 s left for everything after
    assert second.left(1250.0) == 50.0
    assert second.accepts(1300.0) and not second.accepts(1300.1)
    assert second.over(1300.1) and not second.over(1299.0)


def test_exam_refuses_no_time() -> None:
    with pytest.raises(ValueError):
        start_exam(ExamClock.TOTAL, 0, now=0.0)
