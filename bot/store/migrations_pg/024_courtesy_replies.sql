-- PostgreSQL twin of migrations/024_courtesy_replies.sql (same table, keys and rule).
CREATE TABLE courtesy_replies (
    chat_id  BIGINT           NOT NULL,
    user_id  BIGINT           NOT NULL,
    topic    TEXT             NOT NULL,
    said_at  DOUBLE PRECISION NOT NULL,
    in_group INTEGER          NOT NULL CHECK (in_group IN (0, 1)),
    PRIMARY KEY (chat_id, user_id, topic)
);
CREATE INDEX courtesy_replies_said ON courtesy_replies (chat_id, said_at);
