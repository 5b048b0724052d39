"""A learner's own time zone (migration 015) on SQLite and PostgreSQL: kept on their profile,
their reminder moved with it in the same write, gone with /forget."""

from __future__ import annotations

from bot.store import Database, LearnerStore
from bot.store.forget import ForgetStore
from bot.store.reviews import Reminder, ReviewStore

NOW = 1_790_000_000.0


async def test_a_learners_zone_is_kept_and_their_reminder_follows(db: Database) -> None:
    learners, reviews = LearnerStore(db), ReviewStore(db)
    await learners.touch_user(5, "Awa", "fr", NOW, private=True)
    user = await learners.user(5)
    assert user is not None and user.timezone is None  # never chosen: the bot's default

    assert await learners.set_timezone(5, "Africa/Dakar", NOW) is None  # no reminder to move
    await reviews.set_reminder(5, "18:30", "Africa/Dakar", NOW)
    moved = await learners.set_timezone(5, "Europe/Paris", NOW + 1)
    assert moved == Reminder(5, "18:30", "Europe/Paris")  # same local time, the new zone
    assert await reviews.reminders(5) == [moved]
    user = await learners.user(5)
    assert user is not None and user.timezone == "Europe/Paris"
    assert user.language is None and user.first_name == "Awa"  # nothing else changed


async def test_a_zone_can_be_set_before_any_other_write(db: Database) -> None:
    learners = LearnerStore(db)
    await learners.set_timezone(8, "UTC", NOW)
    user = await learners.user(8)
    assert user is not None and user.timezone == "UTC"


async def test_forget_removes_the_zone_with_the_profile(db: Database) -> None:
    learners, reviews = LearnerStore(db), ReviewStore(db)
    await learners.touch_user(6, "Bob", "en", NOW, private=True)
    await learners.set_timezone(6, "America/New_York", NOW)
    await reviews.set_reminder(6, "07:00", "America/New_York", NOW)
    done = await ForgetStore(db).forget(6)
    assert done.profile and done.reminders == 1
    assert await learners.user(6) is None
    assert await db.rows("SELECT count(*) FROM users WHERE timezone IS NOT NULL") == [(0,)]  # type: ignore[attr-defined]
