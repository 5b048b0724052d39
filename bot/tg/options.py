"""The bot's options (`BotOptions`) and what they compose its services from (`service_inputs`).

Every entry point fills `BotOptions` (bot/cli, the sandbox, the benchmark's bot process, the
tests' harness), composes the services from them (`build_services(*service_inputs(options))`)
and hands both to `QuizBot` (bot/tg/app.py): one record of settings, read by the composition
root and by the adapter alike.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from bot.compose import ServiceSettings
from bot.content import default_content_dir
from bot.core.bursts import BURST
from bot.core.clock import Clock
from bot.core.live_feedback import LivePolicy
from bot.core.models import Catalog
from bot.store import Database
from bot.store.daily_dues import DailyDueStore
from bot.store.interface import Engine
from bot.tg.mini_app import DashboardLinks
from bot.tg.wire.shared_pace import SharedBudget
from bot.tg.wire.timer_backends import Timers
from bot.usecases.catalog_ref import CatalogRef, ContentVersions


@dataclass
class BotOptions:
    token: str
    db_path: Path
    catalog: Catalog
    base_url: str = "https://api.telegram.org/bot"
    base_file_url: str | None = None  # None: base_url's host at /file/bot (Telegram's layout)
    default_language: str = "en"
    admin_chat_id: int | None = None
    clock: Clock = time.time
    rng: random.Random | None = None
    rate_limit: bool = True
    send_rate: float = (
        29.0  # counted requests (sends, edits) per second; see bot/tg/wire/ratelimit.py
    )
    # Updates handled at once (and HTTP connections to the Bot API). Each holds its slot for
    # its Bot API round trips: with 8, a bot 50 ms from Telegram answered a 1,000-member burst's
    # popups in 5 s (p99), with 64 in 0.13 s (BENCHMARKS.md, `quizbot bench --api-latency`).
    # 8 was chosen when httpx scanned its whole pool per request (still so with
    # transport="httpx"); aiohttp does not.
    concurrent_updates: int = 64
    transport: str = "aiohttp"  # or "httpx", PTB's default (bot/tg/wire/transport.py)
    # Behind a webhook, how long Telegram's request for a tap may wait for the tap's popup to
    # ride on its response (bot/webhook_replies.py); 0: every popup its own request.
    webhook_reply_wait: float = 0.5
    group_seconds: int = 30  # default seconds per question for a newly joined group
    group_timezone: str = "UTC"  # default time zone of a newly joined group
    question_seconds: float | None = None  # overrides every group's setting (tests: fractions)
    live: LivePolicy = field(
        default_factory=LivePolicy
    )  # how often an open group question shows its live count
    timezone: str = "UTC"  # learners' days (streaks, review due dates); reminders by default
    retention: float = 0.9  # FSRS's desired retention (QUIZBOT_RETENTION)
    dashboard: DashboardLinks | None = None  # the Mini App, when it has a public URL
    # Reloading content while running (`/reload`, `quizbot content reload`): where it lives,
    # who may ask in chat, and the control socket the command line talks to (None: none).
    content_dir: Path | None = None
    guide_base_url: str | None = None
    owner_ids: frozenset[int] = frozenset()
    control_socket: Path | None = None
    # Several workers: the content generation they all follow, so that a reload asked of one
    # worker reaches every worker (bot/tg/served_content.py); None: this process alone.
    content_versions: ContentVersions | None = None
    # Several workers (bot/cli/worker.py): the store they share (PostgreSQL), durable
    # timers, and no in-memory caches of what another worker may change.
    database: Engine | None = None  # None: the SQLite file at db_path
    # None: PTB's JobQueue; given the store of one process's daily timers (bot/store/daily_dues.py)
    timers: Callable[[DailyDueStore], Timers] | None = None
    shared: bool = False
    send_share: int = 1  # workers sharing the bot's limits: each paces at its 1/N share
    # Workers on any number of hosts: the bot's overall rhythm is one schedule in the database
    # (bot/tg/wire/shared_pace.py); `send_share` is then only the fallback while it is unreachable.
    shared_budget: SharedBudget | None = None
    run_watchdog: float = 20.0  # durable timers: seconds before another worker resumes a run
    chat_slots: Callable[[int | str], Awaitable[float]] | None = None  # shared per-chat slots
    chat_spare: Callable[[int | str], Awaitable[bool]] | None = None  # ... for courtesy replies
    # Messages a person may send ahead of their private chat's pace before they are told to slow
    # down and the rest of the burst is dropped (bot/core/bursts.py); None: never (the tests'
    # simulated users type at machine speed, hundreds of messages a second).
    sender_burst: int | None = BURST


def file_url_for(base_url: str) -> str:
    """Where files download from when not set: Telegram (and a local Bot API server) serve them
    beside the methods, `<host>/file/bot<token>/<path>` next to `<host>/bot<token>/<method>`."""
    return base_url.removesuffix("/").removesuffix("/bot") + "/file/bot"


class ServiceInputs(NamedTuple):
    """What `bot.compose.build_services` takes, read from the bot's options."""

    settings: ServiceSettings
    engine: Engine
    catalog: CatalogRef


def service_inputs(options: BotOptions) -> ServiceInputs:
    """The options as the composition root takes them: plain settings, the store engine (the
    SQLite file at `db_path` unless a `database` is given, not opened yet) and the catalogue's
    holder. Only an entry point calls `build_services(*service_inputs(options))` and hands the
    result to `QuizBot` (tests/test_layers.py names which)."""
    return ServiceInputs(
        ServiceSettings(
            content_dir=options.content_dir or default_content_dir(),
            default_language=options.default_language,
            timezone=options.timezone,
            group_seconds=options.group_seconds,
            group_timezone=options.group_timezone,
            question_seconds=options.question_seconds,
            retention=options.retention,
            shared=options.shared,
            clock=options.clock,
            rng=options.rng,
        ),
        options.database if options.database is not None else Database(options.db_path),
        CatalogRef(options.catalog),
    )
