"""A group's own (uploaded) quiz on the dashboard's group page, as on /groupstats and /schedules
in the chat: its hardest questions are listed, and a schedule of it is named by its title.

Before, the page looked the quiz up among the shipped ones only: a missed question of the
group's own quiz was left out of "Hardest questions" (which /groupstats lists), and a schedule
of it read "the next quiz in order", a quiz it does not play.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.cli.run import start_dashboard
from bot.emulator.state import EmuMessage
from bot.web.auth import sign_init_data
from tests.e2e.groups_kit import LETTERS, group_bot, make_group
from tests.e2e.harness import TOKEN
from tests.e2e.uploads_kit import GIFT

RIGHT = {"How much is 2 + 2?": "Four", "How many days are there in a week?": "Seven"}


def wrong_letter(message: EmuMessage) -> str:
    """A letter of a wrong option of the question shown."""
    prompt = next(p for p in RIGHT if p in message.text)
    for line in message.text.splitlines():
        if line[:2] in {f"{c}." for c in LETTERS} and line[3:].strip() != RIGHT[prompt]:
            return line[0]
    raise AssertionError(message.text)


async def test_the_groups_own_quiz_shows_in_hardest_questions_and_schedules(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(awa)
        await admin.send_document("ours.gift", GIFT.encode(), caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        await admin.send("/push our-own-quiz", chat=group)
        for n in (1, 2):
            shown = await group.wait_for(lambda m, n=n: f"Question {n}/2" in m.text, timeout=30)
            await awa.tap(shown, wrong_letter(shown))
        await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=30)
        mark = group.mark()
        await admin.send("/schedule our-own-quiz daily 18:30", chat=group)
        listed = await group.next_message(after=mark)
        assert listed.text.startswith("✅"), listed.text

        runner, port = await start_dashboard(h.bot, TOKEN, "127.0.0.1", 0)
        try:
            user = {"id": admin.id, "first_name": "Ada", "language_code": "en"}
            data = sign_init_data(TOKEN, user, auth_date=h.clock.now)
            url = f"http://127.0.0.1:{port}/api/view?view=group&chat={group.id}"
            headers = {"Authorization": f"tma {data}"}
            async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
                status, page = got.status, await got.text()
        finally:
            await runner.cleanup()

    assert status == 200, page[:300]
    hardest = page[page.index('id="questions"') : page.index('id="items"')]
    assert "How much is 2 + 2?" in hardest and "How many days are there in a week?" in hardest
    assert "Our own quiz" in hardest
    upcoming = page[page.index('id="schedules"') :]
    assert "Our own quiz" in upcoming
    assert "the next quiz in order" not in upcoming
