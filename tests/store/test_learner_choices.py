"""`CachedLearnerChoices` (issues 26, 32): a learner's chosen language and zone are read once and
kept; every write of a choice in this process, through whichever store, drops the copy once it
is done, and so does `/forget`; on SQLite and on PostgreSQL (one process: the engine hears its
own writes; several workers: tests/workers/test_row_notify.py).

A change made with plain SQL, which no store function makes, is not seen: that shows what is
kept."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import Database, LearnerStore
from bot.store.forget import ForgetStore
from bot.store.learner_choices import CachedLearnerChoices

NOW = 1_790_000_000.0


async def _behind_its_back(db: Any, sql: str) -> None:
    async def change(conn: Any) -> None:
        await conn.execute(sql)

    await db.write(change)


async def test_choices_are_read_once_then_kept(db: Database) -> None:
    cached = CachedLearnerChoices(db)
    await LearnerStore(db).touch_user(7, "Awa", "fr", NOW, private=True)
    assert await cached.choices(7) == (None, None)  # nothing chosen
    await _behind_its_back(db, "UPDATE users SET language = 'fr' WHERE id = 7")
    assert await LearnerStore(db).choices(7) == ("fr", None)  # the plain store reads every time
    assert await cached.choices(7) == (None, None)  # kept


async def test_a_choice_written_through_another_store_of_the_process_is_heard(
    db: Database,
) -> None:
    cached, elsewhere = CachedLearnerChoices(db), LearnerStore(db)
    assert await cached.choices(7) == (None, None)
    await elsewhere.set_language(7, "fr", NOW)
    assert await cached.choices(7) == ("fr", None)
    await elsewhere.set_timezone(7, "Africa/Dakar", NOW + 1)
    assert await cached.choices(7) == ("fr", "Africa/Dakar")


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


async def test_forget_drops_the_copy(db: Database) -> None:
    cached = CachedLearnerChoices(db)
    await cached.set_language(10, "fr", NOW)
    assert await cached.choices(10) == ("fr", None)
    await ForgetStore(db).forget(10)
    assert await cached.choices(10) == (None, None)
    await cached.set_language(10, "en", NOW + 1)
    await _behind_its_back(db, "UPDATE users SET language = 'wo' WHERE id = 10")
    cached.forget_cached(10)  # and the use case's hook (bot/usecases/forgetting.py) too
    assert await cached.choices(10) == ("wo", None)


class _Counted(CachedLearnerChoices):
    """Counts the statements that read learners' choices (each a `choices_of`)."""

    def __init__(self, db: Any) -> None:
        super().__init__(db)
        self.statements: list[list[int]] = []

    async def choices_of(self, user_ids: Any) -> Any:
        self.statements.append(list(user_ids))
        return await super().choices_of(user_ids)


async def test_learners_first_seen_together_are_read_in_one_statement(db: Database) -> None:
    """A group's burst: every member's first tap asks at once. The first read goes alone, the
    others wait for it and go together; each gets its own choices, a stranger none."""
    store = LearnerStore(db)
    for user_id, lang in ((11, "fr"), (12, "wo"), (13, None)):
        await store.touch_user(user_id, "M", "en", NOW, private=False)
        if lang:
            await store.set_language(user_id, lang, NOW)
    await store.set_timezone(12, "Africa/Dakar", NOW)
    cached = _Counted(db)
    ids = [11, 12, 13, 99, *range(200, 240)]  # 99 and 200..239: never seen
    got = await asyncio.gather(*(cached.choices(user_id) for user_id in ids))
    assert got[:4] == [("fr", None), ("wo", "Africa/Dakar"), (None, None), (None, None)]
    assert set(got[4:]) == {(None, None)}
    assert sorted(i for statement in cached.statements for i in statement) == sorted(ids)
    assert len(cached.statements) <= 3  # 44 learners: one alone, then at most 32 per statement
    assert await cached.choices(12) == ("wo", "Africa/Dakar")  # kept: no more statements
    assert len(cached.statements) <= 3
