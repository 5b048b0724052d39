"""Time zones as typed (groups' and learners' /timezone), and a learner's daily reminder keeping
its local time across daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, available_timezones

import pytest

from bot.core.recurrence import next_daily
from bot.core.zones import (
    COMMON_ZONES,
    closest_zone,
    known_zone,
    offset_zone,
    suggest_zone,
    utc_offset,
)

ZONES = ["Europe/Paris", "Africa/Dakar", "America/New_York", "UTC"]
EVERY_DAY = tuple(range(7))


@pytest.mark.parametrize(
    ("typed", "suggestion"),
    [
        ("europe/paris", "Europe/Paris"),
        ("Europe/Pari", "Europe/Paris"),
        ("dakar", "Africa/Dakar"),
        ("new york", "America/New_York"),
        ("utc", "UTC"),
        ("Mars/Olympus", None),
    ],
)
def test_time_zone_suggestions(typed: str, suggestion: str | None) -> None:
    assert suggest_zone(typed, ZONES) == suggestion


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("Europe/Paris", True),
        ("UTC", True),
        ("europe/paris", False),  # a suggestion, not a silent fix
        ("Paris", False),
        ("EST", False),  # abbreviations are ambiguous: Area/City only
        ("Mars/Olympus", False),
        ("../etc/passwd", False),
        ("", False),
    ],
)
def test_known_zones(name: str, known: bool) -> None:
    assert known_zone(name) is known


@pytest.mark.parametrize(
    "typed", ["Factory", "factory", "est5edt", "EST5EDT", "gb", "Zulu", "cuba"]
)
def test_a_suggestion_is_always_a_zone_the_setter_accepts(typed: str) -> None:
    """'Factory' and 'EST5EDT' are zoneinfo names but not Area/City: suggesting them offered a
    button that the setter then refused."""
    suggestion = closest_zone(typed)
    assert suggestion is None or known_zone(suggestion), suggestion


def test_no_zone_of_the_machine_suggests_a_refused_one() -> None:
    for name in available_timezones():
        for typed in (name, name.lower()):
            suggestion = closest_zone(typed)
            assert suggestion is None or known_zone(suggestion), (typed, suggestion)


def test_closest_zone_uses_every_zone_of_the_machine() -> None:
    assert closest_zone("africa/abidjan") == "Africa/Abidjan"
    assert closest_zone("") is None
    assert all(known_zone(zone) for zone in COMMON_ZONES)


def at(text: str, zone: ZoneInfo) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=zone).timestamp()


@pytest.mark.parametrize(
    ("zone", "before_change", "utc_hours"),
    [
        # Paris leaves summer time on 2026-10-25: 18:30 local is 16:30 UTC, then 17:30.
        ("Europe/Paris", "2026-10-24 12:00", (16, 17)),
        # New York leaves it a week later (2026-11-01): 22:30 UTC, then 23:30.
        ("America/New_York", "2026-10-31 12:00", (22, 23)),
        # Dakar has no daylight saving: the same UTC time every day.
        ("Africa/Dakar", "2026-10-24 12:00", (18, 18)),
    ],
)
def test_a_learners_reminder_keeps_its_local_time_across_daylight_saving(
    zone: str, before_change: str, utc_hours: tuple[int, int]
) -> None:
    tz = ZoneInfo(zone)
    first = next_daily(at(before_change, tz), 18, 30, tz, EVERY_DAY)
    second = next_daily(first, 18, 30, tz, EVERY_DAY)
    for moment in (first, second):
        local = datetime.fromtimestamp(moment, tz)
        assert (local.hour, local.minute) == (18, 30)
    assert second - first in (23 * 3600, 24 * 3600, 25 * 3600)
    assert tuple(datetime.fromtimestamp(m, UTC).hour for m in (first, second)) == utc_hours


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("UTC+1", "Etc/GMT-1"),  # IANA's Etc names carry POSIX's inverted sign
        ("GMT-5", "Etc/GMT+5"),  # not Etc/GMT-5, which its spelling is closest to (UTC+5)
        ("utc +01:00", "Etc/GMT-1"),
        ("+2", "Etc/GMT-2"),
        ("UTC\u22123", "Etc/GMT+3"),  # a typographic minus
        ("UTC+14", "Etc/GMT-14"),
        ("UTC+0", "UTC"),
        ("UTC+5:30", None),  # no Etc zone has minutes: no suggestion rather than a wrong one
        ("UTC+15", None),
        ("UTC-13", None),
    ],
)
def test_an_offset_suggests_the_zone_at_that_offset(typed: str, zone: str | None) -> None:
    assert offset_zone(typed) == zone
    assert closest_zone(typed) == zone


def test_an_etc_zone_is_labelled_with_the_offset_it_is() -> None:
    assert utc_offset("Etc/GMT-1") == "UTC+01:00"
    assert utc_offset("Etc/GMT+5") == "UTC-05:00"
    assert utc_offset("Europe/Paris") is None
    assert utc_offset("Etc/GMT") is None
