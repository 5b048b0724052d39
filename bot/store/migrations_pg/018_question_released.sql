-- PostgreSQL twin of migrations/018_question_released.sql (same column).
-- Send-once for group questions (issue 20): when a question's send was released to Telegram.
-- NULL while the question is open but not yet sent; set without a message id: the worker died
-- between sending and recording, and the question is not sent twice.
ALTER TABLE group_runs ADD COLUMN question_released_at DOUBLE PRECISION;
