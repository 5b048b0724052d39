-- Practice sets and exams (issue 18): questions drawn from every matching quiz, or one quiz
-- against a clock; one set at a time per learner; and the questions each learner has seen in
-- the current cycle (so none repeats until all were seen). Keys are content ids, which survive
-- edits of the content.
CREATE TABLE practice_sets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     INTEGER NOT NULL,
    questions   TEXT    NOT NULL,                  -- JSON: ["quiz_id/question_id", ...]
    orders      TEXT    NOT NULL,                  -- JSON: per question, position -> option
    answered    INTEGER NOT NULL DEFAULT 0,        -- questions answered so far
    correct     INTEGER NOT NULL DEFAULT 0,
    marks       TEXT    NOT NULL DEFAULT '',       -- per answered question: r(ight) w(rong) t(ime)
    kind        TEXT    NOT NULL DEFAULT 'practice' CHECK (kind IN ('practice', 'exam')),
    exam_clock  TEXT,                              -- exams: q (per question) or t (total)
    exam_seconds REAL,
    shown_at    REAL,                              -- exams: when the current question was shown
    status      TEXT    NOT NULL DEFAULT 'active'
                        CHECK (status IN ('active', 'finished', 'abandoned')),
    started_at  REAL    NOT NULL,
    finished_at REAL
);
CREATE UNIQUE INDEX practice_sets_one_active ON practice_sets (user_id) WHERE status = 'active';

CREATE TABLE practice_seen (
    user_id     INTEGER NOT NULL,
    quiz_id     TEXT    NOT NULL,
    question_id TEXT    NOT NULL,
    PRIMARY KEY (user_id, quiz_id, question_id)
) WITHOUT ROWID;
