"""One chat's updates are handled in the order they arrive (tg/wire/update_order.py), while the bot
still handles several chats at once. Before, two commands of one learner ran side by side: when
Telegram was slow to take the first reply, the second command's reply came first (this test
failed so: the /quizzes list above the /help text). The supergroup case, a /push right after a
migration, is tests/e2e/test_uploads_flow.py, now on both engines."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.support import bot_at


async def test_a_learners_two_commands_are_answered_in_the_order_sent(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        user = h.emu.user(7301, "Awa", language_code="en")
        mark = user.private.mark()
        await user.send("/help")
        help_text = (await user.private.next_message(after=mark)).text
        # Telegram takes a second to accept the next reply in this chat: the /help below.
        h.emu.faults.add("sendMessage", "delay", chat_id=user.id, delay=1.0)
        mark = user.private.mark()
        await user.send("/help")
        await user.send("/quizzes")
        await user.private.wait_for(lambda m: bool(m.buttons), after=mark)  # the quiz list
        await user.private.wait_for(lambda m: m.text == help_text, after=mark)
        replies = [m for m in user.private.bot_messages if m.message_id >= mark.next_message_id]
        assert len(replies) == 2
        assert replies[0].text == help_text and replies[1].buttons, user.private.transcript()
