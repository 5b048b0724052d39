-- When the bot was removed from the group, its schedules stopped (no quiz is posted in a chat
-- the bot is not in): `stopped_at` is when. A stopped schedule never runs and is not listed; it
-- is kept only so that the welcome, when the bot is added back, can tell the admins what stopped
-- and how to set it again (then it is deleted: bot/store/schedules.py, take_stopped).
ALTER TABLE schedules ADD COLUMN stopped_at DOUBLE PRECISION;
