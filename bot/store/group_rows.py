"""The `groups` and `group_runs` rows as Python values: a group's settings (`GroupSettings`,
and the columns a settings button may write) and a run row decoded into core's `GroupRun`.
Apart from the queries (groups.py) so that what a row means is read in one place, beside the
columns it comes from, and the settings cache (group_settings_cache.py) and the use cases name
the settings type without the store that fills it.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from bot.core.group_run import GroupRun
from bot.store.learners import decode_orders

SETTING_COLUMNS = frozenset(
    {
        "language",
        "seconds_per_question",
        "shuffle",
        "timezone",
        "title",
        "scoring",
        "streak_bonus",
        "popup_verdict",
        "typed_answers",
        "flashcards",
    }
)


@dataclass(frozen=True, slots=True)
class GroupSettings:
    chat_id: int
    title: str
    language: str
    seconds: int
    shuffle: bool
    timezone: str
    member: bool
    scoring: str = "plain"  # how runs are scored: 'plain' or 'speed' (bot/core/scoring.py)
    streak_bonus: bool = False
    popup_verdict: bool = False  # verdict in a member's popup (else only the letter, no give-away)
    typed_answers: bool = False  # number questions asked (first reply per member), else skipped
    flashcards: bool = False  # flashcards shown (front, then back at the reveal), else skipped


def settings_of(row: aiosqlite.Row) -> GroupSettings:
    return GroupSettings(
        chat_id=row["chat_id"],
        title=row["title"],
        language=row["language"],
        seconds=row["seconds_per_question"],
        shuffle=bool(row["shuffle"]),
        timezone=row["timezone"],
        member=bool(row["member"]),
        scoring=row["scoring"],
        streak_bonus=bool(row["streak_bonus"]),
        popup_verdict=bool(row["popup_verdict"]),
        typed_answers=bool(row["typed_answers"]),
        flashcards=bool(row["flashcards"]),
    )


def run_of(row: aiosqlite.Row) -> GroupRun:
    return GroupRun(
        id=row["attempt_id"],
        chat_id=row["chat_id"],
        quiz_id=row["quiz_id"],
        orders=decode_orders(row["option_orders"]),
        seconds=row["seconds"],
        current=row["current_question"],
        is_open=bool(row["question_open"]),
        message_id=row["question_message_id"],
        sent_at=row["question_sent_at"],
        deadline=row["deadline"],
        version=row["content_version"] or "",
        typed=bool(row["typed_answers"]),
        flashcards=bool(row["flashcards"]),
        released=row["question_released_at"] is not None,
        thread_id=row["thread_id"],
    )
