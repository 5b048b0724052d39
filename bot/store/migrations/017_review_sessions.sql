-- Review and practice rounds (issue 14): one learner going through their due questions
-- (`review`) or through missed questions not due yet (`practice`, which never moves a question
-- between boxes). A round knows how far it got ("Review · 2 of 5"), how many were right (its
-- summary), which message holds its open card (/stop removes that card's buttons), and whether
-- it is over: a tap on one of its cards after /stop, a newer /review or its end changes nothing.
CREATE TABLE review_sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL,
    mode        TEXT    NOT NULL CHECK (mode IN ('review', 'practice')),
    questions   TEXT    NOT NULL DEFAULT '',      -- practice: JSON ["quiz_id/question_id", ...]
    total       INTEGER NOT NULL DEFAULT 0,       -- questions in the round, as last shown
    shown       INTEGER NOT NULL DEFAULT 0,       -- cards sent (a second tap on Next sends none)
    answered    INTEGER NOT NULL DEFAULT 0,
    correct     INTEGER NOT NULL DEFAULT 0,
    message_id  INTEGER,                          -- the open card's message in the private chat
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'done', 'stopped')),
    started_at  REAL    NOT NULL,
    answered_at REAL,                             -- the latest answer (activity for the streak)
    ended_at    REAL
);
CREATE UNIQUE INDEX review_sessions_one_open ON review_sessions (user_id) WHERE status = 'open';
