"""Uploaded quizzes in the store: versions per group and quiz id, the latest served, deletion
hides every version while the rows (and the answers given under them) stay."""

from __future__ import annotations

from bot.store import Database, GroupStore
from bot.store.conn import Conn
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


async def _rows(db: Database, sql: str) -> list[tuple[object, ...]]:
    async with db.reader.execute(sql) as cur:
        return [tuple(row) async for row in cur]


async def _answered(db: Database, served: str, question_id: str, user: int) -> None:
    """A finished group attempt of `served` with one wrong answer to `question_id`, and that
    miss queued for review."""

    async def write(conn: Conn) -> None:
        async with conn.execute(
            """INSERT INTO attempts (kind, chat_id, user_id, quiz_id, option_orders, status,
                                     started_at) VALUES ('group', ?, 1, ?, '', 'finished', 1)
               RETURNING id""",
            (A, served),
        ) as cur:
            row = await cur.fetchone()
        assert row is not None
        await conn.execute(
            """INSERT INTO answers (attempt_id, question_index, user_id, option_index, is_correct,
                                    language, answered_at, elapsed_ms, question_id, option_id)
               VALUES (?, 0, ?, 1, ?, 'en', 1, 900, ?, 'b')""",
            (row[0], user, False, question_id),
        )
        await conn.execute(
            """INSERT INTO review_items (user_id, quiz_id, question_id, due_at, last_seen_at)
               VALUES (?, ?, ?, 2, 1)""",
            (user, served, question_id),
        )

    await db.write(write)


async def test_a_new_version_keeps_its_question_ids_and_drops_the_removed_ones_reviews(
    db: Database,
) -> None:
    """Migration 037: the ids a replaced quiz's questions are served under are stored with its
    file; a removed question leaves the review queue (its answers stay); `latest` finds a
    deleted quiz's last version; `used_question_ids` knows every id the quiz ever served."""
    store, served = UploadStore(db), "g100-mine"
    await store.add(A, "mine", "a.txt", "aiken", "v1", 1001, 1.0)
    await _answered(db, served, "q1", 2001)
    await _answered(db, served, "q2", 2001)
    await _answered(db, "g100-other", "q2", 2001)  # another quiz's card of the same id
    ids = '{"q1":"q3","q2":"q1"}'
    second = await store.add(A, "mine", "b.txt", "aiken", "v2", 1001, 2.0, question_ids=ids,
                             removed=("q2",), served_id=served)  # fmt: skip
    assert second.question_ids == ids
    assert [(u.version, u.question_ids) for u in await store.current()] == [(2, ids)]
    queue = await _rows(db, "SELECT quiz_id, question_id FROM review_items ORDER BY 1, 2")
    assert queue == [("g100-mine", "q1"), ("g100-other", "q2")]
    assert await _rows(db, "SELECT count(*) FROM answers") == [(3,)]
    assert await store.used_question_ids(A, "mine", served) == {"q1", "q2", "q3"}
    assert await store.used_question_ids(B, "mine", "g200-mine") == set()

    assert await store.delete(A, "mine", 3.0, served)
    last = await store.latest(A, "mine")
    assert last is not None and (last.version, last.deleted_at) == (2, 3.0)
    assert await store.latest(B, "mine") is None


async def test_used_option_ids_read_the_maps_old_and_new_the_answers_and_the_reviews(
    db: Database,
) -> None:
    """A kept question's new option never takes an id it served: the option maps stored with
    its versions (beside maps stored before options were matched), the options its answers
    chose (a select-all answer's every one) and those its review cards recorded."""
    store, served = UploadStore(db), "g100-mine"
    await store.add(A, "mine", "a.txt", "aiken", "v1", 1001, 1.0, question_ids='{"q1":"q2"}')
    await _answered(db, served, "q2", 2001)  # option b
    await _answered(db, "g100-other", "q1", 2001)  # another quiz's

    async def write(conn: Conn) -> None:
        await conn.execute(
            """UPDATE answers SET option_id = 'c', selected_ids = 'c,e'
                WHERE question_id = 'q2' AND user_id = 2001"""
        )
        await conn.execute(
            """INSERT INTO review_log (user_id, quiz_id, question_id, is_correct, answered_at,
                                       option_id) VALUES (2001, ?, 'q1', 0, 5, 'f')""",
            (served,),
        )

    await db.write(write)
    ids = '{"q1":"q2","q2":{"id":"q1","options":{"a":"d","b":"a"}}}'
    await store.add(A, "mine", "b.txt", "aiken", "v2", 1001, 2.0, question_ids=ids)
    assert await store.used_option_ids(A, "mine", served) == {
        "q1": {"a", "d", "f"},
        "q2": {"c", "e"},
    }
    assert await store.used_question_ids(A, "mine", served) == {"q1", "q2"}
    assert await store.used_option_ids(B, "mine", "g200-mine") == {}
