"""Spaced review of missed questions: FSRS memory states, and due dates on the learner's calendar.

Every question in a learner's queue carries an FSRS memory state (stability: days until recall
falls to 90 %; difficulty: 1..10) that the `fsrs` package (py-fsrs, the scheduler Anki uses)
updates on each review from a rating (`rating_for`), and turns into the next interval for the
desired retention. A miss anywhere (a quiz, a group run, an exam, a review) rates Again. Intervals
are whole days, without FSRS's minute-long learning steps: a learner meets a question again in
/review on a later day, not ten minutes later. Due dates fall on the *start of a day in the
learner's time zone*, not "24 hours later": a question missed at 23:50 is due when that learner's
next day begins, as a learner expects "tomorrow" to mean.

`fsrs` may be used here although `bot/core` is pure: it is a pure library (arithmetic on its own
dataclasses, no I/O), and every call passes the time and the card's id so it reads no clock;
fuzzing is off, so the same answer always gives the same due date.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from fsrs import Card, Rating, Scheduler, State

from bot.core.schedule import ScheduleError, parse_time

DEFAULT_RETENTION = 0.9

# The Leitner boxes of migrations 003..027 and their intervals in days: a migrated box becomes the
# stability its interval stood for (`from_box`).
LEITNER_INTERVALS: tuple[int, ...] = (1, 3, 7, 14, 30)
LEITNER_DIFFICULTY = 5.0  # Leitner kept no difficulty: FSRS's midpoint (1..10)

# "Fast": under this share of the question's median time; a median needs this many timed answers.
FAST_SHARE = 0.5
MEDIAN_MIN_ANSWERS = 5
# Longer than this between a question shown and its answer, the learner was away and came back:
# the time says nothing about how hard recall was (a card left open overnight was rated Hard).
AWAY_MS = 10 * 60 * 1000


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """A question in a learner's review queue; keyed by question *id*, so reordering is safe."""

    user_id: int
    quiz_id: str
    question_id: str
    stability: float  # FSRS: days until predicted recall falls to 90 %
    difficulty: float  # FSRS: 1 (easy) .. 10 (hard)
    due_at: float  # Unix time: the start of the learner's day it becomes due
    last_seen_at: float  # the last review (or miss): where FSRS's elapsed days start

    def is_due(self, now: float) -> bool:
        return self.due_at <= now


def scheduler(
    retention: float = DEFAULT_RETENTION, parameters: Sequence[float] | None = None
) -> Scheduler:
    """FSRS for this deployment: its desired retention and parameters (the defaults, or those
    `quizbot review optimize` fitted), whole-day intervals, no fuzz."""
    kwargs = {} if parameters is None else {"parameters": tuple(parameters)}
    return Scheduler(
        desired_retention=retention,
        learning_steps=(),
        relearning_steps=(),
        enable_fuzzing=False,
        **kwargs,  # type: ignore[arg-type]
    )


DEFAULT_SCHEDULER = scheduler()


def rating_for(
    correct: bool,
    elapsed_ms: int | None = None,
    median_ms: float | None = None,
    *,
    partial: bool = False,
) -> Rating:
    """The FSRS rating an answer earns: wrong → Again, except a partly right select-all
    submission (`partial`: some credit, not the exact set) → Hard; right but slower than the
    question's median time → Hard; right in under half the median → Easy; otherwise right (no
    timing, no median yet, or more than `AWAY_MS` after it was shown) → Good."""
    if partial and not correct:
        return Rating.Hard
    if not correct:
        return Rating.Again
    if elapsed_ms is None or median_ms is None or median_ms <= 0 or elapsed_ms > AWAY_MS:
        return Rating.Good
    if elapsed_ms > median_ms:
        return Rating.Hard
    if elapsed_ms < FAST_SHARE * median_ms:
        return Rating.Easy
    return Rating.Good


def median_time(elapsed: Sequence[int]) -> float | None:
    """The median of a question's timed answers, leaving out those given after the learner was
    away (`AWAY_MS`); None below `MEDIAN_MIN_ANSWERS` (noise)."""
    ordered = sorted(ms for ms in elapsed if ms <= AWAY_MS)
    if len(ordered) < MEDIAN_MIN_ANSWERS:
        return None
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def from_box(box: int) -> tuple[float, float]:
    """A Leitner box's (stability, difficulty): its interval is the stability it stood for
    (FSRS's stability is the interval after which recall is 90 %)."""
    box = min(max(box, 1), len(LEITNER_INTERVALS))
    return float(LEITNER_INTERVALS[box - 1]), LEITNER_DIFFICULTY


def local_day(moment: float, tz: tzinfo) -> date:
    """The calendar day a Unix time falls on in `tz`."""
    return datetime.fromtimestamp(moment, tz).date()


def start_of_day(day: date, tz: tzinfo) -> float:
    """Unix time of 00:00 on `day` in `tz` (the first valid instant where DST skips midnight)."""
    local = datetime(day.year, day.month, day.day, tzinfo=tz)
    # A DST gap at midnight (e.g. America/Santiago) makes 00:00 nonexistent; zoneinfo maps it
    # forward by fold rules, which is the moment the day really begins.
    return local.timestamp()


def due_after(moment: float, days: int, tz: tzinfo) -> float:
    """The start of the learner's day `days` days after the day `moment` falls on."""
    return start_of_day(local_day(moment, tz) + timedelta(days=days), tz)


def _day(moment: float, tz: tzinfo) -> datetime:
    """The learner's calendar day of `moment` as FSRS's UTC datetime: FSRS counts elapsed whole
    days, and a learner's "days since" are calendar days in their zone, not 24-hour spans."""
    day = local_day(moment, tz)
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _card(item: ReviewItem, tz: tzinfo) -> Card:
    # card_id and due given: Card() would otherwise read the clock (and sleep 1 ms).
    return Card(
        card_id=1,
        state=State.Review,
        stability=item.stability,
        difficulty=item.difficulty,
        due=_day(item.due_at, tz),
        last_review=_day(item.last_seen_at, tz),
    )


def _scheduled(
    user_id: int, quiz_id: str, question_id: str, card: Card, at: float, tz: tzinfo
) -> ReviewItem:
    assert card.stability is not None and card.difficulty is not None
    days = max(1, (card.due - _day(at, tz)).days)
    return ReviewItem(
        user_id, quiz_id, question_id, card.stability, card.difficulty, due_after(at, days, tz), at
    )


def after_miss(
    user_id: int,
    quiz_id: str,
    question_id: str,
    at: float,
    tz: tzinfo,
    fsrs: Scheduler = DEFAULT_SCHEDULER,
) -> ReviewItem:
    """A question missed at `at` outside review (a quiz, a group run, an exam): a new card
    rated Again, due on the learner's next day."""
    return first_rating(user_id, quiz_id, question_id, Rating.Again, at, tz, fsrs)


def first_rating(
    user_id: int,
    quiz_id: str,
    question_id: str,
    rating: Rating,
    at: float,
    tz: tzinfo,
    fsrs: Scheduler = DEFAULT_SCHEDULER,
) -> ReviewItem:
    """A new card rated `rating` at `at`: a miss (Again), or a flashcard the learner rated
    themselves in a quiz."""
    new = Card(card_id=1, state=State.Learning, due=_day(at, tz))
    card, _ = fsrs.review_card(new, rating, _day(at, tz))
    return _scheduled(user_id, quiz_id, question_id, card, at, tz)


def flashcard_rating(index: int) -> Rating:
    """FSRS's rating for a flashcard's rating button (0 = Again .. 3 = Easy)."""
    return Rating(index + 1)


def after_review(
    item: ReviewItem, rating: Rating, at: float, tz: tzinfo, fsrs: Scheduler = DEFAULT_SCHEDULER
) -> ReviewItem:
    """The item once reviewed at `at` with `rating`: FSRS's new state and due day."""
    card, _ = fsrs.review_card(_card(item, tz), rating, _day(at, tz))
    return _scheduled(item.user_id, item.quiz_id, item.question_id, card, at, tz)


def recall(item: ReviewItem, at: float, tz: tzinfo, fsrs: Scheduler = DEFAULT_SCHEDULER) -> float:
    """FSRS's predicted chance (0..1) that the learner recalls the question on `at`'s day."""
    return float(fsrs.get_card_retrievability(_card(item, tz), _day(at, tz)))


def parse_clock(text: str) -> str | None:
    """'7:30', '07:30', or the French '7h30', as 'HH:MM' (the forms /schedule accepts too);
    None unless it is a time of day ('25:00' is not)."""
    try:
        hour, minute = parse_time(text)
    except ScheduleError:
        return None
    return f"{hour:02d}:{minute:02d}"


_CLOCK_LIKE = re.compile(r"\d{1,3}\s*[:h.]\s*\d{0,3}", re.IGNORECASE)


def looks_like_clock(text: str) -> bool:
    """Written as a time of day, whether or not it is one ('24:00', '7h75'): the learner meant
    a time, so the answer is how to write one, not the command's whole usage."""
    return _CLOCK_LIKE.fullmatch(text.strip()) is not None


def review_order(option_count: int, rng: random.Random, shuffle: bool = True) -> tuple[int, ...]:
    """A fresh display order for a review, so the learner recalls the answer, not its letter
    (kept as written with `shuffle` off: true/false reads True, False)."""
    order = list(range(option_count))
    if shuffle:
        rng.shuffle(order)
    return tuple(order)


def encode_order(order: tuple[int, ...]) -> str:
    """An order as digits for callback data (at most 10 options, so one digit each)."""
    return "".join(str(i) for i in order)


def decode_order(text: str, option_count: int) -> tuple[int, ...] | None:
    """The order a button carried, or None unless it is a permutation of the options."""
    if not text.isdigit() or len(text) != option_count:
        return None
    order = tuple(int(c) for c in text)
    return order if sorted(order) == list(range(option_count)) else None
