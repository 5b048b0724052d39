"""Whether, and where, a member's command or unreadable reply in a group is answered (issue 25).

The rules are `bot/core/courtesy.py`'s; this reads whether a run plays and claims the reply in
the store (bot/store/courtesy_log.py), so the caps hold across workers and restarts. The adapter
asks here before a member's command runs, and before a hint is posted.
"""

from __future__ import annotations

from bot.core import courtesy as rules
from bot.core.clock import Clock
from bot.core.courtesy import Reply, Said
from bot.store.courtesy_log import CourtesyStore
from bot.usecases.group_runs import GroupRuns


class GroupCourtesy:
    def __init__(self, store: CourtesyStore, runs: GroupRuns, clock: Clock) -> None:
        self.store = store
        self.runs = runs
        self.clock = clock

    async def command(self, chat_id: int, user_id: int, topic: str) -> Reply:
        """Where to answer `user_id`'s command `topic` in group `chat_id` (a non-admin's);
        claimed, so the next one within the minute knows."""
        now = self.clock()
        playing = bool(await self.runs.active_runs(chat_id))  # in any topic: one budget
        decided = Reply.NONE

        def decide(recent: list[Said]) -> Said | None:
            nonlocal decided
            decided = rules.command_reply(recent, user_id, topic, now, playing=playing)
            if decided is Reply.NONE:
                return None
            return Said(user_id, topic, now, in_group=decided is Reply.IN_GROUP)

        await self.store.claim(chat_id, now - rules.KEEP, decide)
        return decided

    async def hint(self, chat_id: int, user_id: int, run_id: int, index: int) -> bool:
        """Whether `user_id` gets a hint for their unreadable reply to question `index` of run
        `run_id` (claimed: at most `HINTS_PER_QUESTION` per question, one per member)."""
        now = self.clock()
        topic = rules.hint_topic(run_id, index)

        def decide(recent: list[Said]) -> Said | None:
            if not rules.hint_due(recent, user_id, topic):
                return None
            return Said(user_id, topic, now, in_group=True)

        return await self.store.claim(chat_id, now - rules.KEEP, decide) is not None

    async def welcome(self, chat_id: int, added: bool) -> bool:
        """Whether to post the group's how-to: always when the bot was just `added`, else only
        if it was not posted within the minute; claimed, so the next asker knows."""
        now = self.clock()

        def decide(recent: list[Said]) -> Said | None:
            if not added and not rules.welcome_due(recent, now):
                return None
            return Said(0, rules.WELCOME, now, in_group=False)

        return await self.store.claim(chat_id, now - rules.KEEP, decide) is not None
