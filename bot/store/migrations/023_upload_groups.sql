-- Who the bot has seen in which group, for a private /upload (issue 25): Telegram is asked
-- (getChatMember) only about the groups where the sender was seen, never about every group the
-- bot is in. A row is written when someone adds the bot to a group and each time the bot
-- confirms someone as an admin there (at most once a minute: the admin cache); players are
-- found in run_scores. /forget deletes a learner's rows (bot/store/forget.py).
CREATE TABLE group_seen (
    chat_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    seen_at REAL    NOT NULL,  -- the latest sighting: the most recent groups are asked first
    PRIMARY KEY (chat_id, user_id)
) WITHOUT ROWID;
CREATE INDEX group_seen_by_user ON group_seen (user_id, seen_at);

-- Admins seen before this migration: who pushed a run, scheduled a quiz or uploaded one.
INSERT INTO group_seen (chat_id, user_id, seen_at)
    SELECT chat_id, user_id, max(at) FROM (
        SELECT chat_id, user_id, started_at AS at FROM attempts
         WHERE kind = 'group' AND user_id IS NOT NULL
        UNION ALL
        SELECT chat_id, created_by, created_at FROM schedules WHERE created_by IS NOT NULL
        UNION ALL
        SELECT chat_id, uploaded_by, uploaded_at FROM uploaded_quizzes
         WHERE uploaded_by IS NOT NULL
    ) AS seen
    GROUP BY chat_id, user_id;

-- A file waiting for its sender's confirmation to replace a quiz of this group (the group is
-- known then); NULL while the sender has yet to choose the group (a private upload).
ALTER TABLE pending_uploads ADD COLUMN chat_id INTEGER;
