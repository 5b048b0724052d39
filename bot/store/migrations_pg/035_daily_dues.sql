-- PostgreSQL twin of migrations/035_daily_dues.sql (one process on PostgreSQL uses it; several
-- workers keep their daily timers in work_timers).
CREATE TABLE daily_dues (
    kind   TEXT             NOT NULL,
    ident  BIGINT           NOT NULL,
    due_at DOUBLE PRECISION NOT NULL,
    rule   TEXT             NOT NULL,
    PRIMARY KEY (kind, ident)
);
