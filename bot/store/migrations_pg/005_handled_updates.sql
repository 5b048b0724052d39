-- PostgreSQL twin of migrations/005_handled_updates.sql.
CREATE TABLE handled_updates (
    update_id  BIGINT PRIMARY KEY,
    handled_at DOUBLE PRECISION NOT NULL
);
