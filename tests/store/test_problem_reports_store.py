"""Problem reports in the store (migration 016), on SQLite and PostgreSQL: one per learner,
question and reason; the sentence only while it is awaited; counts and listings without ids;
/forget deletes them."""

from __future__ import annotations

from bot.store import Database
from bot.store.forget import ForgetStore
from bot.store.problem_reports import NewReport, ProblemReportStore

AWA, BOB = 1001, 1002
QUIZ = "gradient-accumulation"


def report(
    user: int, question: str = "purpose", reason: str = "key", lang: str = "en"
) -> NewReport:
    return NewReport(user, QUIZ, question, lang, "v1", reason)


async def test_one_report_per_learner_question_and_reason(db: Database) -> None:
    store = ProblemReportStore(db)
    first = await store.add(report(AWA), now=10.0, wait_until=310.0)
    assert first is not None
    assert await store.add(report(AWA), now=20.0, wait_until=320.0) is None  # the constraint
    assert await store.add(report(AWA, reason="unclear"), 30.0, 330.0) is not None
    assert await store.add(report(BOB), 40.0, 340.0) is not None
    assert await store.counts([QUIZ, "other"]) == {(QUIZ, "purpose"): 3}
    assert await store.counts([]) == {}
    listed = await store.listing()
    assert [(r.reason, r.text, r.created_at) for r in listed] == [
        ("key", None, 10.0), ("unclear", None, 30.0), ("key", None, 40.0)
    ]  # fmt: skip
    assert await store.reporters() == {(QUIZ, "purpose", "en"): 2}
    assert await store.listing(quiz_id="other") == []
    assert len(await store.listing(since=25.0)) == 2


async def test_the_sentence_is_taken_only_while_awaited_and_only_the_newest_waits(
    db: Database,
) -> None:
    store = ProblemReportStore(db)
    older = await store.add(report(AWA, "purpose"), 10.0, 310.0)
    newer = await store.add(report(AWA, "loss"), 20.0, 320.0)
    assert older is not None and newer is not None
    assert await store.waiting(AWA, 30.0) == newer  # the older one stopped waiting
    assert not await store.add_text(AWA, older, "too late", 30.0)
    assert not await store.add_text(BOB, newer, "not mine", 30.0)
    assert await store.waiting(AWA, 321.0) is None  # the window closed
    assert not await store.add_text(AWA, newer, "after the window", 321.0)
    assert await store.add_text(AWA, newer, "Option C is right too.", 40.0)
    assert await store.waiting(AWA, 41.0) is None
    assert not await store.add_text(AWA, newer, "a second sentence", 42.0)
    texts = {r.question_id: r.text for r in await store.listing()}
    assert texts == {"purpose": None, "loss": "Option C is right too."}


async def test_skip_is_the_owners_and_once(db: Database) -> None:
    store = ProblemReportStore(db)
    made = await store.add(report(AWA), 10.0, 310.0)
    assert made is not None
    assert await store.skip(BOB, made) is None  # not Bob's: no report of his by that id
    assert await store.skip(AWA, made + 1) is None  # no such report
    assert await store.skip(AWA, made) is True
    assert await store.skip(AWA, made) is False  # Awa's, no longer waiting
    assert await store.waiting(AWA, 11.0) is None


async def test_forget_deletes_the_learners_reports_only(db: Database) -> None:
    store = ProblemReportStore(db)
    await store.add(report(AWA), 10.0, 310.0)
    await store.add(report(AWA, reason="other"), 11.0, 311.0)
    await store.add(report(BOB), 12.0, 312.0)
    forgotten = await ForgetStore(db).forget(AWA)
    assert forgotten.problem_reports == 2
    assert await store.counts([QUIZ]) == {(QUIZ, "purpose"): 1}
    assert await store.reporters() == {(QUIZ, "purpose", "en"): 1}
