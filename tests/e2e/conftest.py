"""The harness fixture, and which store engine an end-to-end test runs on.

The tests named in `ON_BOTH_ENGINES` run twice: on a SQLite file and on a fresh PostgreSQL
database of the session's throwaway server (tests/pgserver.py; skipped, saying how to get
PostgreSQL, where it is not installed); every other test runs on SQLite. Why these: see
tests/e2e/README.md. `QUIZBOT_E2E_ENGINES=postgresql python -m pytest tests/e2e` runs every
async test on PostgreSQL (or `sqlite,postgresql`: on both).
"""

from __future__ import annotations

import asyncio
import inspect
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store.pg.cluster import Cluster
from tests.e2e import harness as harness_module
from tests.e2e.harness import Harness, running
from tests.pgserver import new_database

ENGINES = ["sqlite", "postgresql"]
ALL = frozenset({"*"})
# module -> its tests that also run on PostgreSQL ("*": all): where the engines differ.
ON_BOTH_ENGINES: dict[str, frozenset[str]] = {
    # answers, private attempts, resume after a restart, duplicate and stale taps
    "test_private_quiz": ALL,
    "test_private_edges": ALL,
    "test_private_navigation": ALL,
    # reviews, streaks, practice sets, exams
    "test_progress": ALL,
    # review and practice rounds: guarded steps, one open round per learner, /stop, a restart
    "test_review_rounds": ALL,
    "test_review_card_binding": ALL,  # a card's answer bound to its own queue item
    "test_practice": ALL,
    "test_exam": ALL,
    "test_exam_no_verdict": ALL,  # an exam's misses queued in the write that ends it
    "test_exam_no_quiz": ALL,  # no private quiz starts or goes on while an exam runs
    "test_exam_counted": ALL,  # an exam's score read from its practice set (/stats)
    # typed answers (answers.typed_text), in private and in groups (first reply per member)
    "test_private_number": ALL,
    # flashcards: a rating stored as an answer and queued with FSRS's state (review_ratings)
    "test_flashcards": frozenset(
        {
            "test_a_flashcard_in_a_private_quiz_is_flipped_rated_and_scheduled",
            "test_a_flashcard_rated_again_comes_back_in_review_and_is_rated_there",
            "test_an_admin_turns_flashcards_on_and_the_group_sees_the_back_unscored",
        }
    ),
    "test_group_number": ALL,
    # members' command replies and hints claimed in the store (courtesy_replies)
    "test_group_floods": frozenset(
        {"test_members_get_one_answer_a_command_a_minute_and_a_group_a_few"}
    ),
    # pictures' Telegram file_ids, kept and replaced in the store (media_file_ids)
    "test_images": frozenset(
        {
            "test_a_pictured_question_is_one_captioned_photo_edited_in_place",
            "test_the_picture_is_sent_again_by_file_id_also_after_a_restart",
            "test_a_file_id_telegram_refuses_is_replaced",
        }
    ),
    # problem reports: one per user, question and reason (a duplicate is a constraint)
    "test_report_problem": ALL,
    "test_practice_dead_ends": frozenset({"test_an_answered_practice_card_carries_report"}),
    # a startgroup link's Push now stores a run; the inline list counts plays (quiz_plays)
    "test_sharing": frozenset(
        {
            "test_an_admin_who_adds_the_bot_by_link_gets_the_card_and_can_push",
            "test_a_member_cannot_start_it_nor_forge_a_push_from_here_or_another_group",
            "test_inline_lists_quizzes_in_the_askers_language",
            "test_an_empty_query_lists_the_most_played_first",
        }
    ),
    # group runs: one active run, answers, reveals, restart mid-run, popups setting
    "test_groups": ALL,
    "test_progress_groups": ALL,  # group misses to reviews, /groupstats, `quizbot export`
    "test_group_popups": ALL,
    # forum topics: a run's topic stored (attempts.thread_id, one active run per topic), its
    # resume after a restart, a schedule's topic and its told-once mark
    "test_group_topics": frozenset(
        {
            "test_two_topics_play_at_once_each_in_its_own_topic_also_after_a_restart",
            "test_a_topic_closed_mid_run_ends_the_run_with_one_log_line",
            "test_a_schedule_runs_in_its_topic_and_a_closed_one_is_told_once",
            "test_a_renamed_topic_is_named_by_its_new_name",  # topic_names, read with schedules
        }
    ),
    "test_group_admin_screens": frozenset(
        {
            "test_stopped_results_count_the_questions_asked",
            "test_a_run_nobody_answers_stops_after_two_questions",
        }
    ),
    "test_groups_schedules": frozenset(
        {
            "test_settings_are_for_admins_and_change_the_group",
            "test_a_schedule_fires_walks_the_catalogue_survives_migration_and_removal",
            "test_unschedule_and_restore_at_start_up",
        }
    ),
    # standings (run_scores), /me, members who left
    "test_standings": frozenset(
        {
            "test_departures_seen_through_chat_member_updates",
            "test_speed_leaderboard_ranks_by_right_answers_then_time",
            "test_top_does_not_add_plain_and_speed_points",
        }
    ),
    # uploads: stored versions, nothing stored from a bad file, served after a restart
    "test_uploads": frozenset(
        {
            "test_an_admin_uploads_a_sound_yaml_quiz_and_reads_its_summary",
            "test_a_malformed_file_gets_line_numbered_problems_and_nothing_is_stored",
        }
    ),
    "test_uploads_flow": frozenset(
        {
            "test_after_a_restart_the_groups_quiz_is_served_and_a_shipped_id_is_refused",
            "test_a_member_reviews_the_groups_quiz_privately",
            "test_a_deleted_groups_quiz_leaves_the_review_queue",
            "test_a_private_upload_goes_to_the_group_the_admin_chooses",
            # and `quizbot export` / `quizbot content export --group` reading them
            "test_uploaded_gift_quiz_is_pushed_answered_and_counted_in_its_group_only",
            # a /push right after the migration: held after it by the per-chat update order
            "test_the_groups_quizzes_follow_it_into_a_supergroup",
        }
    ),
    # a learner's time zone and their reminder following it (one write), the reminder's button
    "test_timezone_reminders": frozenset(
        {
            "test_timezone_shows_the_default_then_sets_a_valid_zone",
            "test_the_reminder_fires_at_the_learners_local_time_and_follows_the_zone",
            "test_the_reminders_button_starts_the_review_for_its_owner_only",
            "test_the_streak_note_counts_days_in_the_learners_zone",
        }
    ),
    # answers kept on their questions when the content is reordered (`quizbot export`)
    "test_reload": frozenset({"test_reordered_content_keeps_every_past_answer_on_its_question"}),
    # forgetting a learner in one transaction
    "test_forget": ALL,  # /forget, and `quizbot forget` on either engine
    # ... beside the running bot, which forgets too: told by socket, or hearing a NOTIFY
    "test_forget_beside_the_bot": frozenset(
        {"test_the_running_bot_forgets_the_learner_on_either_engine"}
    ),
}


def on_both_engines(module: str, test: str) -> bool:
    chosen = ON_BOTH_ENGINES.get(module.rsplit(".", 1)[-1], frozenset())
    return chosen == ALL or test in chosen


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if not inspect.iscoroutinefunction(metafunc.function):
        return
    named = [e for e in os.environ.get("QUIZBOT_E2E_ENGINES", "").split(",") if e]
    if named:
        metafunc.parametrize("store_engine", named, indirect=True)
    elif on_both_engines(metafunc.module.__name__, metafunc.function.__name__):
        metafunc.parametrize("store_engine", ENGINES, indirect=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The store does not depend on the HTTP stack: of a test on both transports and both
    engines, PostgreSQL runs with quizbot's own transport only (CI time), unless
    QUIZBOT_E2E_ENGINES names the engines."""
    if os.environ.get("QUIZBOT_E2E_ENGINES"):
        return
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        both = params.get("store_engine") == "postgresql" and params.get("transport") == "httpx"
        (dropped if both else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(autouse=True)
def store_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """The engine of every harness this test builds: SQLite unless parametrized.

    A sync fixture, so the session's server (started with asyncio.run) and this test's
    database are set up outside the test's event loop."""
    engine: str = getattr(request, "param", "sqlite")
    dsn = None
    if engine == "postgresql":
        cluster: Cluster = request.getfixturevalue("pg_cluster")
        dsn = asyncio.run(new_database(cluster))
    harness_module.STORE.dsn = dsn
    try:
        yield engine
    finally:
        harness_module.STORE.dsn = None


@pytest.fixture
async def harness(tmp_path: Path, transport: str) -> AsyncIterator[Harness]:
    async with running(tmp_path, transport=transport) as h:
        yield h
