-- A group upgraded to a supergroup: its old chat id, kept so that an update still coming from the
-- old chat (a button left there) is told the group moved, instead of recording the old chat as a
-- group again or starting a run there (GroupSettingsCases.settings).
CREATE TABLE moved_groups (
    old_id   INTEGER PRIMARY KEY,
    new_id   INTEGER NOT NULL,
    moved_at REAL    NOT NULL
);
