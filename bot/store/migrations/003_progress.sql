-- Learner progress: the spaced-review queue, daily reminders, and the indexes behind /stats,
-- /groupstats and the export.

-- Every wrong answer, whoever wrote it (private attempt, group run, anything later), lands here
-- by trigger, so the review queue is fed without the answering code knowing about reviews. The
-- progress service drains it: it maps question_index to the question's id through the catalogue
-- and computes the due date in the learner's time zone, neither of which SQL can do.
CREATE TABLE review_inbox (
    attempt_id     INTEGER NOT NULL,
    question_index INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    answered_at    REAL    NOT NULL,
    PRIMARY KEY (attempt_id, question_index, user_id)
) WITHOUT ROWID;

CREATE TRIGGER answers_feed_review_inbox AFTER INSERT ON answers WHEN NEW.is_correct = 0
BEGIN
    INSERT OR IGNORE INTO review_inbox (attempt_id, question_index, user_id, answered_at)
    VALUES (NEW.attempt_id, NEW.question_index, NEW.user_id, NEW.answered_at);
END;

-- Mistakes made before this migration join the queue too.
INSERT OR IGNORE INTO review_inbox (attempt_id, question_index, user_id, answered_at)
    SELECT attempt_id, question_index, user_id, answered_at FROM answers WHERE is_correct = 0;

-- A learner's queue, keyed by question id (not index) so reordered content keeps its history.
-- `id` is short enough for callback data; mastered questions are deleted.
CREATE TABLE review_items (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL,
    quiz_id      TEXT    NOT NULL,
    question_id  TEXT    NOT NULL,
    box          INTEGER NOT NULL CHECK (box BETWEEN 1 AND 5),
    due_at       REAL    NOT NULL,
    last_seen_at REAL    NOT NULL,
    UNIQUE (user_id, quiz_id, question_id)
);
CREATE INDEX review_items_due ON review_items (user_id, due_at);

-- Every answer given in /review: activity for the streak, evidence for later tuning.
CREATE TABLE review_log (
    user_id     INTEGER NOT NULL,
    quiz_id     TEXT    NOT NULL,
    question_id TEXT    NOT NULL,
    box         INTEGER NOT NULL,                    -- the box it was in when answered
    is_correct  INTEGER NOT NULL CHECK (is_correct IN (0, 1)),
    answered_at REAL    NOT NULL
);
CREATE INDEX review_log_by_user ON review_log (user_id, answered_at);

-- Opt-in daily reminders, rebuilt into JobQueue jobs at start-up.
CREATE TABLE reminders (
    user_id    INTEGER PRIMARY KEY,
    at_time    TEXT    NOT NULL,                      -- 'HH:MM' in `timezone`
    timezone   TEXT    NOT NULL,
    created_at REAL    NOT NULL
);

-- Group misses already announced to a member in private: one message per run, ever.
CREATE TABLE review_notices (
    attempt_id INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    sent_at    REAL    NOT NULL,
    PRIMARY KEY (attempt_id, user_id)
) WITHOUT ROWID;

-- /stats reads a learner's finished private attempts: (user_id, quiz_id) alone would visit
-- every attempt they ever started.
CREATE INDEX attempts_finished_by_user ON attempts (user_id, kind, status, finished_at);
-- /groupstats and `export --chat` start from a chat's group attempts (002 may already have it).
CREATE INDEX IF NOT EXISTS attempts_by_chat ON attempts (chat_id, kind);
