"""Group runs under transient Telegram failures: no question or reveal is skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tg.wire import retry
from tests.e2e.groups_kit import group_bot, make_group


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(retry, "FIRST_PAUSE", 0.05)


@pytest.mark.parametrize("kind", ["502", "drop"])
async def test_a_failing_question_send_is_retried(tmp_path: Path, kind: str) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        member = h.emu.user(2001, "Awa")
        group.add_member(member)
        # The run's first sends fail twice, the first reveal's edit once.
        h.emu.faults.add("sendMessage", kind, times=2, chat_id=group.id)
        h.emu.faults.add("editMessageText", kind, times=1, chat_id=group.id)
        await admin.send("/push gradient-accumulation", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        answer = await member.tap(q1, "A")
        assert answer is not None and answer.text
        revealed = await group.wait_for(
            lambda m: m.message_id == q1.message_id and m.edited, timeout=10
        )
        assert not revealed.buttons
        await group.wait_for(lambda m: "Question 2/2" in m.text, timeout=10)
        await group.wait_for(lambda m: m.text.startswith("🏁"), timeout=10)
        assert h.rows("SELECT count(*) FROM answers") == [(1,)]
        questions = [m for m in group.bot_messages if "Question 1/2" in m.text]
        assert len(questions) <= 2  # a lost response may show it twice, never zero times
