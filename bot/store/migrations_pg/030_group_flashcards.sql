-- PostgreSQL twin of migrations/030_group_flashcards.sql (same columns and rules).
-- Flashcards in group runs (issue 30): off by default, an admin turns them on in /settings.
ALTER TABLE groups ADD COLUMN flashcards INTEGER NOT NULL DEFAULT 0 CHECK (flashcards IN (0, 1));
ALTER TABLE group_runs ADD COLUMN flashcards INTEGER NOT NULL DEFAULT 0
    CHECK (flashcards IN (0, 1));
