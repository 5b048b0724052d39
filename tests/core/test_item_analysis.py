"""Item analysis (bot/core/item_analysis.py) against tables worked by hand.

The main table: five answer patterns, each given by four learners (20 respondents, the least
that is reliable). Q1 and the mis-keyed MK are worked out in the comments; Pearson's r, shares
and the 27 % groups do not change when a table is copied four times, except for the group sizes
(round(0.27 x 20) = 5), which the comments count.

    pattern  Q1  Q2  Q3  MK (key b; a is what the strong choose)   total
    P1       a✓  a✓  a✓  a✗                                          3
    P2       a✓  a✓  b✗  a✗                                          2
    P3       a✓  b✗  c✗  b✓                                          2
    P4       b✗  c✗  b✗  b✓                                          1
    P5       c✗  b✗  c✗  c✗                                          0
"""

from __future__ import annotations

import math

import pytest

from bot.core.item_analysis import (
    MIN_ANSWERERS,
    Flag,
    Item,
    Response,
    analyse,
    first_sittings,
    flagged_first,
    group_size,
    pearson,
)

ITEMS = [
    Item("q1", ("a", "b", "c"), frozenset({"a"})),
    Item("q2", ("a", "b", "c"), frozenset({"a"})),
    Item("q3", ("a", "b", "c"), frozenset({"a"})),
    Item("mk", ("a", "b", "c", "d"), frozenset({"b"})),  # the key should have been "a"
]
PATTERNS = ["aaaa", "aaba", "abcb", "bcbb", "cbcc"]  # Q1 Q2 Q3 MK, as in the table above


def responses(copies: int, first_learner: int = 1) -> list[Response]:
    rows = []
    learner = first_learner
    for _ in range(copies):
        for pattern in PATTERNS:
            for item, choice in zip(ITEMS, pattern, strict=True):
                rows.append(
                    Response(learner, learner * 10, item.question_id, choice in item.key,
                             frozenset({choice}))
                )  # fmt: skip
            learner += 1
    return rows


def test_a_miskeyed_item_is_flagged_with_figures_worked_by_hand() -> None:
    mk = analyse(ITEMS, responses(4))[3]
    assert mk.question_id == "mk" and mk.answerers == 20 and mk.reliable
    # Right: P3 and P4, 8 of 20.
    assert mk.difficulty == pytest.approx(0.4)
    # Rest scores (total minus MK's point): P1 3, P2 2, P3 1, P4 0, P5 0; mean 1.2,
    # variance (9+4+1)/5 - 1.44 = 1.36; right ones' mean 0.5, wrong ones' 5/3;
    # r = (0.5 - 5/3) / sqrt(1.36) * sqrt(0.4 x 0.6) = -7/6 x sqrt(3/17) = -0.4901
    assert mk.point_biserial == pytest.approx(-7 / 6 * math.sqrt(3 / 17))
    # Upper 5: the four P1 (rest 3) and the four P2 (rest 2) sharing the 1 place left (1/4
    # each): none chose b, so 0. Lower 5: the eight P4 and P5 (rest 0) share 5 places (5/8
    # each); P4 chose b: 4 x 5/8 / 5 = 0.5. Index 0 - 0.5.
    assert mk.upper_lower == pytest.approx(-0.5)
    assert mk.key_upper_share == pytest.approx(0.0)
    shares = {d.option_id: (d.share, d.upper_share) for d in mk.distractors}
    # a: P1 and P2, 8 of 20; the whole upper group chose it (4 + 4 x 1/4 = 5 of 5).
    assert shares["a"] == pytest.approx((0.4, 1.0))
    assert shares["c"] == pytest.approx((0.2, 0.0))  # P5
    assert shares["d"] == (0.0, 0.0)
    assert mk.flags == (
        (Flag.NEGATIVE, ""),
        (Flag.DISTRACTOR_BEATS_KEY, "a"),
        (Flag.UNUSED_DISTRACTOR, "d"),
    )
    assert mk.miskeyed


def test_a_good_item_has_positive_figures_and_no_flag() -> None:
    q1 = analyse(ITEMS, responses(4))[0]
    assert q1.difficulty == pytest.approx(0.6)  # P1, P2, P3
    # Rest: P1 2, P2 1, P3 1, P4 1, P5 0; mean 1, variance 7/5 - 1 = 0.4; right ones' mean 4/3,
    # wrong ones' 1/2: r = (4/3 - 1/2) / sqrt(0.4) x sqrt(0.24) = 5/6 x sqrt(0.6) = 0.6455
    assert q1.point_biserial == pytest.approx(5 / 6 * math.sqrt(0.6))
    # Upper: four P1 (rest 2), then 12 tied at 1 share the last place (1/12 each): right
    # 4 + 4/12 + 4/12 (P2, P3) = 14/3 of 5. Lower: four P5 (rest 0), then the same 1/12 each:
    # right 8/12 = 2/3 of 5. Index (14/3 - 2/3) / 5 = 0.8.
    assert q1.upper_lower == pytest.approx(0.8)
    b = next(d for d in q1.distractors if d.option_id == "b")
    assert (b.share, b.upper_share) == pytest.approx((0.2, 4 / 12 / 5))  # P4
    assert q1.flags == () and not q1.miskeyed


def test_ties_between_the_key_and_a_distractor_among_the_strongest_are_not_flagged() -> None:
    by = {a.question_id: a for a in analyse(ITEMS, responses(4))}
    # Q2: the upper 5 are P1 and P3 (rest 2, eight share 5 places); P1 right, P3 chose b:
    # 0.5 each, and "more than the key" is strict.
    assert by["q2"].key_upper_share == pytest.approx(0.5)
    assert {d.option_id: d.upper_share for d in by["q2"].distractors}["b"] == pytest.approx(0.5)
    assert not by["q2"].miskeyed and not by["q3"].miskeyed


def test_fewer_than_twenty_respondents_are_never_flagged() -> None:
    small = analyse(ITEMS, responses(3))  # 15 respondents: the same proportions
    mk = small[3]
    assert mk.answerers == 15 < MIN_ANSWERERS and not mk.reliable
    assert mk.point_biserial == pytest.approx(-7 / 6 * math.sqrt(3 / 17))  # still computed
    assert mk.flags == ()


def test_only_each_learners_first_sitting_counts() -> None:
    rows = responses(4)
    # Every P1 learner sits again and this time chooses the key b on MK, the weak ones' way:
    # counted, it would change MK's figures; as a second sitting it must not.
    again = [
        Response(r.learner, r.sitting + 1, r.question_id, r.question_id == "mk", frozenset("b"))
        for r in rows
        if r.learner % 5 == 1
    ]
    assert len(first_sittings(rows + again)) == len(rows)
    assert analyse(ITEMS, rows + again) == analyse(ITEMS, rows)


def test_members_of_one_group_run_are_each_a_respondent() -> None:
    """A group run is one attempt id for all its members: a sitting is (learner, attempt)."""
    rows = [
        Response(r.learner, 7, r.question_id, r.right, r.chosen) for r in responses(4)
    ]  # everyone in run 7
    assert analyse(ITEMS, rows) == analyse(ITEMS, responses(4))


def test_too_easy_is_strictly_above_95_percent() -> None:
    item = [Item("e", ("a", "b"), frozenset({"a"}))]

    def rows(right: int, wrong: int) -> list[Response]:
        return [
            Response(k, k, "e", k < right, frozenset("a" if k < right else "b"))
            for k in range(right + wrong)
        ]

    (all_right,) = analyse(item, rows(21, 0))
    assert all_right.difficulty == 1.0 and all_right.point_biserial is None  # nothing varies
    assert all_right.flags == ((Flag.TOO_EASY, ""), (Flag.UNUSED_DISTRACTOR, "b"))
    (nineteen,) = analyse(item, rows(19, 1))
    assert nineteen.difficulty == pytest.approx(0.95) and nineteen.flags == ()


def test_a_select_all_distractor_the_strong_prefer_to_a_key_option_is_flagged() -> None:
    """Key {a, b}; c is right in truth. The strong choose {a, c} (scored wrong), the weak
    {a, b} (scored right). 10 + 10 learners, each also answering a plain item s that the strong
    get right and the weak do not."""
    items = [
        Item("m", ("a", "b", "c"), frozenset({"a", "b"})),
        Item("s", ("x", "y"), frozenset({"x"})),
    ]
    rows = []
    for k in range(20):
        strong = k < 10
        rows.append(Response(k, k, "m", not strong, frozenset("ac" if strong else "ab")))
        rows.append(Response(k, k, "s", strong, frozenset("x" if strong else "y")))
    m, s = analyse(items, rows)
    assert m.difficulty == 0.5 and m.point_biserial == pytest.approx(-1.0)
    # Upper 5 of 20: the ten strong share them (rest 1): a 1.0, b 0.0 (the key's least chosen).
    assert m.key_upper_share == 0.0
    assert [(d.option_id, d.share, d.upper_share) for d in m.distractors] == [("c", 0.5, 1.0)]
    assert (Flag.DISTRACTOR_BEATS_KEY, "c") in m.flags and m.miskeyed
    # s itself: its rest is m's point, where the weak score; so s also reads negative.
    assert s.point_biserial == pytest.approx(-1.0)


def test_a_number_question_has_no_distractors() -> None:
    items = [Item("n", (), frozenset()), Item("s", ("x", "y"), frozenset({"x"}))]
    rows = []
    for k in range(20):
        rows.append(Response(k, k, "n", k % 2 == 0))
        rows.append(Response(k, k, "s", k % 4 == 0, frozenset("x" if k % 4 == 0 else "y")))
    n, _ = analyse(items, rows)
    assert n.distractors == () and n.key_upper_share is None
    assert n.point_biserial is not None and n.point_biserial > 0
    assert n.flags == ()


@pytest.mark.parametrize(
    ("n", "size"), [(0, 0), (1, 1), (3, 1), (5, 1), (10, 3), (20, 5), (25, 7), (100, 27)]
)
def test_group_size_is_27_percent_rounded(n: int, size: int) -> None:
    assert group_size(n) == size


def test_pearson_of_a_constant_is_undefined() -> None:
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    assert pearson([0, 1], [2, 2]) is None
    assert pearson([0, 1, 1], [0, 1, 1]) == pytest.approx(1.0)


def test_flagged_items_come_first_miskeyed_before_the_rest() -> None:
    ordered = [a.question_id for a in flagged_first(analyse(ITEMS, responses(4)))]
    assert ordered == ["mk", "q1", "q2", "q3"]
