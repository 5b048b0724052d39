-- PostgreSQL twin of migrations/037_upload_question_ids.sql (same column and rules).
-- JSON {"<id in the file>": "<id served>", ...} of a replaced quiz; NULL: the file's own ids.
ALTER TABLE uploaded_quizzes ADD COLUMN question_ids TEXT;
