-- Quiz files an admin sent privately, waiting for them to pick a group by button (docs/caches.md).
-- In the store, not in memory: with several workers the tap may reach another worker, and a
-- restart between the file and the tap must not lose it. Telegram keeps the file; only its
-- file_id is here. A row lives an hour at most (bot/usecases/quiz_uploads.py), a few per user;
-- /forget deletes the learner's rows (bot/store/forget.py).
CREATE TABLE pending_uploads (
    user_id    INTEGER NOT NULL,  -- the sender: only their tap takes the file
    token      TEXT    NOT NULL,  -- in the group buttons' callback data
    file_id    TEXT    NOT NULL,
    file_name  TEXT    NOT NULL,
    file_size  INTEGER,           -- as Telegram declared it
    created_at REAL    NOT NULL,  -- expires PENDING_SECONDS later
    PRIMARY KEY (user_id, token)
);
CREATE INDEX pending_uploads_created ON pending_uploads (created_at);
