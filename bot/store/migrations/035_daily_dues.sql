-- When each daily timer of one process (a group's schedule `sched`, a learner's reminder
-- `remind`) is due next, and by which rule: PTB's JobQueue keeps its jobs in memory, so without
-- this a restart could not tell an occurrence it missed while down (bot/store/daily_dues.py).
-- Several workers keep theirs in work_timers instead.
CREATE TABLE daily_dues (
    kind   TEXT    NOT NULL,
    ident  INTEGER NOT NULL,
    due_at REAL    NOT NULL,
    rule   TEXT    NOT NULL,
    PRIMARY KEY (kind, ident)
);
