-- PostgreSQL twin of migrations/032_upload_guides.sql (same column and rules).
-- The guide an admin picked for a group's uploaded quiz whose file names none; NULL: none.
ALTER TABLE uploaded_quizzes ADD COLUMN guide TEXT;
