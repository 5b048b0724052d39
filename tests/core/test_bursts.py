"""The private chat's burst rule (bot/core/bursts.py), on dates alone."""

from __future__ import annotations

from bot.core.bursts import BURST, PACE, Bursts, Verdict


def verdicts(bursts: Bursts, user_id: int, dates: list[float]) -> list[Verdict]:
    return [bursts.message(user_id, at) for at in dates]


def test_a_burst_passes_its_first_messages_then_one_notice_then_drops() -> None:
    said = verdicts(Bursts(), 1, [0.0] * (BURST + 5))
    assert said == [Verdict.PASS] * BURST + [Verdict.NOTICE] + [Verdict.DROP] * 4


def test_a_person_at_the_chats_pace_is_never_held() -> None:
    said = verdicts(Bursts(), 1, [n / PACE for n in range(500)])
    assert set(said) == {Verdict.PASS}


def test_held_until_quiet_for_the_bucket_to_drain_and_each_flood_told_once() -> None:
    bursts = Bursts()
    verdicts(bursts, 1, [0.0] * (BURST + 1))  # held at 0
    quiet = BURST / PACE
    assert bursts.message(1, quiet - 1) is Verdict.DROP  # still flooding: held longer
    assert bursts.message(1, 2 * quiet - 2) is Verdict.DROP
    assert bursts.message(1, 3 * quiet) is Verdict.PASS  # calm again
    again = verdicts(bursts, 1, [3 * quiet] * (BURST + 1))
    assert again.count(Verdict.NOTICE) == 1  # a new flood, a new notice


def test_one_persons_flood_holds_nobody_else() -> None:
    bursts = Bursts()
    verdicts(bursts, 1, [0.0] * 50)
    assert verdicts(bursts, 2, [0.0] * BURST) == [Verdict.PASS] * BURST


def test_an_older_date_drains_nothing() -> None:
    bursts = Bursts()
    verdicts(bursts, 1, [100.0] * BURST)
    assert bursts.message(1, 50.0) is Verdict.NOTICE


def test_the_calm_are_forgotten_as_people_come() -> None:
    bursts = Bursts()
    for user_id in range(10_000):
        bursts.message(user_id, float(user_id))  # each drained before many others came
    assert len(bursts) < 5_000
