"""Starting the dashboard's HTTP server (bot/cli/run.py wires it beside the bot or on its own)."""

from __future__ import annotations

import logging

from aiohttp import web

from bot.log_budget import QuietServerLog
from bot.web.routes import Dashboard, WebOptions


async def start(options: WebOptions, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve the dashboard on host:port (0 picks a free port); the runner and the bound port."""
    # A malformed request (a 20 KB request line) is refused by aiohttp's parser before any
    # handler: its logger is what keeps that refusal to one short, rate-limited line.
    runner = web.AppRunner(
        Dashboard(options).app(),
        access_log=None,
        logger=QuietServerLog("dashboard", logging.getLogger("bot.web")),
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = port
    for address in runner.addresses:
        if isinstance(address, tuple):
            bound = int(address[1])
    return runner, bound
