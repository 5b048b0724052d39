"""The `/metrics` page: Prometheus' text format, from this process or from every worker.

One process: quizbot's own registry (bot/observability/metrics.py). Several workers
(`PROMETHEUS_MULTIPROC_DIR` set by the supervisor): prometheus_client's `MultiProcessCollector`
adds up the files every worker of the host writes, so whichever worker the kernel hands a scrape
to (they share one port) answers for all of them, and a scrape never sees a counter go back.
Either way the gauges of the moment come from the bot's `Probe`, read at scrape time; a probe
that fails (PostgreSQL briefly unreachable) costs its gauges and one log line, not the page.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.metrics_core import Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from bot.log_budget import LogBudget, log_refusal
from bot.observability.metrics import REGISTRY, Probe
from bot.webhook_gate import serve

log = logging.getLogger(__name__)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
_refusals = LogBudget()


class _Reading(Collector):
    """The gauges one probe returned, for one scrape."""

    def __init__(self, metrics: Iterable[Metric]) -> None:
        self.metrics = list(metrics)

    def collect(self) -> Iterable[Metric]:
        return self.metrics


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def _counted() -> CollectorRegistry:
    """What the counters and histograms say: this process's, or every worker's added up."""
    folder = multiprocess_dir()
    if folder is None:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
    return registry


async def scrape(probe: Probe | None = None) -> bytes:
    """The whole page: counters and histograms, then the probe's gauges."""
    page = generate_latest(_counted())
    if probe is None:
        return page
    try:
        metrics = await probe()
    except Exception as exc:  # a gauge is not worth a failed scrape
        log_refusal(log, _refusals, "metrics: gauges not read: %s: %s", type(exc).__name__, exc)
        return page
    reading = CollectorRegistry(auto_describe=False)
    reading.register(_Reading(metrics))
    return page + generate_latest(reading)


def add_routes(app: web.Application, probe: Probe | None = None) -> None:
    """`GET /metrics` on an aiohttp application (the workers' front, the metrics port)."""

    async def metrics(request: web.Request) -> web.Response:
        body = await scrape(probe)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.router.add_get("/metrics", metrics)


async def serve_metrics(
    listen: str, port: int, probe: Probe | None = None, *, reuse_port: bool = False
) -> tuple[web.AppRunner, int]:
    """A port of its own for `/metrics` and `/healthz` (QUIZBOT_METRICS_PORT); the bound port."""

    async def health(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/healthz", health)
    add_routes(app, probe)
    runner = await serve(app, listen, port, reuse_port=reuse_port)
    addresses = runner.addresses  # port 0: the one the kernel chose
    return runner, int(addresses[0][1]) if addresses else port


@contextlib.contextmanager
def workers_share_metrics() -> Iterator[str]:
    """For the workers started inside: one folder where each writes its values (set in the
    environment they inherit, before they import prometheus_client, which reads it then).
    An operator's own `PROMETHEUS_MULTIPROC_DIR` is used and emptied first (prometheus_client
    needs a fresh one per run); otherwise a temporary folder, removed afterwards."""
    given = multiprocess_dir()
    folder = given or tempfile.mkdtemp(prefix="quizbot-metrics-")
    if given is not None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for old in Path(folder).glob("*.db"):
            old.unlink()
    os.environ[MULTIPROC_ENV] = folder
    try:
        yield folder
    finally:
        if given is None:
            os.environ.pop(MULTIPROC_ENV, None)
            shutil.rmtree(folder, ignore_errors=True)
