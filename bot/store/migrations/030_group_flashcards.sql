-- Flashcards in group runs (issue 30): off by default, an admin turns them on in /settings.
-- When on, a run shows a flashcard's front, then its back when time is up, and nobody is
-- scored on it. Kept per run too, as typed answers are (019): a change mid-run, or a restart,
-- never reshapes a running run.
ALTER TABLE groups ADD COLUMN flashcards INTEGER NOT NULL DEFAULT 0 CHECK (flashcards IN (0, 1));
ALTER TABLE group_runs ADD COLUMN flashcards INTEGER NOT NULL DEFAULT 0
    CHECK (flashcards IN (0, 1));
