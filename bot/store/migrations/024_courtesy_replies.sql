-- What the bot lately said to members in a group outside a run's own sends (issue 25): a
-- command's answer (topic: the command) or a number question's hint (topic: hint:<run>:<index>).
-- bot/core/courtesy.py decides from these rows whether a member's next command is answered in
-- the group, privately or not at all, and whether a reply that is no number gets a hint. In the
-- store, not in memory: with several workers any of them may handle a group's next message.
-- Rows live KEEP (10 minutes) at most, pruned per group on each write; /forget deletes a
-- member's rows (bot/store/forget.py).
CREATE TABLE courtesy_replies (
    chat_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    topic    TEXT    NOT NULL,
    said_at  REAL    NOT NULL,
    in_group INTEGER NOT NULL CHECK (in_group IN (0, 1)),  -- 0: answered privately (or tried)
    PRIMARY KEY (chat_id, user_id, topic)
);
CREATE INDEX courtesy_replies_said ON courtesy_replies (chat_id, said_at);
