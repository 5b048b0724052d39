"""The practice chooser's buttons carry the whole choice (guides as a bit mask, level, length):
one forged with a guide or a length never offered is said to have expired, like any other
button we never made, and the chooser stays as it was."""

from __future__ import annotations

from tests.e2e.harness import Harness


async def test_a_forged_chooser_choice_is_said_to_have_expired(harness: Harness) -> None:
    user = harness.emu.user(3101, "Awa")
    mark = user.private.mark()
    await user.send("/practice")
    chooser = await user.private.wait_for(lambda m: bool(m.buttons), after=mark)
    for data in ("pc:0:x:7", "pc:999999999:x:10"):
        refused = await user.tap(chooser, callback_data=data)
        assert refused is not None and "expired" in (refused.text or ""), data
        now = user.private.message(chooser.message_id)
        assert (now.text, now.buttons) == (chooser.text, chooser.buttons)


async def test_a_forged_start_is_said_to_have_expired_and_starts_nothing(
    harness: Harness,
) -> None:
    """▶️ Start carries the same choice: a length never offered (7), or a guide that is not
    there, is a button we never made, not a choice that "matches nothing"."""
    user = harness.emu.user(3102, "Awa")
    mark = user.private.mark()
    await user.send("/practice")
    chooser = await user.private.wait_for(lambda m: bool(m.buttons), after=mark)
    for data in ("pg:0:x:7", "pg:999999999:x:10"):
        mark = user.private.mark()
        refused = await user.tap(chooser, callback_data=data)
        assert refused is not None and "expired" in (refused.text or ""), (data, refused)
        assert not [m for m in user.private.bot_messages if m.message_id >= mark.next_message_id]
