"""What end-to-end tests ask the bot's store, each question named once with its SQL here.

The tests check behaviour through the chat; where they also check what was stored, they ask
one of these instead of writing SQL, so a change of the schema is mended in this file, not in
twenty tests. Each read returns the rows as `Harness.rows` does (a list of tuples, in the
store's common SQL dialect, on either engine), so an assertion compares what it compared before.
"""

from __future__ import annotations

from typing import Any

Rows = list[tuple[Any, ...]]


class StoreReads:
    """Named reads of the store, mixed into the harness (which supplies `rows`)."""

    def rows(self, sql: str, *args: object) -> Rows:
        raise NotImplementedError  # the harness reads its SQLite file or PostgreSQL database

    # -- attempts and answers ------------------------------------------------------------------

    def attempt_count(self) -> Rows:
        return self.rows("SELECT count(*) FROM attempts")

    def attempt_statuses(self) -> Rows:
        """Every attempt's status, private and group alike (in the store's order)."""
        return self.rows("SELECT status FROM attempts")

    def group_run_ids(self) -> Rows:
        return self.rows("SELECT id FROM attempts WHERE kind = 'group'")

    def answer_count(self) -> Rows:
        return self.rows("SELECT count(*) FROM answers")

    def answer_tally(self) -> Rows:
        """How many answers, and how many of them right."""
        return self.rows("SELECT count(*), sum(is_correct) FROM answers")

    def answers_to(self, question_id: str) -> Rows:
        """How many answers one question got."""
        return self.rows("SELECT count(*) FROM answers WHERE question_id = ?", question_id)

    def verdicts_at(self, index: int) -> Rows:
        """The stored verdicts of the answers to the question at `index` in its quiz."""
        return self.rows("SELECT is_correct FROM answers WHERE question_index = ?", index)

    def typed_texts(self, question_id: str) -> Rows:
        """What was typed in answer to a number question."""
        return self.rows("SELECT typed_text FROM answers WHERE question_id = ?", question_id)

    def last_attempt_status(self) -> Rows:
        return self.rows("SELECT status FROM attempts ORDER BY id DESC LIMIT 1")

    # -- spaced review ---------------------------------------------------------------------------

    def queued_count(self, user_id: int) -> Rows:
        """How many questions wait in `user_id`'s review queue."""
        return self.rows("SELECT count(*) FROM review_items WHERE user_id = ?", user_id)

    def schedule_of(self, question_id: str) -> Rows:
        """A queued question's FSRS stability and due time."""
        return self.rows(
            "SELECT stability, due_at FROM review_items WHERE question_id = ?", question_id
        )

    def review_queue(self) -> Rows:
        """Every queued question with its FSRS state, by question id."""
        return self.rows(
            "SELECT question_id, stability, due_at, last_seen_at FROM review_items"
            " ORDER BY question_id"
        )

    def due_dates(self) -> Rows:
        return self.rows("SELECT due_at FROM review_items")

    def review_log_count(self) -> Rows:
        return self.rows("SELECT count(*) FROM review_log")

    def review_log_tally(self) -> Rows:
        """How many reviews were logged, and how many of them right."""
        return self.rows("SELECT count(*), sum(is_correct) FROM review_log")

    def review_verdicts(self, question_id: str) -> Rows:
        """The logged reviews' verdicts of one question."""
        return self.rows("SELECT is_correct FROM review_log WHERE question_id = ?", question_id)

    def ratings_of(self, question_id: str) -> Rows:
        """A flashcard's ratings, in the order they were given."""
        return self.rows(
            "SELECT rating FROM review_ratings WHERE question_id = ? ORDER BY id", question_id
        )

    def pending_selection_count(self) -> Rows:
        """Select-all toggles kept server-side until Submit."""
        return self.rows("SELECT count(*) FROM pending_selections")

    def pending_selection_users(self) -> Rows:
        return self.rows("SELECT user_id FROM pending_selections")

    def practice_set_marks(self) -> Rows:
        """Each practice set's (or exam's) status and its marks so far."""
        return self.rows("SELECT status, marks FROM practice_sets")

    def practice_set_progress(self) -> Rows:
        """Each practice set's (or exam's) status, how many it answered, and its marks."""
        return self.rows("SELECT status, answered, marks FROM practice_sets")

    def problem_reports(self) -> Rows:
        """Every problem report, oldest first, with the content version it was made on."""
        return self.rows(
            """SELECT user_id, quiz_id, question_id, lang, content_version, reason, text
                 FROM problem_reports ORDER BY id"""
        )

    # -- learners ------------------------------------------------------------------------------

    def learner_timezone(self, user_id: int) -> Rows:
        return self.rows("SELECT timezone FROM users WHERE id = ?", user_id)

    def reminder_count(self) -> Rows:
        return self.rows("SELECT count(*) FROM reminders")

    def reminder_times(self) -> Rows:
        return self.rows("SELECT at_time FROM reminders")

    def reminder_zones(self) -> Rows:
        """Each reminder's time and the zone it follows."""
        return self.rows("SELECT at_time, timezone FROM reminders")

    def traces_of(self, user_id: int) -> dict[str, int]:
        """How many rows of each kind the store holds about one learner: what /forget erases."""

        def count(sql: str) -> int:
            return int(self.rows(sql, user_id)[0][0])

        return {
            "users": count("SELECT count(*) FROM users WHERE id = ?"),
            "attempts": count("SELECT count(*) FROM attempts WHERE user_id = ?"),
            "answers": count("SELECT count(*) FROM answers WHERE user_id = ?"),
            "review_items": count("SELECT count(*) FROM review_items WHERE user_id = ?"),
            "reminders": count("SELECT count(*) FROM reminders WHERE user_id = ?"),
            # when their reminder is next due (bot/store/daily_dues.py)
            "reminder_due": count(
                "SELECT count(*) FROM daily_dues WHERE kind = 'remind' AND ident = ?"
            ),
            "timezone": count("SELECT count(*) FROM users WHERE id = ? AND timezone IS NOT NULL"),
            "run_scores": count("SELECT count(*) FROM run_scores WHERE user_id = ?"),
            "group_members": count("SELECT count(*) FROM group_members WHERE user_id = ?"),
            "practice_sets": count("SELECT count(*) FROM practice_sets WHERE user_id = ?"),
            "practice_seen": count("SELECT count(*) FROM practice_seen WHERE user_id = ?"),
        }

    # -- groups --------------------------------------------------------------------------------

    def popup_verdicts(self) -> Rows:
        """Each group's setting: do answer popups show the verdict."""
        return self.rows("SELECT popup_verdict FROM groups")

    def group_timezones(self) -> Rows:
        return self.rows("SELECT timezone FROM groups")

    def group_languages(self) -> Rows:
        return self.rows("SELECT language FROM groups")

    def group_chats(self) -> Rows:
        """Every chat recorded as a group (a group that became a supergroup: the new id only)."""
        return self.rows("SELECT chat_id FROM groups")

    def bot_in_group(self, chat_id: int) -> Rows:
        """Whether the bot is still a member of the group `chat_id`."""
        return self.rows("SELECT member FROM groups WHERE chat_id = ?", chat_id)

    def upload_chats(self) -> Rows:
        """The chat each uploaded quiz version belongs to."""
        return self.rows("SELECT chat_id FROM uploaded_quizzes")

    def upload_count(self) -> Rows:
        """How many uploaded quiz versions are stored, deleted ones too."""
        return self.rows("SELECT count(*) FROM uploaded_quizzes")

    def live_upload_count(self) -> Rows:
        """How many uploaded quiz versions are not deleted."""
        return self.rows("SELECT count(*) FROM uploaded_quizzes WHERE deleted_at IS NULL")

    def member_present(self, user_id: int) -> Rows:
        """Whether `user_id` is still in the group, as the standings see it."""
        return self.rows("SELECT present FROM group_members WHERE user_id = ?", user_id)

    def run_score_count(self, user_id: int) -> Rows:
        return self.rows("SELECT count(*) FROM run_scores WHERE user_id = ?", user_id)

    def run_points(self) -> Rows:
        """Each member's points per run, as the standings add them."""
        return self.rows("SELECT user_id, points FROM run_scores")

    def schedule_count(self) -> Rows:
        """How many schedules run (those stopped when the bot was removed are not counted)."""
        return self.rows("SELECT count(*) FROM schedules WHERE stopped_at IS NULL")

    def schedules(self) -> Rows:
        """Each group schedule's quiz, days and time."""
        return self.rows("SELECT quiz, days, at_time FROM schedules")

    def schedule_topics_gone(self) -> Rows:
        """Whether each schedule's forum topic was found closed (told once)."""
        return self.rows("SELECT topic_gone FROM schedules")
