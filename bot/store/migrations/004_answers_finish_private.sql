-- A private attempt is finished by its last answer, inside the statement that stores it: the
-- batch of answers is one INSERT (bot/store/answer_batch.py), so the attempt's status cannot be
-- a second statement without a second trip or a window where every answer is in and the attempt
-- still active. The attempt's question count is the length of its option orders.
CREATE TRIGGER answers_finish_private_attempt AFTER INSERT ON answers
WHEN (SELECT kind FROM attempts WHERE id = NEW.attempt_id) = 'private'
BEGIN
    UPDATE attempts SET status = 'finished', finished_at = NEW.answered_at
    WHERE id = NEW.attempt_id AND status = 'active'
      AND (SELECT count(*) FROM answers WHERE attempt_id = NEW.attempt_id)
          >= json_array_length(option_orders);
END;
