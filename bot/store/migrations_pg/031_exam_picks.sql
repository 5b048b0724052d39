-- PostgreSQL twin of migrations/031_exam_picks.sql (same column and rules).
-- The option each exam answer picked, one entry per answered question, each followed by a
-- comma: the option's id, empty when the time ran out ('' for exams before this migration).
ALTER TABLE practice_sets ADD COLUMN picks TEXT NOT NULL DEFAULT '';
