-- Study groups: per-group settings, the live state of a group run, and scheduled pushes.
CREATE TABLE groups (
    chat_id              INTEGER PRIMARY KEY,          -- Telegram chat id (moves on migration)
    title                TEXT    NOT NULL DEFAULT '',
    language             TEXT    NOT NULL DEFAULT 'en',
    seconds_per_question INTEGER NOT NULL DEFAULT 30 CHECK (seconds_per_question > 0),
    shuffle              INTEGER NOT NULL DEFAULT 1 CHECK (shuffle IN (0, 1)),
    timezone             TEXT    NOT NULL DEFAULT 'UTC',
    member               INTEGER NOT NULL DEFAULT 1 CHECK (member IN (0, 1)),  -- bot still in it
    created_at           REAL    NOT NULL,
    updated_at           REAL    NOT NULL
);

-- One row per group attempt: where the run stands, so a restart resumes it with its timer.
CREATE TABLE group_runs (
    attempt_id          INTEGER PRIMARY KEY REFERENCES attempts (id),
    chat_id             INTEGER NOT NULL,
    seconds             REAL    NOT NULL,               -- seconds per question for this run
    current_question    INTEGER NOT NULL DEFAULT -1,    -- -1 until the first question is asked
    question_open       INTEGER NOT NULL DEFAULT 0 CHECK (question_open IN (0, 1)),
    question_message_id INTEGER,
    question_sent_at    REAL,
    deadline            REAL
);
CREATE INDEX group_runs_by_chat ON group_runs (chat_id);

CREATE TABLE schedules (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id    INTEGER NOT NULL,
    quiz       TEXT    NOT NULL,                        -- a quiz id, 'next' or 'random'
    days       TEXT    NOT NULL,                        -- ISO weekdays 0 = Monday, e.g. '0,2,4'
    at_time    TEXT    NOT NULL,                        -- 'HH:MM' in the group's time zone
    created_by INTEGER,
    created_at REAL    NOT NULL
);
CREATE INDEX schedules_by_chat ON schedules (chat_id);
CREATE INDEX attempts_by_chat ON attempts (chat_id, kind);
