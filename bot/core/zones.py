"""Time zones as people type them: which names are real, what a misspelt one probably means,
and the few offered as buttons. A group's `/timezone` and a learner's share these, so both say
"unknown time zone" and suggest the same way.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

# Offered as buttons by a learner's /timezone: where the learners of the three languages
# (English, French, Wolof) mostly are. Anything else is typed (`/timezone Africa/Abidjan`).
COMMON_ZONES = ("Africa/Dakar", "Europe/Paris", "Europe/London", "America/New_York", "UTC")

# An offset as people type it: 'UTC+1', 'GMT-5', 'utc +01:00', '+2', 'UTC−3' (a minus sign).
_OFFSET = re.compile(
    r"(?:utc|gmt|ut)?\s*([+\-\u2212])\s*(\d{1,2})(?:[:h.]?(\d{2}))?", re.IGNORECASE
)
_ETC = re.compile(r"Etc/GMT([+-])(\d{1,2})")


def _area_city(name: str) -> bool:
    """The shape we accept: `Area/City` or UTC; 'EST5EDT', 'Factory' or 'GB' are zoneinfo names
    too, but abbreviations and legacy aliases that people misread."""
    return bool(name) and ("/" in name or name == "UTC")


@cache
def _zones() -> frozenset[str]:
    """The machine's zones that `known_zone` accepts: a suggestion is always one the setter
    takes (suggesting 'Factory' offered a button that was then refused)."""
    return frozenset(zone for zone in available_timezones() if _area_city(zone))


def known_zone(name: str) -> bool:
    """An IANA `Area/City` name (or UTC) that this machine knows."""
    if not _area_city(name):
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def offset_zone(typed: str) -> str | None:
    """The zone of a typed offset, 'UTC+1' -> 'Etc/GMT-1': IANA's Etc names carry POSIX's
    inverted sign, so a name matched by its spelling ('GMT-5' -> 'Etc/GMT-5', which is UTC+5)
    is ten hours off. Whole hours only (no Etc zone has minutes); UTC for a zero offset."""
    found = _OFFSET.fullmatch(typed.strip())
    if found is None or int(found[3] or 0) != 0:
        return None
    hours = int(found[2]) * (1 if found[1] == "+" else -1)
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{-hours:+d}" if -12 <= hours <= 14 else None


def utc_offset(zone: str) -> str | None:
    """'UTC+01:00' for 'Etc/GMT-1', whose name says the opposite; None for any other zone."""
    found = _ETC.fullmatch(zone)
    if found is None:
        return None
    return f"UTC{'-' if found[1] == '+' else '+'}{int(found[2]):02d}:00"


def suggest_zone(name: str, zones: Iterable[str]) -> str | None:
    """The time zone someone probably meant: an offset's fixed zone ('UTC+1' -> 'Etc/GMT-1'),
    else the same name in another case ('europe/paris' -> 'Europe/Paris'), else a city's name
    alone ('dakar'), else the closest spelling, else None."""
    by_fold = {zone.casefold(): zone for zone in zones}
    wanted = name.strip().casefold()
    if _OFFSET.fullmatch(wanted):  # never by spelling: 'utc+1' is one letter from 'UTC'
        offset = offset_zone(wanted)
        return by_fold.get(offset.casefold()) if offset is not None else None
    if wanted in by_fold:
        return by_fold[wanted]
    by_city = {zone.rsplit("/", 1)[-1].casefold(): zone for zone in sorted(by_fold.values())}
    if wanted.replace(" ", "_") in by_city:  # 'dakar' -> 'Africa/Dakar'
        return by_city[wanted.replace(" ", "_")]
    close = difflib.get_close_matches(wanted, list(by_fold), n=1, cutoff=0.75)
    return by_fold[close[0]] if close else None


def closest_zone(name: str) -> str | None:
    """The zone a misspelt name probably means, for "did you mean ...?"."""
    return suggest_zone(name, _zones()) if name else None
