-- FSRS instead of Leitner boxes (issue 30). Each queued question keeps an FSRS memory state:
-- stability (days until predicted recall falls to 90 %) and difficulty (1..10). A box becomes
-- the stability its interval stood for (box 1..5: 1, 3, 7, 14, 30 days; bot/core/review.py
-- from_box, which tests/store/test_fsrs_migration.py holds equal to this), difficulty 5; the due
-- date and the last review stay as they were, so nothing a learner had due disappears or moves.
ALTER TABLE review_items ADD COLUMN stability REAL NOT NULL DEFAULT 1.0;
ALTER TABLE review_items ADD COLUMN difficulty REAL NOT NULL DEFAULT 5.0;
UPDATE review_items SET stability = CASE box WHEN 1 THEN 1.0 WHEN 2 THEN 3.0 WHEN 3 THEN 7.0
                                             WHEN 4 THEN 14.0 ELSE 30.0 END;
ALTER TABLE review_items DROP COLUMN box;
ALTER TABLE review_log DROP COLUMN box;

-- Every rating FSRS applied (a miss anywhere: Again = 1; a review answer: 1..4, with the time
-- from card to tap when a round timed it), for `quizbot review optimize` and the medians that
-- decide Hard and Easy. Reviews logged before FSRS join as Again or Good, untimed.
CREATE TABLE review_ratings (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL,
    quiz_id     TEXT    NOT NULL,
    question_id TEXT    NOT NULL,
    rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
    elapsed_ms  INTEGER,
    reviewed_at REAL    NOT NULL
);
CREATE INDEX review_ratings_by_card ON review_ratings (user_id, quiz_id, question_id);
CREATE INDEX review_ratings_by_question ON review_ratings (quiz_id, question_id, id);
INSERT INTO review_ratings (user_id, quiz_id, question_id, rating, reviewed_at)
    SELECT user_id, quiz_id, question_id, CASE is_correct WHEN 1 THEN 3 ELSE 1 END, answered_at
    FROM review_log ORDER BY answered_at;

-- When a round's current card was shown: the elapsed time its answer is rated by.
ALTER TABLE review_sessions ADD COLUMN card_shown_at REAL;

-- The parameters `quizbot review optimize` fitted to this deployment's log (one row; none: the
-- fsrs package's defaults).
CREATE TABLE fsrs_parameters (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    parameters   TEXT    NOT NULL,                -- JSON list of 21 floats
    reviews      INTEGER NOT NULL,                -- ratings it was fitted on
    optimized_at REAL    NOT NULL
);
