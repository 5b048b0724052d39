-- Send-once for group questions (issue 20): when a question's send was released to Telegram.
-- NULL while the question is open but not yet sent: a worker that died then left nothing in the
-- chat, and the question is sent (again). Set, without a message id: the worker died between
-- sending and recording, the question may well be in the chat, and it is not sent twice
-- (bot/core/group_run.py resume_step).
ALTER TABLE group_runs ADD COLUMN question_released_at REAL;
