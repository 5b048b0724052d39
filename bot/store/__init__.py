"""All SQL lives here: the SQLite file, its migrations, and the queries behind every feature."""

from bot.store.db import Database, StoreError
from bot.store.learners import LearnerStore, User

__all__ = ["Database", "LearnerStore", "StoreError", "User"]
