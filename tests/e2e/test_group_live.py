"""Live feedback in groups (issue 14): while a question is open its message shows how many have
answered and the time left, refreshed only at the planned steps (bot/core/live_feedback.py) and
only when the count changed: never one edit per tap."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from bot.core.live_feedback import LivePolicy, live_steps
from bot.emulator import Emulator
from bot.tg.options import BotOptions
from tests.e2e.groups_kit import LETTERS, QUIZ, GroupHarness, make_group, short_catalog
from tests.e2e.harness import TOKEN

# Steps every half second (a looser policy than production's, which would plan none for the
# few seconds a test question lasts); the budget the plan obeys is tested in tests/core.
POLICY = LivePolicy(min_step=0.5, per_minute=100_000)
SECONDS = 4.0


@dataclass
class LiveHarness(GroupHarness):
    def options(self) -> BotOptions:
        return replace(super().options(), live=POLICY)


async def test_the_open_question_shows_the_count_without_an_edit_per_tap(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN) as emu:
        h = LiveHarness(emu, tmp_path / "q.sqlite3", short_catalog(1), seconds=SECONDS)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            members = [h.emu.user(2001 + i, f"M{i}", language_code="en") for i in range(3)]
            for member in members:
                group.add_member(member)

            await admin.send(f"/push {QUIZ}", chat=group)
            q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
            assert "👥 0 answers so far · ⏳ 4 s left" in q1.text
            for member in members[:2]:
                await member.tap(q1, "A")
                await member.tap(q1, "B")  # a second tap: refused, and no refresh for it

            live = await group.wait_for(
                lambda m: m.message_id == q1.message_id and "👥 2 answers so far" in m.text
            )
            assert [b.text for b in live.buttons[0]] == list(LETTERS[: len(q1.buttons[0])])
            revealed = await group.wait_for(
                lambda m: m.message_id == q1.message_id and "2 answers" in m.text and not m.buttons,
                timeout=10,
            )
            await group.wait_for(lambda m: "finished" in m.text, timeout=10)
            # Versions of the question: as sent, then at most one refresh for each count shown
            # (0 -> 2 here, perhaps 0 -> 1 -> 2), then the reveal; at most one per planned step.
            edits = len(revealed.history)
            assert 2 <= edits <= 3 <= len(live_steps(SECONDS, POLICY)) + 1
            assert "so far" not in revealed.text
        finally:
            await h.stop_bot()


async def test_a_quiet_question_costs_no_refresh(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN) as emu:
        h = LiveHarness(emu, tmp_path / "q.sqlite3", short_catalog(1), seconds=2.0)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            await admin.send(f"/push {QUIZ}", chat=group)
            q1 = await group.wait_for(lambda m: "Question 1/1" in m.text)
            revealed = await group.wait_for(
                lambda m: m.message_id == q1.message_id and not m.buttons, timeout=10
            )
            assert len(revealed.history) == 1  # only the reveal: nobody answered, nothing to show
        finally:
            await h.stop_bot()
