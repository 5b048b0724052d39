-- Several workers on one PostgreSQL: the durable inbox of updates, the timers of every worker and
-- the shared send pacing. PostgreSQL only (SQLite runs one process and needs none of it).

-- Every update the webhook front accepted, stored before Telegram is told 200. A worker claims
-- the oldest update of an ordering key (a chat; a member's taps in a group) that has no older
-- update still undone, holds it under a lease it renews, and marks it done. Done rows stay a day:
-- the primary key then drops a redelivered update at the door.
CREATE TABLE work_updates (
    update_id   BIGINT PRIMARY KEY,
    chat_key    TEXT   NOT NULL,
    payload     TEXT   NOT NULL,                   -- the update's JSON, as Telegram sent it
    received_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    worker      TEXT,                              -- who holds it, while `lease_until` is ahead
    lease_until TIMESTAMPTZ,
    tries       INTEGER NOT NULL DEFAULT 0,
    done_at     TIMESTAMPTZ
);
CREATE INDEX work_updates_pending ON work_updates (update_id) WHERE done_at IS NULL;
CREATE INDEX work_updates_pending_by_key ON work_updates (chat_key, update_id)
    WHERE done_at IS NULL;
CREATE INDEX work_updates_done ON work_updates (done_at) WHERE done_at IS NOT NULL;

-- One-shot timers (a question's reveal, the next question, a schedule's next run): one row per
-- key, so arming twice is one timer; fired by whichever worker claims it once due, deleted
-- when its callback has run, fired again by another worker if its holder died meanwhile.
CREATE TABLE work_timers (
    key         TEXT   PRIMARY KEY,
    due_at      DOUBLE PRECISION NOT NULL,         -- seconds since the epoch, the bot's clock
    payload     TEXT   NOT NULL DEFAULT '',
    generation  BIGINT NOT NULL DEFAULT 1,         -- bumped on re-arm: a late `fired` keeps it
    worker      TEXT,
    lease_until TIMESTAMPTZ,
    tries       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX work_timers_due ON work_timers (due_at);

-- Send slots shared by all workers (GCRA: the theoretical time of the key's next send).
CREATE TABLE work_send_slots (
    key TEXT PRIMARY KEY,
    tat DOUBLE PRECISION NOT NULL                  -- seconds since the epoch, the server's clock
);

-- Workers alive: each renews its row with its leases; readiness and send shares read it.
CREATE TABLE work_workers (
    name       TEXT PRIMARY KEY,
    started_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    seen_at    TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
