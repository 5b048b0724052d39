"""Schedule arguments as admins type them, PTB's day numbering, and the "next" quiz walk."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.schedule import (
    ScheduleError,
    ScheduleSpec,
    days_label,
    decode_days,
    encode_days,
    fold,
    next_quiz,
    next_run,
    parse_days,
    parse_schedule,
    parse_time,
    ptb_days,
    same_schedule,
)

QUIZZES = ["a", "b", "c"]


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("daily", (0, 1, 2, 3, 4, 5, 6)),
        ("weekdays", (0, 1, 2, 3, 4)),
        ("WEEKENDS", (5, 6)),
        ("mon,wed", (0, 2)),
        ("fri,mon,fri", (0, 4)),
        ("monday,sunday", (0, 6)),
    ],
)
def test_days(text: str, days: tuple[int, ...]) -> None:
    assert parse_days(text) == days
    assert parse_days(days_label(days)) == days
    assert decode_days(encode_days(days)) == days


@pytest.mark.parametrize("text", ["", "someday", "mon,,wed", "mon;wed", "lun"])
def test_bad_days(text: str) -> None:
    with pytest.raises(ScheduleError) as err:
        parse_days(text)
    assert err.value.field == "days"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("08:30", (8, 30)),
        ("8:05", (8, 5)),
        ("23:59", (23, 59)),
        ("00:00", (0, 0)),
        ("18h15", (18, 15)),
        ("8h", (8, 0)),  # French writes a whole hour so ("à 8h")
        ("18H", (18, 0)),
    ],
)
def test_time(text: str, expected: tuple[int, int]) -> None:
    assert parse_time(text) == expected


@pytest.mark.parametrize(
    "text", ["24:00", "8", "08:60", "8:5", "noon", "-1:00", "24h", "h30", "8:"]
)
def test_bad_time(text: str) -> None:
    with pytest.raises(ScheduleError):
        parse_time(text)


@pytest.mark.parametrize(
    ("args", "result"),
    [
        (["next", "weekdays", "08:30"], ScheduleSpec("next", (0, 1, 2, 3, 4), 8, 30)),
        (["random", "daily", "7:00"], ScheduleSpec("random", tuple(range(7)), 7, 0)),
        (["b", "sat", "10:00"], ScheduleSpec("b", (5,), 10, 0)),
        ([], "count"),
        (["next", "daily"], "count"),
        (["zzz", "daily", "08:00"], "quiz"),
        (["next", "daily", "8pm"], "time"),
        (["next", "sometimes", "08:00"], "days"),
    ],
)
def test_parse_schedule(args: list[str], result: ScheduleSpec | str) -> None:
    if isinstance(result, ScheduleSpec):
        assert parse_schedule(args, QUIZZES) == result
    else:
        with pytest.raises(ScheduleError) as err:
            parse_schedule(args, QUIZZES)
        assert err.value.field == result


@pytest.mark.parametrize(
    ("iso", "ptb"),
    [((0,), (1,)), ((6,), (0,)), ((0, 1, 2, 3, 4), (1, 2, 3, 4, 5)), ((5, 6), (0, 6))],
)
def test_ptb_days_count_from_sunday(iso: tuple[int, ...], ptb: tuple[int, ...]) -> None:
    assert ptb_days(iso) == ptb


@pytest.mark.parametrize(
    ("played", "expected"),
    [
        ([], "a"),
        (["a"], "b"),
        (["a", "b"], "c"),
        (["a", "b", "c"], "a"),
        (["b"], "a"),  # a manual push of b: the walk still starts with a, then skips b
        (["b", "a"], "c"),
        (["gone", "a"], "b"),  # quizzes no longer in the catalogue are ignored
    ],
)
def test_next_quiz_walks_without_repeating(played: list[str], expected: str) -> None:
    assert next_quiz(QUIZZES, played) == expected


def test_next_quiz_of_an_empty_catalogue() -> None:
    assert next_quiz([], ["a"]) is None


# -- every language's words, next runs, duplicates, time zones ---------------------------------

WORDS = {
    "lun": (0,),
    "mer.": (2,),
    "mercredi": (2,),
    "àllarba": (2,),
    "allarba": (2,),
    "ajjuma": (4,),
    "gaawu": (5,),
    "dibéer": (6,),
    "quotidien": tuple(range(7)),
}


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("lun,mer", (0, 2)),
        ("LUN,Mer.", (0, 2)),
        ("Allarba,àjjuma", (2, 4)),
        ("gaawu,dibeer", (5, 6)),
        ("quotidien", tuple(range(7))),
        ("lun,wed", None),  # only the vocabulary given: English comes with it in the bot
    ],
)
def test_days_in_a_vocabulary_ignore_case_and_diacritics(
    text: str, days: tuple[int, ...] | None
) -> None:
    vocabulary = {fold(word): value for word, value in WORDS.items()}
    if days is None:
        with pytest.raises(ScheduleError):
            parse_days(text, vocabulary)
    else:
        assert parse_days(text, vocabulary) == days


def test_special_quizzes_in_other_words() -> None:
    spec = parse_schedule(["Suivant", "mon", "7h30"], QUIZZES, specials={"suivant": "next"})
    assert (spec.quiz, spec.days, spec.time_text) == ("next", (0,), "07:30")
    assert parse_schedule(["a", "mon", "07:30"], QUIZZES, specials={"a": "next"}).quiz == "a"


def test_same_schedule_is_exact() -> None:
    spec = ScheduleSpec("next", (0, 2), 18, 30)
    assert same_schedule(spec, "next", "0,2", "18:30")
    assert not same_schedule(spec, "next", "0,2", "18:31")
    assert not same_schedule(spec, "random", "0,2", "18:30")
    assert not same_schedule(spec, "next", "0,2,4", "18:30")


PARIS = ZoneInfo("Europe/Paris")


@pytest.mark.parametrize(
    ("now", "days", "at", "expected"),
    [
        (datetime(2026, 12, 1, 9, 0, tzinfo=PARIS), (1,), "18:30", datetime(2026, 12, 1, 18, 30)),
        (datetime(2026, 12, 1, 19, 0, tzinfo=PARIS), (1,), "18:30", datetime(2026, 12, 8, 18, 30)),
        (datetime(2026, 12, 5, 9, 0, tzinfo=PARIS), (0, 2), "07:00", datetime(2026, 12, 7, 7, 0)),
        (datetime(2026, 3, 28, 12, 0, tzinfo=PARIS), (6,), "02:30", datetime(2026, 3, 29, 2, 30)),
    ],
)
def test_next_run_in_the_groups_zone(
    now: datetime, days: tuple[int, ...], at: str, expected: datetime
) -> None:
    found = next_run(days, at, now)
    assert found is not None and found.replace(tzinfo=None) == expected
