-- Which content every worker should serve: a number that moves each time an owner's /reload (or
-- `quizbot content reload` beside the workers) has checked new content. Each worker compares it
-- with the one it serves every few seconds and reloads its own files when it moved, so a reload
-- asked of one worker reaches all of them, also one that was restarting meanwhile.
CREATE TABLE work_content (
    one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),  -- a single row
    generation BIGINT NOT NULL,
    reloaded_at TIMESTAMPTZ
);
INSERT INTO work_content (one, generation) VALUES (TRUE, 0);
