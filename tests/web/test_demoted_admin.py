"""A demoted admin loses the group's page within the minute the bot's own admin check keeps a
"yes" (README: Dashboard), also when the dashboard runs beside the bot (`quizbot run`).

Before, the dashboard kept its own "yes" for a minute on top of the bot's cached one: asked
near the end of the bot's minute, the stale "yes" was kept a minute more, and the demoted admin
read the group's page, members and CSV files for up to two minutes after the demotion.
"""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.cli.run import start_dashboard
from bot.usecases.group_admins import TTL_SECONDS
from bot.web.auth import sign_init_data
from tests.e2e.groups_kit import group_bot, make_group
from tests.e2e.harness import TOKEN


async def test_a_demoted_admin_loses_the_page_within_the_bots_minute(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send("/push", chat=group)  # an admin's command: the bot checks, and keeps it
        await group.next_message(after=mark)
        h.clock.advance(1)
        group.add_member(admin, "member")  # demoted, and Telegram does not tell the bot

        runner, port = await start_dashboard(h.bot, TOKEN, "127.0.0.1", 0)
        url = f"http://127.0.0.1:{port}/api/view?view=group&chat={group.id}"

        async def status() -> int:
            user = {"id": admin.id, "first_name": "Ada", "language_code": "en"}
            data = sign_init_data(TOKEN, user, auth_date=h.clock.now)
            headers = {"Authorization": f"tma {data}"}
            async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
                return got.status

        try:
            h.clock.advance(TTL_SECONDS - 3)  # the bot's "yes" is still fresh: the page shows
            assert await status() == 200
            h.clock.advance(TTL_SECONDS - 10)  # demoted 107 s ago, the bot's "yes" long gone
            assert await status() == 403
        finally:
            await runner.cleanup()
