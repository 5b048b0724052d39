"""/groupstats' item analysis from a real database (SQLite and PostgreSQL): 25 members answer a
quiz whose second question is keyed on a wrong option; the report flags it as mis-keyed, and
only it; a second run of the same members does not count (first sittings only)."""

from __future__ import annotations

from bot.core.item_analysis import Flag
from bot.store import Database
from bot.store.analytics import AnalyticsStore
from bot.store.interface import Engine
from bot.store.reviews import ReviewStore
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.spaced_review import SpacedReview
from tests.item_tables import MEMBERS, MISKEYED, QUESTIONS, QUIZ, miskeyed_catalog
from tests.usecases.item_analysis_kit import CHAT, NOW, run_quiz


def cases(db: Database) -> LearnerStatsCases:
    catalog = miskeyed_catalog()
    review = SpacedReview(catalog, ReviewStore(db), clock=lambda: NOW)
    return LearnerStatsCases(catalog, AnalyticsStore(db), review, clock=lambda: NOW)


async def test_the_miskeyed_question_is_flagged_and_only_it(db: Database) -> None:
    await run_quiz(db, MEMBERS, NOW)
    await run_quiz(db, MEMBERS, NOW + 3600, flip=True)  # a second sitting: must not count
    (quiz,) = (await cases(db).group_report(CHAT)).items
    assert quiz.quiz.id == QUIZ and [i.position for i in quiz.items] == list(range(QUESTIONS))
    assert all(i.analysis.answerers == MEMBERS for i in quiz.items)
    (flagged, *others) = quiz.flagged
    assert flagged.position == MISKEYED and flagged.analysis.miskeyed
    kinds = {flag for flag, _ in flagged.analysis.flags}
    assert {Flag.NEGATIVE, Flag.DISTRACTOR_BEATS_KEY} <= kinds
    assert (Flag.DISTRACTOR_BEATS_KEY, "c") in flagged.analysis.flags  # the true answer
    assert flagged.analysis.difficulty == 9 / 25  # 9 of the 12 weakest chose the wrong key
    assert not any(i.analysis.miskeyed for i in others)
    good = [i.analysis for i in quiz.items if i.position != MISKEYED]
    assert all(a.point_biserial is not None and a.point_biserial > 0.3 for a in good)


async def test_only_first_sittings_are_read(db: Engine) -> None:
    """The store picks each member's first run of the quiz: a group's long history is a few
    hundred rows, not every answer (the core filters again; this holds the store's part)."""
    await run_quiz(db, MEMBERS, NOW)
    await run_quiz(db, MEMBERS, NOW + 3600, flip=True)
    rows = await AnalyticsStore(db).item_responses(CHAT)
    assert len(rows) == MEMBERS * QUESTIONS
    assert len({attempt for *_, attempt, _, _ in rows}) == 1  # the first run's id only
    assert (
        len(await AnalyticsStore(db).item_responses(CHAT, since=NOW + 1800)) == MEMBERS * QUESTIONS
    )


async def test_under_twenty_answerers_nothing_is_flagged(db: Database) -> None:
    await run_quiz(db, 19, NOW)
    (quiz,) = (await cases(db).group_report(CHAT)).items
    assert all(not i.analysis.reliable and not i.analysis.flags for i in quiz.items)
    assert quiz.flagged == []


async def test_another_groups_answers_are_not_read(db: Database) -> None:
    await run_quiz(db, MEMBERS, NOW)
    assert (await cases(db).group_report(CHAT - 1)).items == []
