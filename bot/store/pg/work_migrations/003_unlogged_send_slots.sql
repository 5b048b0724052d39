-- Send slots are pacing state, not data: after a crash of the server an empty table only means
-- a fresh schedule. Unlogged, a booking writes no WAL and its commit waits for no fsync: the
-- statement every counted send pays (one per chat slot, one per lease of the bot's schedule)
-- costs a few hundred microseconds instead of a WAL flush (BENCHMARKS.md, shared pacing).
ALTER TABLE work_send_slots SET UNLOGGED;
