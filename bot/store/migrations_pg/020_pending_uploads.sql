-- PostgreSQL twin of migrations/020_pending_uploads.sql.
CREATE TABLE pending_uploads (
    user_id    BIGINT           NOT NULL,
    token      TEXT             NOT NULL,
    file_id    TEXT             NOT NULL,
    file_name  TEXT             NOT NULL,
    file_size  BIGINT,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, token)
);
CREATE INDEX pending_uploads_created ON pending_uploads (created_at);
