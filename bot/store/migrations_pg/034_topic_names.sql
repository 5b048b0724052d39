-- PostgreSQL twin of migrations/034_topic_names.sql.
CREATE TABLE topic_names (
    chat_id    BIGINT           NOT NULL,
    thread_id  BIGINT           NOT NULL,
    name       TEXT             NOT NULL,
    message_id BIGINT           NOT NULL,
    named_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, thread_id)
);
