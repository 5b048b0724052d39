-- PostgreSQL twin of migrations/022_practice_sets_by_user.sql.
CREATE INDEX practice_sets_by_user ON practice_sets (user_id, kind);
