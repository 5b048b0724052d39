-- PostgreSQL twin of migrations/029_forum_topics.sql.
ALTER TABLE attempts ADD COLUMN thread_id BIGINT NOT NULL DEFAULT 0;
DROP INDEX attempts_one_active_group;
CREATE UNIQUE INDEX attempts_one_active_group ON attempts (chat_id, thread_id)
    WHERE kind = 'group' AND status = 'active';

ALTER TABLE schedules ADD COLUMN thread_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE schedules ADD COLUMN thread_name TEXT NOT NULL DEFAULT '';
ALTER TABLE schedules ADD COLUMN topic_gone INTEGER NOT NULL DEFAULT 0;
