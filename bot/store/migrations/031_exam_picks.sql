-- The option each exam answer picked (issue 28, newcomer walk item 28): an exam's results show
-- "Your answer: D" on a missed question, which `marks` (r, w, t) alone cannot say. One entry
-- per answered question, each followed by a comma: the option's id (ids, not positions: they
-- survive an edit of the content), empty when the time ran out. Exams before this migration
-- have '' (their results show the right answer only).
ALTER TABLE practice_sets ADD COLUMN picks TEXT NOT NULL DEFAULT '';
