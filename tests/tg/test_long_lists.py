"""Every list the bot sends fits one Telegram message, cut between whole items (never inside
an HTML tag) with a plural-aware "…and N more": /schedules with 60 schedules failed with
"message is too long". Each renderer is fed far more than fits and its text is parsed as
Telegram parses it (the emulator's parser)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from bot.core.bidi import FSI
from bot.core.engine import Attempt, Score
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import Catalog
from bot.core.standings import Window
from bot.core.stats import Accuracy, QuestionStats, QuizScore
from bot.emulator.html import parse_html
from bot.i18n import translator
from bot.store import Schedule
from bot.store.analytics import GroupTotals
from bot.tg import (
    group_render,
    group_schedule_render,
    progress_render,
    result_render,
    standings_render,
)
from bot.tg import private_render as render
from bot.tg.long_lists import bounded
from bot.usecases.group_standings import MyPlaces
from bot.usecases.learner_stats import GroupReport, LearnerStats
from tests.e2e.harness import shipped_catalog

QUIZ = "gradient-checkpointing"
NOW = datetime(2026, 9, 21, 12, tzinfo=UTC)


def sent(text: str) -> str:
    """The text Telegram would show, checked as Telegram checks it."""
    shown = parse_html(text).text
    assert 0 < len(shown) <= MESSAGE_MAX_CHARS and len(text) <= MESSAGE_MAX_CHARS
    return shown


def left_out(text: str, noun: str) -> int:
    found = re.search(rf"…and (\d+) more {noun}", text)
    assert found, text[-300:]
    return int(found.group(1))


def many_quizzes(n: int) -> Catalog:
    catalog = shipped_catalog()
    quiz = catalog.quizzes[QUIZ]
    copies = {f"q{i}-{'x' * 20}": replace(quiz, id=f"q{i}-{'x' * 20}") for i in range(n)}
    return Catalog(catalog.guides, copies)


def long_quiz(n: int):  # type: ignore[no-untyped-def]
    quiz = shipped_catalog().quizzes[QUIZ]
    choices = [q for q in quiz.questions if len(q.options) > 1 and q.kind.value == "single"]
    return replace(quiz, questions=tuple(choices[i % len(choices)] for i in range(n)))


def test_bounded_keeps_whole_items_and_counts_the_rest() -> None:
    tr = translator("en")
    items = [f"<b>item {i}</b>\nsecond line" for i in range(1000)]

    def more(n: int) -> str:
        return tr.ngettext("…and {n} more schedule", "…and {n} more schedules", n)

    text = bounded(["head"], items, more, ["tail"], limit=500)
    shown = sent(text)
    assert len(text) <= 500 and shown.startswith("head\n") and shown.endswith("\ntail")
    kept = text.count("second line")
    assert left_out(text, "schedules") == 1000 - kept and kept > 0
    assert bounded(["head"], items[:2], more, ["tail"]).count("item") == 2  # all fit: no "more"
    assert "more schedule\n" in bounded([], items[:2], more, limit=50) + "\n"  # 1: singular
    assert (
        translator("fr")
        .ngettext("…and {n} more schedule", "…and {n} more schedules", 2)
        .startswith("…")
    )


def test_schedules_list_and_unschedule_confirmation() -> None:
    tr, catalog = translator("en"), shipped_catalog()
    listed = [Schedule(i, -1, "next", "0,2,4", f"{i % 24:02}:{i % 60:02}") for i in range(60)]
    text = group_schedule_render.schedule_list(tr, catalog, listed, "Africa/Dakar", NOW)
    shown = sent(text)
    assert shown.count("next run") + left_out(shown, "schedules") == 60
    assert shown.endswith("/unschedule <n> removes one.")
    done = group_schedule_render.unscheduled(tr, catalog, listed[0], 1, listed[1:], "UTC", NOW)
    assert sent(done).startswith("🗑 Removed:") and left_out(done, "schedules") > 0


def test_quiz_lists_in_private_and_in_a_group() -> None:
    tr, catalog = translator("en"), many_quizzes(300)
    screen = render.quiz_list(tr, catalog, "en")
    shown = sent(screen.text)
    assert shown.count("• ") + left_out(shown, "quizzes") == 300
    assert screen.keyboard is not None and len(screen.keyboard.inline_keyboard) <= 100
    picker = group_render.quiz_picker(tr, catalog, -1, "en")
    shown = sent(picker.text)
    assert shown.count("• ") + left_out(shown, "quizzes") == 300
    assert shown.endswith("Or type /push <id>.")
    assert picker.keyboard is not None and len(picker.keyboard.inline_keyboard) <= 100


def test_stats_and_the_groups_section() -> None:
    tr, catalog = translator("en"), shipped_catalog()
    scores = [QuizScore(f"quiz-{i:04}-{'y' * 40}", 1, 1, 1, 2, 0.0) for i in range(400)]
    data = LearnerStats(scores, [], streak=1, due=2, queued=3)
    shown = sent(progress_render.stats(tr, catalog, data, "en").text)
    assert shown.count("best 1/2") + left_out(shown, "quizzes") == 400
    assert shown.endswith("/review to go over the questions you missed.")
    groups = [MyPlaces(-i, "G" * 120, dict.fromkeys(Window)) for i in range(200)]
    shown = sent(standings_render.groups_section(tr, groups))
    assert shown.count(FSI) + left_out(shown, "groups") == 200


def test_groupstats_with_a_very_long_quiz() -> None:
    tr = translator("en")
    quiz = long_quiz(1)
    catalog = many_quizzes(120)
    questions = [
        QuestionStats(q.id, quiz.questions[0].id, Accuracy(1, 3), {}, {"en": Accuracy(1, 3)})
        for q in catalog.quizzes.values()
    ]
    report = GroupReport(GroupTotals(3, 3, 2, 9, 6), questions)
    shown = sent(progress_render.group_report(tr, catalog, report, "en").text)
    assert shown.count("by language") + left_out(shown, "questions") == 120


@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
def test_a_long_quizs_result_and_mistakes(lang: str) -> None:
    tr, quiz = translator(lang), long_quiz(400)
    orders = tuple(tuple(range(len(q.options))) for q in quiz.questions)
    wrong = tuple((q.correct + 1) % len(q.options) for q in quiz.questions)
    attempt = Attempt(1, 7, quiz.id, orders, wrong)
    missed = tuple(range(400))
    result = result_render.result(tr, quiz, attempt, Score(0, 400, missed), lang)
    assert "📖" in sent(result.text).splitlines()[-1]  # the guide link stays, whole
    review = result_render.review(tr, quiz, attempt, missed, lang)
    assert "📖" in sent(review.text).splitlines()[-1]
