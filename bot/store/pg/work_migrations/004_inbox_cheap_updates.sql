-- Claiming and closing an update rewrites its row (PostgreSQL's MVCC), and the payload, the
-- update's JSON (about 1 KB for a tap), was copied and WAL-logged with every rewrite: 3.1 KB of
-- WAL per burst tap for the claim and close alone (issue 32, `quizbot bench scaling --profile`).
-- Kept out of line (TOAST, uncompressed: it is read back at once), a rewrite carries only a
-- pointer to it; room left in each page lets the claim's rewrite stay on its page (a HOT
-- update: no index entries). Measured: 149 -> 65 µs of execution and 3,118 -> 1,920 WAL bytes
-- per burst tap for the claim and close statement (BENCHMARKS.md).
ALTER TABLE work_updates SET (toast_tuple_target = 128, fillfactor = 70);
ALTER TABLE work_updates ALTER COLUMN payload SET STORAGE EXTERNAL;
