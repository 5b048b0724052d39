"""quizbot's Prometheus metrics: one registry of its own, every family defined here, once.

The registry is quizbot's own (`REGISTRY`), not prometheus_client's global one: nothing else a
library registers there (process or platform collectors, another package's metrics) ends up on
quizbot's page, and tests read exactly what quizbot counts. One process runs one bot, so the
families are module-level; tests that start several bots in one process read differences.

Cost on the hot path: a labelled child is looked up once and kept (`_Api`, `timer_kind`), so a
Bot API call costs one dict lookup and one `inc()` (a lock and an addition), a popup one
`observe()`. With several workers (`quizbot run --workers N`) the supervisor sets
`PROMETHEUS_MULTIPROC_DIR` before the workers start: prometheus_client then keeps each
process's values in a file there, and whichever worker answers a scrape adds them all up
(bot/observability/exposition.py; the README says why).

Gauges that describe a moment (updates waiting, timers overdue, leases per worker) are not
kept here: they are read when scraped (`Probe`), from the process or from PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable
from contextvars import ContextVar

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.metrics_core import Metric

REGISTRY = CollectorRegistry(auto_describe=True)

# A scrape-time reading: the gauges of this moment (bot/observability/exposition.py runs it).
Probe = Callable[[], Awaitable[Iterable[Metric]]]

UPDATES = Counter(
    "quizbot_updates",
    "Updates handled, by kind (callback_query, message, chat_member, ...).",
    ["kind"],
    registry=REGISTRY,
)
UPDATES_REPEATED = Counter(
    "quizbot_updates_repeated",
    "Updates Telegram delivered again, dropped before any handler.",
    registry=REGISTRY,
)
ANSWERS_STORED = Counter(
    "quizbot_answers_stored",
    "Answers committed to the store (a double tap or a replay is not counted).",
    registry=REGISTRY,
)
POPUP_LATENCY = Histogram(
    "quizbot_popup_latency_seconds",
    "From an update's arrival in quizbot to Telegram's answer to its answerCallbackQuery "
    "(behind a webhook: to its handing to the webhook's response).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
API_CALLS = Counter(
    "quizbot_bot_api_calls",
    "Bot API requests sent (each retry counts), by method in lower case.",
    ["method"],
    registry=REGISTRY,
)
API_ERRORS = Counter(
    "quizbot_bot_api_errors",
    "Bot API requests that failed, by method and error "
    "(flood = 429, network, timeout, bad_request, forbidden, other).",
    ["method", "error"],
    registry=REGISTRY,
)
RETRY_AFTER = Histogram(
    "quizbot_bot_api_retry_after_seconds",
    "The wait each 429 asked for (its count is the number of 429s).",
    buckets=(0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
    registry=REGISTRY,
)
TIMERS_FIRED = Counter(
    "quizbot_timers_fired",
    "Timers fired (group run steps, schedules, reminders, exam clocks), by kind.",
    ["kind"],
    registry=REGISTRY,
)
TIMER_LATENESS = Histogram(
    "quizbot_timer_lateness_seconds",
    "How long after its due time a timer fired, by kind.",
    ["kind"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
    registry=REGISTRY,
)

# When quizbot got hold of the update being handled (perf_counter), per update: PTB runs each
# update in a task of its own, which copies the context, so concurrent updates never mix.
_received: ContextVar[float | None] = ContextVar("quizbot_update_received", default=None)


def update_received() -> None:
    """Stamp the update this task handles, once: the earliest seam that sees it wins."""
    if _received.get() is None:
        _received.set(time.perf_counter())


def count_update(kind: str) -> None:
    child = _update_kinds.get(kind)
    if child is None:
        child = _update_kinds[kind] = UPDATES.labels(kind)
    child.inc()


_update_kinds: dict[str, Counter] = {}

POPUP_METHOD = "answercallbackquery"


class _Api:
    """One Bot API method's children, bound once (`api(method)`)."""

    __slots__ = ("calls", "errors", "method", "popup")

    def __init__(self, method: str) -> None:
        self.method = method
        self.calls = API_CALLS.labels(method)
        self.errors: dict[str, Counter] = {}
        self.popup = method == POPUP_METHOD

    def answered(self) -> None:
        """A request Telegram accepted; a popup's latency since its update arrived."""
        self.calls.inc()
        if self.popup and (start := _received.get()) is not None:
            POPUP_LATENCY.observe(time.perf_counter() - start)

    def failed(self, error: str) -> None:
        """A request sent that failed (a courtesy reply shed before it left is neither)."""
        self.calls.inc()
        child = self.errors.get(error)
        if child is None:
            child = self.errors[error] = API_ERRORS.labels(self.method, error)
        child.inc()


_apis: dict[str, _Api] = {}


def api(endpoint: str) -> _Api:
    """The children of a Bot API method, by the endpoint as called (any case)."""
    found = _apis.get(endpoint)
    if found is None:
        method = endpoint.lower()  # the Bot API's names are case-insensitive
        found = _apis.get(method) or _Api(method)
        _apis[endpoint] = _apis[method] = found
    return found


def flood(seconds: float) -> None:
    RETRY_AFTER.observe(seconds)


def timer_fired(kind: str, late: float | None) -> None:
    """A timer's firing, `late` seconds after it was due (None: its due time is not known)."""
    pair = _timer_kinds.get(kind)
    if pair is None:
        pair = _timer_kinds[kind] = (TIMERS_FIRED.labels(kind), TIMER_LATENESS.labels(kind))
    pair[0].inc()
    if late is not None:
        pair[1].observe(max(0.0, late))


_timer_kinds: dict[str, tuple[Counter, Histogram]] = {}


def answers_stored(count: int) -> None:
    if count:
        ANSWERS_STORED.inc(count)
