"""Uploaded quizzes in the store: versions per group and quiz id, the latest served, deletion
hides every version while the rows (and the answers given under them) stay."""

from __future__ import annotations

from bot.store import Database
from bot.store.forget import ForgetStore
from bot.store.uploads import UploadStore

A, B = -100, -200


async def test_versions_count_per_group_and_quiz(db: Database) -> None:
    store = UploadStore(db)
    first = await store.add(A, "mine", "a.gift", "gift", "::q:: x {=a ~b}", 1001, 1.0)
    second = await store.add(A, "mine", "b.gift", "gift", "::q:: y {=a ~b}", None, 2.0)
    other = await store.add(B, "mine", "c.yaml", "yaml", "id: mine", 1002, 3.0)
    assert (first.version, second.version, other.version) == (1, 2, 1)
    assert second.uploaded_by is None and second.source == "::q:: y {=a ~b}"
    current = await store.current()
    assert [(u.chat_id, u.quiz_id, u.version) for u in current] == [(A, "mine", 2), (B, "mine", 1)]


async def test_delete_hides_every_version_and_numbering_continues(db: Database) -> None:
    store = UploadStore(db)
    await store.add(A, "mine", "a.gift", "gift", "s1", 1001, 1.0)
    await store.add(A, "mine", "a.gift", "gift", "s2", 1001, 2.0)
    assert await store.delete(A, "mine", 3.0)
    assert not await store.delete(A, "mine", 4.0)  # nothing shown is left
    assert not await store.delete(B, "mine", 4.0)  # another group's quiz is not touched
    assert await store.current() == []
    again = await store.add(A, "mine", "a.gift", "gift", "s3", 1001, 5.0)
    assert again.version == 3
    assert [u.source for u in await store.current()] == ["s3"]


async def test_forget_empties_the_uploader(db: Database) -> None:
    store = UploadStore(db)
    await store.add(A, "mine", "a.gift", "gift", "s1", 1001, 1.0)
    await ForgetStore(db).forget(1001)
    (row,) = await store.current()
    assert row.uploaded_by is None and row.source == "s1"  # the group's quiz stays
