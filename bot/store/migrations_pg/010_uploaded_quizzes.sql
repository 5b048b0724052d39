-- PostgreSQL twin of migrations/010_uploaded_quizzes.sql.
CREATE TABLE uploaded_quizzes (
    chat_id     BIGINT           NOT NULL,
    quiz_id     TEXT             NOT NULL,
    version     INTEGER          NOT NULL,
    file_name   TEXT             NOT NULL,
    format      TEXT             NOT NULL,
    source      TEXT             NOT NULL,
    uploaded_by BIGINT,
    uploaded_at DOUBLE PRECISION NOT NULL,
    deleted_at  DOUBLE PRECISION,
    PRIMARY KEY (chat_id, quiz_id, version)
);
