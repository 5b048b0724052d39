-- PostgreSQL twin of migrations/014_media_file_ids.sql.
CREATE TABLE media_file_ids (
    path       TEXT             NOT NULL,
    sha256     TEXT             NOT NULL,
    file_id    TEXT             NOT NULL,
    stored_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (path, sha256)
);
