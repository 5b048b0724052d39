"""docs/grafana-dashboard.json against what quizbot exports: it parses as a Grafana dashboard
with a Prometheus datasource variable, every expression names only metrics that exist, and
every metric family has a panel."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.observability import gauges
from bot.observability.metrics import REGISTRY

DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "grafana-dashboard.json"
NAME = re.compile(r"\bquizbot_[a-z_]+")


def exported() -> dict[str, set[str]]:
    """Family name -> the sample names a scrape shows of it (the registry and the probes')."""
    families = [
        *REGISTRY.collect(),
        *gauges.inbox(0, 0.0),
        gauges.timers_overdue(0),
        *gauges.leases({("w", "updates"): 1}, 1),
    ]
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}
    return {f.name: {f.name + s for s in suffixes.get(f.type, ("",))} for f in families}


def expressions(dashboard: dict[str, Any]) -> list[str]:
    return [t["expr"] for p in dashboard["panels"] for t in p["targets"]]


def test_the_dashboard_parses_and_picks_its_prometheus_datasource() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    for p in dashboard["panels"]:
        assert p["datasource"]["uid"] == "${datasource}", p["title"]
        assert p["targets"] and all(t["datasource"]["uid"] == "${datasource}" for t in p["targets"])
    ids = [p["id"] for p in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_every_expression_names_an_exported_metric_and_every_family_is_shown() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    families = exported()
    samples = set().union(*families.values())
    named = {n for expr in expressions(dashboard) for n in NAME.findall(expr)}
    named |= set(NAME.findall(json.dumps(dashboard["templating"])))
    assert named - samples == set()  # a renamed metric would leave an empty panel
    assert {f for f, names in families.items() if not names & named} == set()


def test_the_check_sees_a_misspelt_metric() -> None:
    samples = set().union(*exported().values())
    assert "quizbot_answer_stored_total" not in samples  # what a typo would name
    assert NAME.findall("rate(quizbot_answer_stored_total[5m])") == ["quizbot_answer_stored_total"]
