-- PostgreSQL twin of migrations/033_moved_groups.sql.
CREATE TABLE moved_groups (
    old_id   BIGINT           PRIMARY KEY,
    new_id   BIGINT           NOT NULL,
    moved_at DOUBLE PRECISION NOT NULL
);
