-- PostgreSQL twin of migrations/012_multiple_answers.sql (same columns, table, index, trigger).
-- Select-all questions (kind: multiple, issue 17): the submitted set and its partial credit are
-- stored with the answer; toggles before Submit live in pending_selections.
ALTER TABLE answers ADD COLUMN selected_ids TEXT;
ALTER TABLE answers ADD COLUMN score DOUBLE PRECISION
    CHECK (score IS NULL OR (score >= 0 AND score <= 1));

CREATE TABLE pending_selections (
    attempt_id     BIGINT  NOT NULL,
    question_index INTEGER NOT NULL CHECK (question_index >= 0),
    user_id        BIGINT  NOT NULL,
    selected       INTEGER NOT NULL CHECK (selected >= 0),   -- bit i set: option index i chosen
    updated_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (attempt_id, question_index, user_id)
);
CREATE INDEX pending_selections_by_age ON pending_selections (updated_at);

CREATE FUNCTION answers_clear_pending_selection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM pending_selections
    WHERE attempt_id = NEW.attempt_id AND question_index = NEW.question_index
      AND user_id = NEW.user_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER answers_clear_pending_selection AFTER INSERT ON answers
    FOR EACH ROW WHEN (NEW.selected_ids IS NOT NULL)
    EXECUTE FUNCTION answers_clear_pending_selection();
