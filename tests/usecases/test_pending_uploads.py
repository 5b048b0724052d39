"""A quiz file sent privately waits in the store for its sender to pick a group: the tap on a
group button may reach another worker (or the bot after a restart), which must know the file
(docs/caches.md). Two `QuizUploads` over one store stand for two workers."""

from __future__ import annotations

from typing import Any

from bot.content import default_content_dir
from bot.store.forget import ForgetStore
from bot.store.uploads import UploadStore
from bot.usecases.quiz_uploads import PENDING_PER_USER, PENDING_SECONDS, PendingFile, QuizUploads
from tests.e2e.harness import FakeClock

ADMIN, OTHER = 1001, 1009


def worker(db: Any, clock: FakeClock) -> QuizUploads:
    return QuizUploads(default_content_dir(), clock=clock, store=UploadStore(db))


def sent(clock: FakeClock, file_id: str = "FILE1", user_id: int = ADMIN) -> PendingFile:
    return PendingFile(user_id, file_id, "ours.gift", 321, clock())


async def test_a_file_sent_to_one_worker_is_taken_once_by_another(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    file = sent(clock)
    token = await a.remember(file)
    assert await b.take(token, OTHER) is None  # someone else's tap: nothing, and it stays
    assert await b.take(token, ADMIN) == file
    assert await a.take(token, ADMIN) is None  # once


async def test_a_pending_file_expires_and_each_user_keeps_a_few(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    old = await a.remember(sent(clock))
    clock.advance(PENDING_SECONDS + 1)
    assert await b.take(old, ADMIN) is None
    tokens = []
    for n in range(PENDING_PER_USER + 1):
        tokens.append(await a.remember(sent(clock, f"FILE{n}")))
        clock.advance(1)
    assert await b.take(tokens[0], ADMIN) is None  # the oldest made room
    taken = await b.take(tokens[-1], ADMIN)
    assert taken is not None and taken.file_id == f"FILE{PENDING_PER_USER}"


async def test_forgetting_a_learner_drops_their_pending_files(db: Any) -> None:
    clock = FakeClock()
    a = worker(db, clock)
    mine = await a.remember(sent(clock))
    theirs = await a.remember(sent(clock, "FILE9", OTHER))
    await ForgetStore(db).forget(ADMIN)
    assert await a.take(mine, ADMIN) is None
    assert await a.take(theirs, OTHER) is not None


async def test_a_file_waiting_for_a_replace_choice_is_bound_to_its_group(db: Any) -> None:
    """Its token taken as a group-choice button, or with another group, or by another admin:
    nothing; only its sender, for its group, once (on any worker)."""
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    file = PendingFile(ADMIN, "FILE1", "ours.gift", 321, clock(), chat_id=-100500)
    token = await a.remember(file)
    assert await b.take(token, ADMIN) is None  # not a group choice
    assert await b.take(token, ADMIN, -100600) is None  # another group
    assert await b.take(token, OTHER, -100500) is None  # another admin
    assert await b.waiting(token, -100500) and not await b.waiting(token, -100600)
    assert await b.take(token, ADMIN, -100500) == file
    assert not await a.waiting(token, -100500)
    assert await a.take(token, ADMIN, -100500) is None
