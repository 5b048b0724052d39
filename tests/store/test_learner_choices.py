"""`CachedLearnerChoices` (issue 26): a learner's chosen language and zone are read once and
kept, every write through it updates its copy, `/forget` drops it; on SQLite and PostgreSQL.

A write behind its back (another worker's `LearnerStore`) is not seen, which is why the
composition root gives several workers the plain store."""

from __future__ import annotations

from bot.store import Database, LearnerStore
from bot.store.learner_choices import CachedLearnerChoices

NOW = 1_790_000_000.0


async def test_choices_are_read_once_then_kept(db: Database) -> None:
    cached, other_worker = CachedLearnerChoices(db), LearnerStore(db)
    assert await cached.choices(7) == (None, None)  # unknown: nothing chosen
    await other_worker.set_language(7, "fr", NOW)
    assert await other_worker.choices(7) == ("fr", None)  # the plain store reads every time
    assert await cached.choices(7) == (None, None)  # kept: single process only


async def test_its_own_writes_update_what_it_keeps(db: Database) -> None:
    cached = CachedLearnerChoices(db)
    await cached.touch_user(8, "Awa", "fr", NOW, private=True)
    assert await cached.choices(8) == (None, None)
    await cached.set_language(8, "wo", NOW + 1)
    assert await cached.choices(8) == ("wo", None)
    await cached.set_timezone(8, "Africa/Dakar", NOW + 2)
    assert await cached.choices(8) == ("wo", "Africa/Dakar")
    await cached.set_language(8, "en", NOW + 3)
    assert await cached.choices(8) == ("en", "Africa/Dakar")  # the zone is kept with it


async def test_a_write_before_the_first_read_is_kept_too(db: Database) -> None:
    cached = CachedLearnerChoices(db)
    await cached.set_timezone(9, "Europe/Paris", NOW)
    assert await cached.choices(9) == (None, "Europe/Paris")


async def test_forget_cached_drops_the_copy(db: Database) -> None:
    cached, other_worker = CachedLearnerChoices(db), LearnerStore(db)
    await cached.set_language(10, "fr", NOW)
    assert await cached.choices(10) == ("fr", None)
    await other_worker.set_language(10, "en", NOW + 1)  # e.g. /forget, then a new choice
    cached.forget_cached(10)
    assert await cached.choices(10) == ("en", None)
