"""Problem reports for end-to-end tests: the reasons offered, and opening them on a card (the
reports stored: `h.problem_reports()`). Shared by the report tests, so no test imports another."""

from __future__ import annotations

from bot.emulator import EmuMessage, SimUser
from tests.reliability.support import buttons

REASONS = [
    "The answer key looks wrong",
    "The question is unclear",
    "The translation is wrong",
    "Something else",
    "⬅️ Back",
]


async def open_reasons(
    user: SimUser, shown: EmuMessage, report: str = "⚠️ Report", back: str = "⬅️ Back"
) -> EmuMessage:
    """Tap ⚠️ Report (once the message shows it) and wait for the reasons in the same message."""
    current = await user.private.wait_for(
        lambda m: m.message_id == shown.message_id and report in buttons(m)
    )
    mark = user.private.mark()
    await user.tap(current, report)
    return await user.private.wait_for(
        lambda m: m.message_id == shown.message_id and back in buttons(m), after=mark
    )
