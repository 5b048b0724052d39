"""All SQL lives here: the SQLite file, its migrations, and the queries behind every feature."""

from bot.store.db import Database, StoreError
from bot.store.group_rows import GroupSettings
from bot.store.groups import GroupStore, Stored
from bot.store.learners import LearnerStore, User
from bot.store.schedules import Schedule, ScheduleStore

__all__ = [
    "Database",
    "GroupSettings",
    "GroupStore",
    "LearnerStore",
    "Schedule",
    "ScheduleStore",
    "StoreError",
    "Stored",
    "User",
]
