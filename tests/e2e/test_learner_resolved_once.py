"""The sender and their language are resolved once per update, from memory after first sight:
no handler reads the learner's language from the store again (a read per tap would cost the
benchmark's hot path)."""

from __future__ import annotations

from typing import Any

from tests.e2e.harness import Harness
from tests.reliability.support import start_quiz


async def test_a_learners_language_is_read_from_the_store_once(harness: Harness) -> None:
    assert harness.bot is not None
    store = harness.bot.learners.store
    reads: list[int] = []
    read, read_many = store.user, store.choices_of

    async def counted(user_id: int) -> Any:
        reads.append(user_id)
        return await read(user_id)

    async def counted_many(user_ids: Any) -> Any:  # learners first seen together, one read
        reads.extend(user_ids)
        return await read_many(user_ids)

    store.user = counted  # type: ignore[method-assign]
    store.choices_of = counted_many  # type: ignore[method-assign]
    awa = harness.emu.user(4101, "Awa", language_code="fr")
    await awa.send("/help")
    await awa.private.wait_for(lambda m: "/quizzes" in m.text)
    question = await start_quiz(awa)
    await awa.tap(question, "A")
    mark = awa.private.mark()
    await awa.send("/stats")
    await awa.private.next_message(after=mark)
    assert reads == [awa.id]  # first sight only, whatever the number of updates and handlers
