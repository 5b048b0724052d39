-- The ForceReply prompt of an open number question (docs/caches.md): its message id, so that a
-- reply handled after a restart, or by another worker, still deletes the prompt. Valid only when
-- newer than the question's message (attempts.typed_message_id, review_sessions.message_id): an
-- older one is a previous question's prompt.
ALTER TABLE attempts ADD COLUMN typed_prompt_id INTEGER;
ALTER TABLE review_sessions ADD COLUMN prompt_id INTEGER;
