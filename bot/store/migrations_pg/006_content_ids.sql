-- PostgreSQL twin of migrations/006_content_ids.sql: the same columns and partial index; the
-- review-inbox trigger's function is replaced so that misses carry their question id.
ALTER TABLE answers ADD COLUMN question_id TEXT;
ALTER TABLE answers ADD COLUMN option_id TEXT;
ALTER TABLE answers ADD COLUMN content_version TEXT;
ALTER TABLE attempts ADD COLUMN content_version TEXT;
ALTER TABLE review_log ADD COLUMN option_id TEXT;
ALTER TABLE review_log ADD COLUMN content_version TEXT;
ALTER TABLE review_inbox ADD COLUMN question_id TEXT;

CREATE OR REPLACE FUNCTION answers_feed_review_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO review_inbox (attempt_id, question_index, user_id, answered_at, question_id)
    VALUES (NEW.attempt_id, NEW.question_index, NEW.user_id, NEW.answered_at, NEW.question_id)
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE INDEX answers_without_ids ON answers (attempt_id) WHERE question_id IS NULL;
