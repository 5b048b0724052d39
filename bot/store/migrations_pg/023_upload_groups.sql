-- PostgreSQL twin of migrations/023_upload_groups.sql.
CREATE TABLE group_seen (
    chat_id BIGINT           NOT NULL,
    user_id BIGINT           NOT NULL,
    seen_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, user_id)
);
CREATE INDEX group_seen_by_user ON group_seen (user_id, seen_at);

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

ALTER TABLE pending_uploads ADD COLUMN chat_id BIGINT;
