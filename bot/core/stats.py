"""A learner's progress and a group's results, summarised from plain answer rows.

The store hands over counts; the rules of what they mean (a streak, a best score, which wrong
option a group likes most) live here so they can be tested with tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction

from bot.core.models import Catalog

# An answer row's "option" for a select-all answer: its submitted set of option ids ("+a,c").
SELECTED = "+"

# (quiz id, question id) -> the ids of its right options (a select-all question's whole key).
RightOptions = Callable[[str, str], frozenset[str]]


def streak(active_days: Iterable[date], today: date) -> int:
    """Consecutive days with activity ending today, or yesterday (today is not over yet)."""
    days = set(active_days)
    cursor = today if today in days else today - timedelta(days=1)
    count = 0
    while cursor in days:
        count += 1
        cursor -= timedelta(days=1)
    return count


@dataclass(frozen=True, slots=True)
class QuizScore:
    """Best and last score of one learner on one quiz, over their finished private attempts.

    Each out of its own total: an edited quiz may have changed length between attempts."""

    quiz_id: str
    attempts: int
    best: int
    last: int
    total: int  # the last attempt's
    last_at: float
    best_total: int = 0  # the best attempt's total (0: `total`)

    def __post_init__(self) -> None:
        if not self.best_total:
            object.__setattr__(self, "best_total", self.total)


def quiz_scores(rows: Iterable[tuple[str, float, int, int]]) -> list[QuizScore]:
    """From (quiz_id, finished_at, correct, total) per finished attempt, most recent quiz first.

    The best is the highest share right (the latest of a tie), with the total it was out of."""
    by_quiz: dict[str, list[tuple[float, int, int]]] = {}
    for quiz_id, finished_at, correct, total in rows:
        by_quiz.setdefault(quiz_id, []).append((finished_at, correct, total))
    scores = []
    for quiz_id, attempts in by_quiz.items():
        attempts.sort()
        last_at, last, total = attempts[-1]
        _, best, best_total = max(
            attempts, key=lambda a: (Fraction(a[1], a[2]) if a[2] else Fraction(0), a[0])
        )
        scores.append(QuizScore(quiz_id, len(attempts), best, last, total, last_at, best_total))
    return sorted(scores, key=lambda s: -s.last_at)


@dataclass(frozen=True, slots=True)
class Accuracy:
    right: int = 0
    total: int = 0

    @property
    def ratio(self) -> float:
        return self.right / self.total if self.total else 0.0

    def plus(self, right: int, total: int) -> Accuracy:
        return Accuracy(self.right + right, self.total + total)


@dataclass
class QuestionStats:
    """How a group answered one question: overall, per option chosen, per member language.

    Keyed by content ids, so reordering a quiz's questions or options keeps the history.
    """

    quiz_id: str
    question_id: str
    overall: Accuracy = field(default_factory=Accuracy)
    wrong_choices: dict[str, int] = field(default_factory=dict)  # option id -> times chosen
    by_language: dict[str, Accuracy] = field(default_factory=dict)

    @property
    def most_chosen_wrong(self) -> str | None:
        """The wrong option chosen most often (first id on a tie), None if nobody erred."""
        if not self.wrong_choices:
            return None
        return min(self.wrong_choices, key=lambda o: (-self.wrong_choices[o], o))


def question_stats(
    rows: Iterable[tuple[str, str, str | None, str, bool, int]],
    unknown_language: str = "?",
    right_options: RightOptions | None = None,
) -> list[QuestionStats]:
    """From (quiz_id, question_id, language, option_id, is_correct, count) rows.

    A select-all answer (option `+a,c`) counts once in the shares (right only as the exact
    set, as in /stats); when it is not right, each option it chose that is not a right one
    (`right_options`) counts as a wrong choice, so "most chosen wrong" never names a right
    option. Without `right_options` its choices are not counted as wrong."""
    stats: dict[tuple[str, str], QuestionStats] = {}
    for quiz_id, question_id, language, option, correct, count in rows:
        key = (quiz_id, question_id)
        entry = stats.setdefault(key, QuestionStats(quiz_id, question_id))
        right = count if correct else 0
        entry.overall = entry.overall.plus(right, count)
        lang = language or unknown_language
        entry.by_language[lang] = entry.by_language.get(lang, Accuracy()).plus(right, count)
        if correct:
            continue
        if option.startswith(SELECTED):
            keys = right_options(quiz_id, question_id) if right_options else None
            wrong = [o for o in chosen_options(option) if keys is not None and o not in keys]
        else:
            wrong = [option]
        for choice in wrong:
            entry.wrong_choices[choice] = entry.wrong_choices.get(choice, 0) + count
    return [stats[key] for key in sorted(stats)]


def chosen_options(option: str) -> list[str]:
    """The option ids one answer row chose: each of a select-all set's, else the option."""
    if option.startswith(SELECTED):
        return [o for o in option[len(SELECTED) :].split(",") if o]
    return [option]


def right_options_in(catalog: Catalog) -> RightOptions:
    """`right_options` for `question_stats` from the content: a question that left it has
    none (it is not shown anyway)."""

    def right(quiz_id: str, question_id: str) -> frozenset[str]:
        quiz = catalog.known(quiz_id)  # a group's own quiz too
        for question in quiz.questions if quiz else ():
            if question.id == question_id:
                keys = question.correct_set or {question.correct}
                return frozenset(question.options[i].id for i in keys if i < len(question.options))
        return frozenset()

    return right


def hardest_first(
    questions: Sequence[QuestionStats], positions: Mapping[tuple[str, str], int]
) -> list[tuple[QuestionStats, int, list[int]]]:
    """Each quiz's questions, quizzes in the order they came, the lowest share right first (then
    question order); with each, its position now and the positions of the other questions of
    its quiz that share its exact share.

    `positions` maps (quiz id, question id) to where the question sits in its quiz now: stats
    are kept by id, so a reordered quiz shows each question's history at its new place; a
    question that left the content (no position) is left out."""
    quizzes = list(dict.fromkeys(q.quiz_id for q in questions))
    ordered: list[tuple[QuestionStats, int, list[int]]] = []
    for quiz_id in quizzes:
        mine = sorted(
            (
                (q, positions[q.quiz_id, q.question_id])
                for q in questions
                if q.quiz_id == quiz_id and (q.quiz_id, q.question_id) in positions
            ),
            key=lambda pair: (pair[0].overall.ratio, pair[1]),
        )
        for q, at in mine:
            tied = [i for o, i in mine if o is not q and o.overall.ratio == q.overall.ratio]
            ordered.append((q, at, tied))
    return ordered
