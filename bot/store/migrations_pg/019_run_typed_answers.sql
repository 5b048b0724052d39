-- PostgreSQL twin of migrations/019_run_typed_answers.sql (same column and rule).
-- A group run's typed-answers choice, fixed when it starts (issue 17): with 0, its number
-- questions are left out of the run (never asked, never counted: "Question 3/9" counts only
-- the questions asked); with 1, they are asked and the first reply per member counts. Kept per
-- run so an admin who changes /settings mid-run, or a restart, never reshapes a running run.
ALTER TABLE group_runs ADD COLUMN typed_answers INTEGER NOT NULL DEFAULT 0
    CHECK (typed_answers IN (0, 1));
