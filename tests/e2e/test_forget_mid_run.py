"""/forget while a group run is still going: the run is not history yet, so the member's answers
in it are deleted, not kept under a pseudonym. A member who goes on answering is one player on
the run's board, not two (their earlier self shown as "?"). Answers of finished runs stay under
the pseudonym, and the standings name it "a former member"."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import QUIZ, GroupHarness, group_bot, make_group

LEARNER, OTHER = 3001, 3002


async def _forget(learner: SimUser) -> None:
    mark = learner.private.mark()
    await learner.send("/forget")
    confirm = await learner.private.wait_for(lambda m: bool(m.buttons), after=mark)
    await learner.tap(confirm, "Delete my data")
    await learner.private.wait_for(lambda m: "forgotten you" in m.text)


async def _two_members(h: GroupHarness) -> tuple[ChatView, SimUser, SimUser, SimUser]:
    group, admin = await make_group(h)
    learner, other = h.emu.user(LEARNER, "Awa"), h.emu.user(OTHER, "Bintou")
    for member in (learner, other):
        group.add_member(member)
        await member.send("/start")
    return group, admin, learner, other


def _board_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "·" in line and "⏱" in line]


async def test_a_member_forgotten_mid_run_who_answers_on_is_one_player(tmp_path: Path) -> None:
    async with group_bot(tmp_path, questions=2, clock_timers=True) as h:
        group, admin, learner, other = await _two_members(h)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
        for member in (learner, other):
            await member.tap(q1, "A")
        await _forget(learner)
        assert h.rows("SELECT count(*) FROM answers WHERE user_id < 0") == [(0,)]
        await h.next_timer()
        q2 = await group.wait_for(lambda m: "Question 2/2" in m.text, after=mark)
        for member in (learner, other):
            await member.tap(q2, "A")
        await h.next_timer()
        board = await group.wait_for(lambda m: m.text.startswith("🏁"), after=mark, timeout=10)
        lines = _board_lines(board.text)
        assert len(lines) == 2, board.text
        assert sum("Awa" in line for line in lines) == 1 and "\u2068?\u2069" not in board.text
        assert h.rows("SELECT count(*) FROM run_scores WHERE user_id < 0") == [(0,)]


async def test_a_member_forgotten_after_a_run_is_a_former_member_in_the_standings(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, questions=1, clock_timers=True) as h:
        group, admin, learner, other = await _two_members(h)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/1" in m.text, after=mark)
        for member in (learner, other):
            await member.tap(q1, "A")
        await h.next_timer()
        await group.wait_for(lambda m: m.text.startswith("🏁"), after=mark, timeout=10)
        await _forget(learner)
        mark = group.mark()
        await other.send("/top", chat=group)
        top = await group.next_message(after=mark)
        assert "a former member" in top.text and "\u2068?\u2069" not in top.text
        assert "Awa" not in top.text
