"""The gauges of the moment, built when `/metrics` is scraped (never kept up to date per update).

One process (SQLite, or PostgreSQL without workers): the updates PTB holds that no handler has
started yet, and the timers past due in its JobQueue. Several workers: the same names read from
PostgreSQL (bot/store/pg/work_stats.py), plus the age of the oldest waiting update, each
worker's leases and how many workers are alive. One set of names, so one dashboard serves both.
"""

from __future__ import annotations

from collections.abc import Mapping

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric


def inbox(waiting: int, oldest_age: float | None = None) -> list[Metric]:
    depth = GaugeMetricFamily(
        "quizbot_inbox_updates", "Updates received and not yet handled to the end."
    )
    depth.add_metric([], waiting)
    out: list[Metric] = [depth]
    if oldest_age is not None:
        age = GaugeMetricFamily(
            "quizbot_inbox_oldest_age_seconds", "Age of the oldest update not yet handled."
        )
        age.add_metric([], oldest_age)
        out.append(age)
    return out


def timers_overdue(count: int) -> Metric:
    gauge = GaugeMetricFamily("quizbot_timers_overdue", "Timers past their due time, not fired.")
    gauge.add_metric([], count)
    return gauge


def leases(held: Mapping[tuple[str, str], int], workers: int) -> list[Metric]:
    per_worker = GaugeMetricFamily(
        "quizbot_worker_leases",
        "Leases each worker holds, on updates or on timers.",
        labels=["worker", "queue"],
    )
    for (worker, queue), count in sorted(held.items()):
        per_worker.add_metric([worker, queue], count)
    alive = GaugeMetricFamily("quizbot_workers_alive", "Workers that renewed their row lately.")
    alive.add_metric([], workers)
    return [per_worker, alive]
