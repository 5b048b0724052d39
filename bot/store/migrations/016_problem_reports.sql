-- "⚠️ Report" on an answered private question (issue 14): a learner says what looks wrong with
-- a question, for its authors (`quizbot content reports`, counts in /groupstats). One report
-- per learner, question and reason; the optional sentence arrives after the reason, so `text`
-- starts empty and `text_until` says until when the learner's next text message is taken as it
-- (NULL once given or skipped). /forget deletes a learner's reports (bot/store/forget.py).
CREATE TABLE problem_reports (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL,
    quiz_id         TEXT    NOT NULL,
    question_id     TEXT    NOT NULL,  -- content ids: they survive edits of the content
    lang            TEXT    NOT NULL,  -- the language the learner read the question in
    content_version TEXT    NOT NULL,  -- the quiz's version the learner was shown
    reason          TEXT    NOT NULL
                            CHECK (reason IN ('key', 'unclear', 'translation', 'other')),
    text            TEXT,              -- the learner's sentence (cleaned, at most 500 characters)
    text_until      REAL,              -- waiting for the sentence until then
    created_at      REAL    NOT NULL,
    UNIQUE (user_id, quiz_id, question_id, reason)
);
CREATE INDEX problem_reports_question ON problem_reports (quiz_id, question_id);
