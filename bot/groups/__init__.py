"""Study groups: settings, group runs and schedules, as use cases the Telegram adapter calls."""

from bot.groups.admins import AdminCache
from bot.groups.service import GroupService, GroupTap, Reveal, RunResults

__all__ = ["AdminCache", "GroupService", "GroupTap", "Reveal", "RunResults"]
