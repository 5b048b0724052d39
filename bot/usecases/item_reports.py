"""Item analysis per quiz, from the store's answer rows and the content: for /groupstats (a
group's runs), the dashboard's group page and `quizbot content stats` (every answer).

The figures and their rules are the core's (bot/core/item_analysis.py); this only joins the
rows with the quizzes they belong to, as the content has them now (questions by id, so a
reordered quiz keeps its history; a question that left the content is in no score).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.core.item_analysis import ItemAnalysis, Response, analyse, quiz_items
from bot.core.models import Catalog, Question, Quiz
from bot.store.analytics import ItemRow


@dataclass(frozen=True, slots=True)
class AnalysedItem:
    position: int  # where the question sits in its quiz now
    question: Question
    analysis: ItemAnalysis


@dataclass(frozen=True, slots=True)
class QuizItems:
    quiz: Quiz
    items: list[AnalysedItem]  # in quiz order; only questions somebody answered

    @property
    def flagged(self) -> list[AnalysedItem]:
        """Flagged items, mis-keyed ones first, then quiz order."""
        flagged = [i for i in self.items if i.analysis.flags]
        return sorted(flagged, key=lambda i: (not i.analysis.miskeyed, i.position))


def analysed(catalog: Catalog, rows: Iterable[ItemRow]) -> list[QuizItems]:
    """Each known quiz with answers, in quiz id order, with its questions' item analysis."""
    by_quiz: dict[str, list[Response]] = {}
    for quiz_id, question_id, user_id, attempt_id, right, chosen in rows:
        picked = frozenset(o for o in chosen.split(",") if o)
        by_quiz.setdefault(quiz_id, []).append(
            Response(user_id, attempt_id, question_id, right, picked)
        )
    result = []
    for quiz_id in sorted(by_quiz):
        quiz = catalog.known(quiz_id)  # a group's own quiz too
        if quiz is None:
            continue
        # A flashcard's self-rating has no key: neither an item nor part of any score.
        asked = [(k, q) for k, q in enumerate(quiz.questions) if not q.flashcard]
        analyses = analyse(quiz_items(q for _, q in asked), by_quiz[quiz_id])
        items = [
            AnalysedItem(k, question, a)
            for (k, question), a in zip(asked, analyses, strict=True)
            if a.answerers
        ]
        if items:
            result.append(QuizItems(quiz, items))
    return result
