"""The learner page's answers per week count what its tiles and /stats count: a flashcard's
self-rating is not a scored answer (bot/store/analytics.py leaves it out), so a week of rated
flashcards must not read as answers "100 % right" beside "0 answers given". Both engines."""

from __future__ import annotations

from bot.store import Database
from bot.usecases.dashboard import DashboardService
from tests.e2e.harness import shipped_catalog
from tests.store.progress_kit import NOW, QUIZ, Clock, group_answer

LEARNER = 31


async def test_a_flashcards_rating_is_not_an_answer_of_the_week(db: Database) -> None:
    clock = Clock()
    attempt = await group_answer(db, -100, LEARNER, 0, 1, False, NOW - 60)  # one wrong answer
    question = shipped_catalog().quizzes[QUIZ].questions[1]

    async def rated(conn) -> None:  # type: ignore[no-untyped-def]
        # Two flashcards rated Good, as a private quiz records a rating (the attempt's kind
        # does not enter these counts).
        for index in (1, 2):
            await conn.execute(
                """INSERT INTO answers (attempt_id, question_index, user_id, option_index,
                                        is_correct, language, answered_at, question_id, option_id)
                   VALUES (?, ?, ?, 2, 1, 'en', ?, ?, 'rating:good')""",
                (attempt, index, LEARNER, NOW - 30, question.id),
            )

    await db.write(rated)
    page = await DashboardService(shipped_catalog(), db, clock=clock).learner(LEARNER)
    assert (page.overall.total, page.overall.right) == (1, 0)
    assert sum(w.count for w in page.weeks) == 1
    assert sum(w.right for w in page.weeks) == 0
