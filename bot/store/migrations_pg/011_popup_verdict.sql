-- PostgreSQL twin of migrations/011_popup_verdict.sql (same column and rule).
-- No give-away in groups (issue 14): by default a member's popup only confirms the letter they
-- chose, and whether it was right comes with the reveal, for everyone at once. 1 keeps the old
-- behaviour (verdict and explanation in the popup).
ALTER TABLE groups ADD COLUMN popup_verdict INTEGER NOT NULL DEFAULT 0
    CHECK (popup_verdict IN (0, 1));
