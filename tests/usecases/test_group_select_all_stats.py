"""/groupstats and the dashboard's group page on select-all answers (kind: multiple, issue 17),
on SQLite and PostgreSQL: a submitted set counts once per selected option in the per-option
counts, "most chosen wrong" names a wrong option that was chosen (never a right one), and the
share right counts exact sets, as /stats does."""

from __future__ import annotations

from bot.core.stats import Accuracy
from bot.store import Database, GroupStore
from bot.store.analytics import AnalyticsStore
from bot.store.reviews import ReviewStore
from bot.usecases.dashboard import DashboardService
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import SpacedReview
from tests.e2e.harness import shipped_catalog

CHAT = -100
QUIZ, QUESTION = "gradient-checkpointing", "checkpointing-facts"  # right: a and c
NOW = 1_800_000_000.0


async def _submissions(db: Database) -> None:
    """Awa a+b (partly right), Bob a+c (right), Cheikh b+c (partly right)."""
    groups = GroupStore(db)
    await groups.ensure_group(CHAT, "Study", "en", 30, "UTC", NOW)
    run_id = await groups.start_run(CHAT, 1, QUIZ, "[[0,1,2,3]]", 30.0, NOW)
    assert run_id is not None
    await groups.open_question(run_id, 0, NOW, NOW + 30)
    for user, name, picked, score, right in (
        (5, "Awa", "a,b", 0.0, False),
        (6, "Bob", "a,c", 1.0, True),
        (7, "Cheikh", "b,c", 0.0, False),
    ):
        await groups.record_answer(
            run_id, 0, user, name, "en", 0, right, "en", NOW + 1, 1000,
            question_id=QUESTION, option_id=picked[0], version="v1",
            selected_ids=picked, score=score,
        )  # fmt: skip
    assert await groups.close_question(run_id, 0)
    assert await groups.finish_run(run_id, "finished", NOW + 2)


async def test_groupstats_names_a_wrong_option_that_was_chosen(db: Database) -> None:
    await _submissions(db)
    catalog = shipped_catalog()
    review = SpacedReview(catalog, ReviewStore(db), clock=lambda: NOW)
    cases = LearnerStatsCases(catalog, AnalyticsStore(db), review, clock=lambda: NOW)
    report = await cases.group_report(CHAT)
    (stats,) = [q for q in report.questions if q.question_id == QUESTION]
    assert stats.overall == Accuracy(1, 3)  # exact sets right, one per member
    assert stats.by_language == {"en": Accuracy(1, 3)}
    assert stats.most_chosen_wrong == "b"  # in both wrong sets; a and c are right options
    assert stats.wrong_choices == {"b": 2}


async def test_dashboard_counts_each_selected_option(db: Database) -> None:
    await _submissions(db)
    page = await DashboardService(shipped_catalog(), db, clock=lambda: NOW).group(CHAT)
    (hard,) = [h for h in page.hardest if h.question.id == QUESTION]
    assert hard.chosen == {"en": [2, 2, 2, 0]}  # a, b, c, d: each selection counted
    assert hard.stats.overall == Accuracy(1, 3)
