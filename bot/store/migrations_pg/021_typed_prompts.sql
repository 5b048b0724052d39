-- PostgreSQL twin of migrations/021_typed_prompts.sql.
ALTER TABLE attempts ADD COLUMN typed_prompt_id BIGINT;
ALTER TABLE review_sessions ADD COLUMN prompt_id BIGINT;
