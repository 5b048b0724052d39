"""Two workers (two `QuizUploads` over one store): a group's quiz uploaded, replaced or deleted
through one of them is served by the other after its next `sync` (docs/caches.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.content import default_content_dir
from bot.content.uploads import CheckedUpload
from bot.store.uploads import UploadStore
from bot.usecases.quiz_uploads import Choice, QuizUploads, Replaces, Stored
from tests.e2e.harness import FakeClock

ROOT = Path(__file__).resolve().parents[2]
CHAT = -900


def worker(db: Any, clock: FakeClock) -> QuizUploads:
    return QuizUploads(default_content_dir(), clock=clock, store=UploadStore(db))


async def upload(uploads: QuizUploads, data: bytes, choice: Choice | None = None) -> Stored:
    checked = await uploads.check("quiz.gift", data)
    assert isinstance(checked, CheckedUpload) and checked.quiz is not None
    stored = await uploads.accept(CHAT, 1, "quiz.gift", data, checked, set(), choice)
    assert isinstance(stored, Stored)
    return stored


async def test_an_upload_on_one_worker_is_served_by_the_other_after_a_sync(db: Any) -> None:
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    assert await b.load() == []
    data = (ROOT / "examples" / "quiz.gift").read_bytes()
    first = await upload(a, data)
    assert first.typed_id not in b.own(CHAT)
    [served] = await b.sync()
    assert served.id == first.quiz.id and b.own(CHAT)[first.typed_id].id == first.quiz.id
    assert await b.sync() == []  # nothing new: nothing checked again
    second = await upload(a, data, Choice.REPLACE)  # a new version, as its sender chose
    assert second.version == first.version + 1
    assert len(await b.sync()) == 1
    assert await a.delete(CHAT, first.typed_id)
    assert await b.sync() == [] and first.typed_id not in b.own(CHAT)


async def test_a_quiz_id_another_worker_just_stored_is_asked_about_not_replaced(db: Any) -> None:
    """Worker b has not synced yet: the store, not its copy, says the group has the id."""
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    data = (ROOT / "examples" / "quiz.gift").read_bytes()
    first = await upload(a, data)
    checked = await b.check("quiz.gift", data)
    assert isinstance(checked, CheckedUpload)
    asked = await b.accept(CHAT, 1, "quiz.gift", data, checked, set())
    assert isinstance(asked, Replaces) and asked.typed_id == first.typed_id
    assert asked.free_id == f"{first.typed_id}-2"
    kept = await b.accept(CHAT, 1, "quiz.gift", data, checked, set(), Choice.KEEP_BOTH)
    assert isinstance(kept, Stored) and (kept.typed_id, kept.version) == (asked.free_id, 1)


async def test_a_guide_picked_on_one_worker_is_served_by_the_other_and_by_the_next_version(
    db: Any,
) -> None:
    """Issue 28 #7: the guide an admin picks for a GIFT quiz (which names none) is the store's:
    another worker's sync serves it, and a new version of the quiz keeps it."""
    clock = FakeClock()
    a, b = worker(db, clock), worker(db, clock)
    data = (ROOT / "examples" / "quiz.gift").read_bytes()
    first = await upload(a, data)
    assert first.quiz.guide is None  # the file names none: no unrelated default
    await b.sync()
    guide = next(iter(first.checked.guides.values()))
    picked = await a.set_guide(CHAT, first.typed_id, guide)
    assert picked is not None and picked.guide == guide
    [served] = await b.sync()
    assert served.guide == guide and b.own(CHAT)[first.typed_id].guide == guide
    second = await upload(b, data, Choice.REPLACE)
    assert second.version == 2 and second.quiz.guide == guide
    assert await a.set_guide(CHAT, first.typed_id, None) is None  # version 1 is not current
