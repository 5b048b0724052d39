-- The question ids of a group's uploaded quiz, when they are not the file's own: a file whose
-- format numbers its questions by position (Aiken, GIFT without ::titles::, a CSV without ids)
-- replacing the group's quiz has its questions matched to the old version's, so answers,
-- review cards and reports stay with their questions (bot/content/kept_ids.py). JSON
-- {"<id in the file>": "<id served>", ...}; NULL: every question is served under its file id.
-- The quiz is rebuilt from its file at every start: this map gives it the same ids each time.
ALTER TABLE uploaded_quizzes ADD COLUMN question_ids TEXT;
