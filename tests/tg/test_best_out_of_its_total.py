"""A best score is shown out of the total it was scored on: a quiz cut from 10 questions to 5
after an 8/10 must not read "best 8/5" in /stats, the quiz list or the learner's page."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.core.stats import Accuracy, quiz_scores
from bot.emulator.html import parse_html
from bot.i18n import translator
from bot.tg import private_render, progress_render
from bot.usecases.dashboard import LearnerPage
from bot.usecases.learner_stats import LearnerStats, LearnerStatsCases
from bot.web import learner_page
from tests.e2e.harness import shipped_catalog

# 9/10 before the quiz was cut to 5 questions, then 3/5: the best is 9 out of 10.
HISTORY = [("{quiz}", 1.0, 9, 10), ("{quiz}", 2.0, 3, 5)]


def _scores(quiz_id: str) -> list:  # type: ignore[type-arg]
    return quiz_scores([(quiz_id, at, right, total) for _, at, right, total in HISTORY])


def test_stats_shows_the_best_out_of_its_own_total() -> None:
    tr, catalog = translator("en"), shipped_catalog()
    quiz = next(iter(catalog.quizzes.values()))
    data = LearnerStats(_scores(quiz.id), [], streak=0, due=0, queued=0)
    text = parse_html(progress_render.stats(tr, catalog, data, "en").text).text
    assert "best 9/10, last 3/5" in text
    assert "9/5" not in text


class _Attempts:
    """The analytics store's finished attempts, as the quiz list's marks read them."""

    def __init__(self, quiz_id: str) -> None:
        self.quiz_id = quiz_id

    async def finished_attempts(self, user_id: int) -> list[tuple[str, float, int, int]]:
        return [(self.quiz_id, at, right, total) for _, at, right, total in HISTORY]


async def test_the_quiz_list_marks_the_best_out_of_its_own_total() -> None:
    tr, catalog = translator("en"), shipped_catalog()
    quiz = next(iter(catalog.quizzes.values()))
    cases = LearnerStatsCases.__new__(LearnerStatsCases)
    cases.analytics = _Attempts(quiz.id)  # type: ignore[assignment]
    best = await cases.best_scores(1)
    text = private_render.quiz_list(tr, catalog, "en", marks=private_render.ListMarks(best)).text
    assert "best 9/10" in parse_html(text).text


def test_the_learner_page_shows_the_best_out_of_its_own_total() -> None:
    tr, catalog = translator("en"), shipped_catalog()
    quiz = next(iter(catalog.quizzes.values()))
    page = LearnerPage(
        [], [], Accuracy(), [], 0, [(s, quiz) for s in _scores(quiz.id)], ZoneInfo("UTC"),
        exams=[(s, quiz) for s in _scores(quiz.id)],
    )  # fmt: skip
    html = learner_page.render(tr, page, ZoneInfo("UTC"), 0.0, "")
    assert html.count("9/10") == 2 and "9/5" not in html
