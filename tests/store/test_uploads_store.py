"""Uploaded quizzes in the store: versions per group and quiz id, the latest served, deletion
hides every version while the rows (and the answers given under them) stay."""

from __future__ import annotations

from bot.store import Database, GroupStore
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
    assert await store.delete(A, "mine", 3.0, "ga-mine")
    assert not await store.delete(A, "mine", 4.0, "ga-mine")  # nothing shown is left
    assert not await store.delete(B, "mine", 4.0, "gb-mine")  # another group's quiz is not touched
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


async def test_a_private_upload_looks_only_where_its_sender_was_seen(db: Database) -> None:
    """`groups_seen`: the groups the bot is in where the user added the bot or was confirmed
    as an admin (`group_seen`), or has points, the most recent first, at most `limit`."""
    groups, store = GroupStore(db), UploadStore(db)
    C, D = -300, -400
    for chat in (A, B, C, D):
        await groups.ensure_group(chat, f"group {chat}", "en", 30, "UTC", 1.0)
    await store.seen(A, 1001, 5.0)
    await store.seen(B, 1001, 7.0)
    await store.seen(C, 1002, 9.0)  # someone else
    await db.write(
        lambda conn: conn.execute(
            "INSERT INTO run_scores (attempt_id, chat_id, user_id, scoring, points, correct,"
            " answered, last_answer_at, scored_at) VALUES (1, ?, 1001, 'plain', 1, 1, 1, 6, 6)",
            (D,),
        )
    )
    assert [c for c, _ in await store.groups_seen(1001, 10)] == [B, D, A]
    assert await store.groups_seen(1001, 2) == [(B, "group -200"), (D, "group -400")]
    assert await store.groups_seen(4242, 10) == []  # a stranger: no group to ask about
    await store.seen(A, 1001, 8.0)  # seen again: first now
    assert [c for c, _ in await store.groups_seen(1001, 10)] == [A, B, D]


async def test_a_gone_group_is_not_offered_and_keeps_its_data(db: Database) -> None:
    groups, store = GroupStore(db), UploadStore(db)
    await groups.ensure_group(A, "ours", "fr", 30, "UTC", 1.0)
    await store.seen(A, 1001, 2.0)
    await store.add(A, "mine", "a.gift", "gift", "s1", 1001, 3.0)
    await store.gone(A, 4.0)
    assert await store.groups_seen(1001, 10) == []
    kept = await groups.group(A)
    assert kept is not None and not kept.member and kept.language == "fr"
    assert [u.quiz_id for u in await store.current()] == ["mine"]
    await groups.ensure_group(A, "", "en", 30, "UTC", 5.0)  # heard from again
    assert await store.groups_seen(1001, 10) == [(A, "ours")]


async def test_sightings_follow_a_supergroup_and_are_forgotten_with_the_learner(
    db: Database,
) -> None:
    groups, store = GroupStore(db), UploadStore(db)
    new = -1_000_000_000_100
    await groups.ensure_group(A, "ours", "en", 30, "UTC", 1.0)
    await store.seen(A, 1001, 2.0)
    await store.seen(A, 1002, 2.0)
    await store.seen(new, 1002, 3.0)  # already seen in the supergroup too
    await groups.migrate(A, new, 4.0)
    assert await store.groups_seen(1001, 10) == [(new, "ours")]
    assert await store.groups_seen(1002, 10) == [(new, "ours")]
    await ForgetStore(db).forget(1001)
    assert await store.groups_seen(1001, 10) == []
    assert await store.groups_seen(1002, 10) == [(new, "ours")]
