-- A learner's practice sets and exams by learner: the dashboard's preview reads which questions
-- a learner has answered outside an exam on every request, and the streak (/stats) and /forget
-- read a learner's sets too; without this index each of them scanned every learner's sets.
CREATE INDEX practice_sets_by_user ON practice_sets (user_id, kind);
