-- PostgreSQL twin of migrations/007_standings.sql (same tables, keys and indexes).
-- Lasting standings (issue 18): a group's scoring setting, every member's score per run, and
-- which members left the group (kept in history, not listed).
ALTER TABLE groups ADD COLUMN scoring TEXT NOT NULL DEFAULT 'plain'
    CHECK (scoring IN ('plain', 'speed'));
ALTER TABLE groups ADD COLUMN streak_bonus INTEGER NOT NULL DEFAULT 0
    CHECK (streak_bonus IN (0, 1));

-- Written once when a run ends (finished or stopped), with the group's scoring then, so standings
-- over a window are one indexed sum and a later change of mode never rescores history.
CREATE TABLE run_scores (
    attempt_id     BIGINT  NOT NULL,
    chat_id        BIGINT  NOT NULL,
    user_id        BIGINT  NOT NULL,
    scoring        TEXT    NOT NULL,                 -- 'plain' or 'speed', '+streak' if a bonus
    points         INTEGER NOT NULL,
    correct        INTEGER NOT NULL,
    answered       INTEGER NOT NULL,
    last_answer_at DOUBLE PRECISION NOT NULL,
    scored_at      DOUBLE PRECISION NOT NULL,        -- the run's end: the window it counts in
    PRIMARY KEY (attempt_id, user_id)
);
CREATE INDEX run_scores_by_chat ON run_scores (chat_id, scored_at);
CREATE INDEX run_scores_by_user ON run_scores (user_id, chat_id);

-- Members seen leaving (a left_chat_member service message or a chat_member update); absent
-- means present. A member who comes back is listed again with their history.
CREATE TABLE group_members (
    chat_id    BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    present    INTEGER NOT NULL DEFAULT 1 CHECK (present IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);

-- Runs played before this migration count in plain mode (the only rule there was).
INSERT INTO run_scores (attempt_id, chat_id, user_id, scoring, points, correct, answered,
                        last_answer_at, scored_at)
    SELECT a.id, a.chat_id, s.user_id, 'plain', sum(s.is_correct), sum(s.is_correct), count(*),
           max(s.answered_at), coalesce(a.finished_at, max(s.answered_at))
    FROM attempts a JOIN answers s ON s.attempt_id = a.id
    WHERE a.kind = 'group' AND a.status <> 'active'
    GROUP BY a.id, a.chat_id, s.user_id, a.finished_at;
