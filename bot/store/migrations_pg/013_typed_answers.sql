-- PostgreSQL twin of migrations/013_typed_answers.sql (same columns and rules).
-- Typed answers (issue 17, kind: number). A number question has no options: its answer is
-- stored as a tap on a virtual option, option_index 0 when the typed value was accepted and 1
-- when not (bot/core/kinds.py NUMBER_RIGHT/NUMBER_WRONG), option_id '', so every reader that
-- compares option_index with the question's `correct` (scores, reviews, stats) holds for it.
-- What the learner typed is kept as typed (trimmed, at most 64 characters) for reviews and the
-- export, with the number read from it. The primary key (attempt, question, user) still makes
-- one answer per person per question per attempt.
ALTER TABLE answers ADD COLUMN typed_text TEXT;
ALTER TABLE answers ADD COLUMN typed_value DOUBLE PRECISION;

-- Private chat: the message of the number question the learner is asked, so a reply to an
-- older message is told apart from the answer (NULL: none asked, or before this migration).
ALTER TABLE attempts ADD COLUMN typed_message_id INTEGER;

-- Groups: number questions are skipped in group runs unless an admin turns typed answers on
-- (/settings); then the first reply per member to the question's message counts.
ALTER TABLE groups ADD COLUMN typed_answers INTEGER NOT NULL DEFAULT 0
    CHECK (typed_answers IN (0, 1));
