-- Telegram update ids whose writes are committed: an update delivered again after a restart (a
-- poller killed before confirming it, a webhook retry) is dropped instead of acting twice. Each
-- id is written in the same transaction as its update's first write (bot/store/db.py); the bot
-- loads the latest ids at start-up and keeps the table to that many rows.
CREATE TABLE handled_updates (
    update_id  INTEGER PRIMARY KEY,
    handled_at REAL    NOT NULL
);
