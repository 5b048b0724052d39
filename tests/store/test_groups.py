"""The store's guarantees for groups: one run per chat, one answer per member per question and
only while the question is open, migration moving everything, removal dropping schedules."""

from __future__ import annotations

import asyncio

from bot.store import Database, GroupStore, ScheduleStore, Stored

CHAT, NEW_CHAT = -100, -1000000000100


async def _run(store: GroupStore, chat: int = CHAT) -> int:
    run_id = await store.start_run(chat, 1, "quiz", "[[1,0],[0,1]]", 30.0, 1.0)
    assert run_id is not None
    return run_id


async def _answer(store: GroupStore, run_id: int, index: int, user: int, option: int = 0) -> Stored:
    return await store.record_answer(
        run_id,
        index,
        user,
        f"U{user}",
        "fr",
        option,
        option == 1,
        "fr",
        2.0,
        500,
        question_id=f"q{index}",
        option_id=f"o{option}",
        version="v1",
    )


async def test_settings_defaults_and_updates(db: Database) -> None:
    store = GroupStore(db)
    made = await store.ensure_group(CHAT, "Study", "wo", 30, "UTC", 1.0)
    assert (made.language, made.seconds, made.shuffle, made.timezone) == ("wo", 30, True, "UTC")
    again = await store.ensure_group(CHAT, "", "en", 10, "UTC", 2.0)
    assert again.language == "wo" and again.title == "Study"  # first settings are kept
    await store.update_group(CHAT, "shuffle", 0, 3.0)
    group = await store.group(CHAT)
    assert group is not None and not group.shuffle


async def test_one_active_run_per_group(db: Database) -> None:
    store = GroupStore(db)
    run_id = await _run(store)
    assert await store.start_run(CHAT, 2, "other", "[]", 30.0, 1.0) is None
    assert await store.start_run(-200, 2, "other", "[]", 30.0, 1.0) is not None
    assert await store.finish_run(run_id, "finished", 5.0)
    assert not await store.finish_run(run_id, "finished", 6.0)
    assert await store.start_run(CHAT, 2, "other", "[]", 30.0, 7.0) is not None


async def test_a_question_is_released_once_and_never_opened_again(db: Database) -> None:
    """Send-once: the opening whose send left first wins; a question released to Telegram is
    not opened (sent) again, even with its message id never recorded (its worker died)."""
    store = GroupStore(db)
    run_id = await _run(store)
    assert await store.open_question(run_id, 0, 1.0, 31.0)  # worker A opens question 1
    assert await store.open_question(run_id, 0, 2.0, 32.0)  # B takes the run over, opens it
    assert not await store.question_released(run_id, 0, 1.0, 3.0)  # A's send must not leave
    assert await store.question_released(run_id, 0, 2.0, 3.0)  # B's leaves
    assert await store.question_released(run_id, 0, 2.0, 3.5)  # B's retry: still B's
    (run,) = await store.active_runs()
    assert (run.released, run.message_id, run.sent_at) == (True, None, 2.0)
    assert not await store.open_question(run_id, 0, 4.0, 34.0)  # B died: never sent again
    (run,) = await store.active_runs()
    assert (run.released, run.sent_at, run.deadline) == (True, 2.0, 32.0)
    assert await store.close_question(run_id, 0)
    assert await store.open_question(run_id, 1, 40.0, 70.0)  # the next question: not released
    (run,) = await store.active_runs()
    assert (run.current, run.released) == (1, False)


async def test_answers_only_while_the_question_is_open(db: Database) -> None:
    store = GroupStore(db)
    run_id = await _run(store)
    assert await _answer(store, run_id, 0, 10) is Stored.CLOSED  # nothing asked yet
    await store.open_question(run_id, 0, 1.0, 31.0)
    await store.question_sent(run_id, 0, 99)
    assert await _answer(store, run_id, 0, 10, 1) is Stored.STORED
    assert await _answer(store, run_id, 0, 10, 0) is Stored.DUPLICATE
    assert await _answer(store, run_id, 0, 11, 0) is Stored.STORED
    assert await _answer(store, run_id, 1, 12) is Stored.CLOSED  # not the current question
    assert await store.close_question(run_id, 0)
    assert not await store.close_question(run_id, 0)
    assert await _answer(store, run_id, 0, 12) is Stored.CLOSED
    assert sorted(await store.chosen_options(run_id, 0)) == [0, 1]
    (run,) = await store.active_runs()
    assert (run.current, run.is_open, run.message_id, run.deadline) == (0, False, 99, 31.0)
    standings = {s.user_id: s for s in await store.standings(run_id)}
    assert standings[10].correct == 1 and standings[10].name == "U10"
    assert standings[11].total_ms == 500


async def test_migration_moves_settings_runs_history_and_schedules(db: Database) -> None:
    store, schedules = GroupStore(db), ScheduleStore(db)
    await store.ensure_group(CHAT, "Study", "fr", 20, "Africa/Dakar", 1.0)
    await store.ensure_group(NEW_CHAT, "", "en", 30, "UTC", 1.5)  # seen first in the new chat
    run_id = await _run(store)
    await schedules.add_schedule(CHAT, "next", "0,1", "08:00", 1, 2.0)
    assert await store.migrate(CHAT, NEW_CHAT, 3.0)
    moved = await store.group(NEW_CHAT)
    assert moved is not None and (moved.language, moved.timezone) == ("fr", "Africa/Dakar")
    assert await store.group(CHAT) is None
    assert [s.chat_id for s in await schedules.schedules()] == [NEW_CHAT]
    assert (await store.run(run_id)).chat_id == NEW_CHAT  # type: ignore[union-attr]
    assert await store.played_quizzes(NEW_CHAT) == ["quiz"]
    assert not await store.migrate(CHAT, NEW_CHAT, 4.0)  # the second service message: no-op


async def test_a_stray_run_of_the_old_chat_does_not_break_the_move(db: Database) -> None:
    """A button tapped in the old chat before this process heard of the move started a run
    under the old id; its first send learned of the move, and moving it beside the
    supergroup's own run, in the same topic, broke one active run per topic (IntegrityError).
    The supergroup's run stays; the stray one, which nobody can see, is abandoned."""
    store = GroupStore(db)
    await store.ensure_group(NEW_CHAT, "Study", "en", 30, "UTC", 1.0)
    kept = await _run(store, NEW_CHAT)
    stray = await _run(store, CHAT)
    await store.migrate(CHAT, NEW_CHAT, 3.0)
    assert (await store.run(kept)).chat_id == NEW_CHAT  # type: ignore[union-attr]
    assert await store.run(stray) is None


async def test_the_move_is_kept_and_a_stray_row_never_overwrites_the_supergroups(
    db: Database,
) -> None:
    """The old id is kept (`moved_to`), so that the old chat is not recorded as a group again.
    A row the old chat got before the move was heard was moved over the supergroup's settings by
    the second service message; it is dropped instead."""
    store = GroupStore(db)
    await store.ensure_group(CHAT, "Study", "fr", 20, "Africa/Dakar", 1.0)
    assert await store.moved_to(CHAT) is None
    assert await store.migrate(CHAT, NEW_CHAT, 2.0)
    assert await store.moved_to(CHAT) == NEW_CHAT
    await store.ensure_group(CHAT, "", "en", 30, "UTC", 3.0)  # the old chat, seen meanwhile
    assert not await store.migrate(CHAT, NEW_CHAT, 4.0)  # the second service message
    moved = await store.group(NEW_CHAT)
    assert moved is not None and (moved.language, moved.timezone) == ("fr", "Africa/Dakar")
    assert await store.group(CHAT) is None


async def test_leaving_abandons_the_run_and_drops_schedules(db: Database) -> None:
    store, schedules = GroupStore(db), ScheduleStore(db)
    await store.ensure_group(CHAT, "Study", "en", 30, "UTC", 1.0)
    run_id = await _run(store)
    first = await schedules.add_schedule(CHAT, "next", "0", "08:00", 1, 2.0)
    other = await schedules.add_schedule(-200, "random", "1", "09:00", 1, 2.0)
    assert await store.left(CHAT, 3.0) == [first.id]
    assert [s.id for s in await schedules.schedules()] == [other.id]
    assert await store.run(run_id) is None
    group = await store.group(CHAT)
    assert group is not None and not group.member


async def test_close_and_count_sees_every_answer_while_reads_overlap(db: Database) -> None:
    """The reveal counts inside the closing write: the shared reader connection keeps an old
    snapshot while overlapping reads keep a statement open, and would miss fresh answers."""
    import asyncio

    store = GroupStore(db)
    stop = asyncio.Event()

    async def reads() -> None:
        while not stop.is_set():
            await store.active_runs()

    readers = [asyncio.create_task(reads()) for _ in range(20)]
    try:
        for attempt in range(10):
            run_id = await store.start_run(CHAT - attempt, 1, "q", "[[0,1,2,3]]", 30.0, 1.0)
            assert run_id is not None
            await store.open_question(run_id, 0, 1.0, 31.0)
            for user in range(5):
                assert await _answer(store, run_id, 0, 100 + user, user % 4) is Stored.STORED
            counted = await store.close_and_count(run_id, 0) or []
            assert sorted(option for option, _ in counted) == [0, 0, 1, 2, 3]
            assert await store.close_and_count(run_id, 0) is None
    finally:
        stop.set()
        await asyncio.gather(*readers)


async def test_schedules_listed_right_after_adding_one_include_it_while_reads_overlap(
    db: Database,
) -> None:
    """/schedules right after /schedule once said "nothing scheduled": overlapping reads on the
    shared reader kept an old snapshot. Every read must see every write committed before it."""
    groups, schedules = GroupStore(db), ScheduleStore(db)
    await groups.ensure_group(CHAT, "G", "en", 30, "UTC", 1.0)
    stop = asyncio.Event()

    async def reads() -> None:
        while not stop.is_set():
            await schedules.schedules()
            await groups.group(CHAT)

    readers = [asyncio.create_task(reads()) for _ in range(20)]
    try:
        for n in range(1, 41):
            added = await schedules.add_schedule(CHAT, "next", "daily", "18:30", 1, 2.0)
            listed = await schedules.schedules(CHAT)
            assert added.id in [s.id for s in listed], n
            assert len(listed) == n
    finally:
        stop.set()
        await asyncio.gather(*readers)
