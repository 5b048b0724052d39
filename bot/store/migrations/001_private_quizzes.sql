-- Learners, their attempts and every answer. One answer per person per question per attempt.
CREATE TABLE users (
    id                INTEGER PRIMARY KEY,           -- Telegram user id
    first_name        TEXT    NOT NULL DEFAULT '',
    language          TEXT,                          -- the learner's choice; NULL until picked
    telegram_language TEXT,                          -- language_code Telegram last reported
    started_private   INTEGER NOT NULL DEFAULT 0 CHECK (started_private IN (0, 1)),
    created_at        REAL    NOT NULL,
    updated_at        REAL    NOT NULL
);

-- A private attempt (one learner) or a group run (many members answer the same questions).
CREATE TABLE attempts (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    kind          TEXT    NOT NULL CHECK (kind IN ('private', 'group')),
    chat_id       INTEGER NOT NULL,
    user_id       INTEGER,                           -- the learner, or the admin who pushed
    quiz_id       TEXT    NOT NULL,
    option_orders TEXT    NOT NULL,                  -- JSON: per question, display position -> option
    status        TEXT    NOT NULL DEFAULT 'active'
                          CHECK (status IN ('active', 'finished', 'abandoned')),
    started_at    REAL    NOT NULL,
    finished_at   REAL
);
CREATE UNIQUE INDEX attempts_one_active_private ON attempts (user_id)
    WHERE kind = 'private' AND status = 'active';
CREATE UNIQUE INDEX attempts_one_active_group ON attempts (chat_id)
    WHERE kind = 'group' AND status = 'active';
CREATE INDEX attempts_by_user ON attempts (user_id, quiz_id);

CREATE TABLE answers (
    attempt_id     INTEGER NOT NULL REFERENCES attempts (id),
    question_index INTEGER NOT NULL CHECK (question_index >= 0),
    user_id        INTEGER NOT NULL,
    option_index   INTEGER NOT NULL CHECK (option_index >= 0),
    is_correct     INTEGER NOT NULL CHECK (is_correct IN (0, 1)),
    language       TEXT,
    answered_at    REAL    NOT NULL,
    elapsed_ms     INTEGER,                          -- group runs: time from question to tap
    PRIMARY KEY (attempt_id, question_index, user_id)
) WITHOUT ROWID;
CREATE INDEX answers_by_user ON answers (user_id, answered_at);
