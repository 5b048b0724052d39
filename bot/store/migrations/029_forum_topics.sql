-- Forum topics (issue 27): a group run belongs to the topic it was pushed in, and a schedule to
-- the topic it was made in; 0 is no topic (General, or a group without topics). One active run
-- per topic: the unique index of active group runs is now per chat and topic.
ALTER TABLE attempts ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
DROP INDEX attempts_one_active_group;
CREATE UNIQUE INDEX attempts_one_active_group ON attempts (chat_id, thread_id)
    WHERE kind = 'group' AND status = 'active';

ALTER TABLE schedules ADD COLUMN thread_id INTEGER NOT NULL DEFAULT 0;
-- The topic's name as Telegram showed it when the schedule was made ('' if not known).
ALTER TABLE schedules ADD COLUMN thread_name TEXT NOT NULL DEFAULT '';
-- 1 once the admins were told its topic was closed or deleted: told once, not at every firing.
ALTER TABLE schedules ADD COLUMN topic_gone INTEGER NOT NULL DEFAULT 0;
