-- Quizzes study-group admins uploaded from the chat (issue 15). Each upload of the same quiz id
-- in a group is a new version; every version's source is kept (runs and answers under an old
-- version can still be read and exported). /deletequiz hides a quiz; its answers stay.
CREATE TABLE uploaded_quizzes (
    chat_id     INTEGER NOT NULL,  -- the group the quiz belongs to
    quiz_id     TEXT    NOT NULL,  -- the id written in the file
    version     INTEGER NOT NULL,  -- 1, 2, ... per group and quiz id
    file_name   TEXT    NOT NULL,
    format      TEXT    NOT NULL,  -- yaml, gift, aiken or csv
    source      TEXT    NOT NULL,  -- the file's text as uploaded (checked, UTF-8)
    uploaded_by INTEGER,           -- NULL for an anonymous admin (or after /forget)
    uploaded_at REAL    NOT NULL,
    deleted_at  REAL,              -- set by /deletequiz
    PRIMARY KEY (chat_id, quiz_id, version)
);
