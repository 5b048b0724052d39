-- PostgreSQL twin of migrations/004_answers_finish_private.sql. A trigger's WHEN cannot hold a
-- subquery in PostgreSQL, so the kind test moves into the function; row triggers AFTER INSERT
-- run once the statement's rows are all in, so the count sees the whole batch, as on SQLite.
CREATE FUNCTION answers_finish_private_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT kind FROM attempts WHERE id = NEW.attempt_id) = 'private' THEN
        -- The latest answer's time: when one statement stores several answers of the attempt,
        -- PostgreSQL runs this after all of them, SQLite after each (its last run wins).
        UPDATE attempts SET status = 'finished', finished_at = (
            SELECT max(answered_at) FROM answers WHERE attempt_id = NEW.attempt_id)
        WHERE id = NEW.attempt_id AND status = 'active'
          AND (SELECT count(*) FROM answers WHERE attempt_id = NEW.attempt_id)
              >= json_array_length(option_orders::json);
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER answers_finish_private_attempt AFTER INSERT ON answers
    FOR EACH ROW EXECUTE FUNCTION answers_finish_private_attempt();
