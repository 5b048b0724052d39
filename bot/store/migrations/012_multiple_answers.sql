-- Select-all questions (kind: multiple, issue 17). The submission is the answer: one row per
-- person per question per attempt, as for every kind (the primary key holds it); toggling an
-- option before Submit is not an answer and lives in pending_selections until then.
--
-- answers.selected_ids: the submitted set, option ids comma-joined in the question's order
--   ('b,c'); NULL for the other kinds. option_index/option_id name the first selected option,
--   so readers that know one option per answer still see a real one.
-- answers.score: the partial credit of the answer (0..1, bot/core/kinds.py); NULL for rows of
--   other kinds, whose score is is_correct.
ALTER TABLE answers ADD COLUMN selected_ids TEXT;
ALTER TABLE answers ADD COLUMN score REAL CHECK (score IS NULL OR (score >= 0 AND score <= 1));

-- A member's toggled, not yet submitted options, kept server-side: a button carries only an
-- option's position, and the shared group message must not show anyone's choices. A table
-- rather than memory, so that with several workers (PostgreSQL) every tap of a member sees the
-- same selection whichever worker handles it, and a restart loses none (bot/store/selections.py).
CREATE TABLE pending_selections (
    attempt_id     INTEGER NOT NULL,
    question_index INTEGER NOT NULL CHECK (question_index >= 0),
    user_id        INTEGER NOT NULL,
    selected       INTEGER NOT NULL CHECK (selected >= 0),   -- bit i set: option index i chosen
    updated_at     REAL    NOT NULL,
    PRIMARY KEY (attempt_id, question_index, user_id)
) WITHOUT ROWID;
CREATE INDEX pending_selections_by_age ON pending_selections (updated_at);

-- The submitted answer ends the pending selection, in the statement that stores it.
CREATE TRIGGER answers_clear_pending_selection AFTER INSERT ON answers
WHEN NEW.selected_ids IS NOT NULL
BEGIN
    DELETE FROM pending_selections
    WHERE attempt_id = NEW.attempt_id AND question_index = NEW.question_index
      AND user_id = NEW.user_id;
END;
