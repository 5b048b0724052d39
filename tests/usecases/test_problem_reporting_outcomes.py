"""The "⚠️ Report" use case on both engines: who may report what, once per reason, the sentence
only within its wait (a fake clock, no sleeping), and what is stored."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.core.models import Catalog
from bot.core.problem_report import SENTENCE_WAIT_SECONDS, Reason
from bot.store import Database, LearnerStore
from bot.store.problem_reports import ProblemReportStore
from bot.usecases import private_quiz as pq
from bot.usecases import problem_reporting as pr
from bot.usecases.catalog_ref import CatalogRef
from tests.e2e.harness import FakeClock, shipped_catalog

QUIZ = "gradient-checkpointing"
OWNER, OTHER = 21, 22


async def started(db: Database, catalog: Catalog, clock: FakeClock) -> tuple[pq.PrivateQuiz, int]:
    quiz = pq.PrivateQuiz(catalog, LearnerStore(db), clock=clock, rng=random.Random(5))
    shown = await quiz.start(OWNER, QUIZ)
    assert isinstance(shown, pq.ShowQuestion)
    assert isinstance(await quiz.answer(OWNER, shown.attempt.id, 0, 0, "fr"), pq.Answered)
    return quiz, shown.attempt.id


async def test_only_the_owner_reports_an_answered_question_once_per_reason(db: Database) -> None:
    catalog, clock = shipped_catalog(), FakeClock()
    quiz, attempt_id = await started(db, catalog, clock)
    store = ProblemReportStore(db)
    served = CatalogRef(catalog)  # what a reload swaps
    use = pr.ProblemReporting(served, LearnerStore(db), store, clock=clock)

    refused = pr.Refused()
    assert await use.open(OTHER, attempt_id, 0) == refused  # not theirs
    assert await use.open(OWNER, attempt_id + 100, 0) == refused  # never existed
    assert await use.open(OWNER, attempt_id, 1) == refused  # not answered yet
    assert await use.open(OWNER, attempt_id, 99) == refused  # no such question
    assert await use.report(OTHER, attempt_id, 0, Reason.KEY, "en") == refused
    assert await store.listing() == []

    opened = await use.open(OWNER, attempt_id, 0)
    assert isinstance(opened, pr.Reportable) and opened.index == 0
    made = await use.report(OWNER, attempt_id, 0, Reason.TRANSLATION, "fr")
    assert isinstance(made, pr.Reported) and made.reason is Reason.TRANSLATION
    again = await use.report(OWNER, attempt_id, 0, Reason.TRANSLATION, "fr")
    assert isinstance(again, pr.AlreadyReported)
    (stored,) = await store.listing()
    question = catalog.quizzes[QUIZ].questions[0]
    assert (stored.quiz_id, stored.question_id, stored.lang, stored.reason) == (
        QUIZ, question.id, "fr", "translation"
    )  # fmt: skip
    assert stored.content_version == catalog.quizzes[QUIZ].version

    # An abandoned attempt's answered question can still be reported.
    assert await quiz.stop(OWNER)
    assert isinstance(await use.report(OWNER, attempt_id, 0, Reason.OTHER, "fr"), pr.Reported)
    assert await use.counts([QUIZ]) == {(QUIZ, question.id): 2}

    # Content that changed since (a restart forgot the old version): refused.
    newer = replace(catalog.quizzes[QUIZ], version="something-else")
    served.current = Catalog(catalog.guides, {**catalog.quizzes, QUIZ: newer})
    assert await use.report(OWNER, attempt_id, 0, Reason.KEY, "fr") == refused


async def test_the_sentence_waits_five_minutes_and_is_cleaned(db: Database) -> None:
    catalog, clock = shipped_catalog(), FakeClock()
    _, attempt_id = await started(db, catalog, clock)
    store = ProblemReportStore(db)
    use = pr.ProblemReporting(catalog, LearnerStore(db), store, clock=clock)
    assert await use.sentence(OWNER, "nothing waits") == pr.NotWaiting()

    first = await use.report(OWNER, attempt_id, 0, Reason.KEY, "en")
    assert isinstance(first, pr.Reported) and await use.waiting(OWNER)
    assert not await use.waiting(OTHER)
    assert await use.sentence(OWNER, "\x00\u200b\n") == pr.EmptySentence()  # still waits
    clock.advance(SENTENCE_WAIT_SECONDS + 1)
    assert not await use.waiting(OWNER)
    assert await use.sentence(OWNER, "too late") == pr.NotWaiting()

    second = await use.report(OWNER, attempt_id, 0, Reason.UNCLEAR, "en")
    assert isinstance(second, pr.Reported)
    clock.advance(SENTENCE_WAIT_SECONDS - 1)
    assert await use.sentence(OWNER, "Line one\nline\ttwo \u202e" + "é" * 600) == pr.SentenceAdded()
    assert await use.sentence(OWNER, "a second message") == pr.NotWaiting()
    assert await use.skip(OWNER, second.report_id) == pr.NotWaiting()  # answered already
    assert await use.skip(OTHER, second.report_id) == pr.Refused()  # not theirs
    assert await use.skip(OWNER, second.report_id + 100) == pr.Refused()  # never existed
    texts = {r.reason: r.text for r in await store.listing()}
    assert texts["key"] is None
    assert texts["unclear"] == ("Line one line two " + "é" * 600)[:500]
