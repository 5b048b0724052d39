"""Property-based: arbitrary requests thrown at the dashboard's HTTP routes (issue 25).

Paths, query strings and headers, valid initData or not, sent as raw bytes (no client tidies
them): every answer is below 500, the log never holds a traceback or an error, and the process
does not keep what the requests brought.
"""

from __future__ import annotations

import gc
import logging
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.http_kit import raw, status_of
from tests.web.scenario import AWA, CLAIRE, GROUP, NDEYE, QUIZ, Served

EXAMPLES = 150
ROUTES = ["/", "/api/view", "/healthz", "/static/app.js", "/static/app.css", "/static/",
          "/csv/group/{chat}/{section}.csv", "/csv/group/", "/api/", "/favicon.ico"]  # fmt: skip
KEYS = ["view", "chat", "quiz", "t", "lang", "user", "start_param", "x"]


@pytest.fixture(scope="module", name="served")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A world of its own: the fuzz spends the log's budget, which other tests read."""
    world = Served(Path(tmp_path_factory.mktemp("fuzzed")))
    world.start()
    try:
        yield world
    finally:
        world.stop()


texts = st.one_of(
    st.sampled_from(
        [
            "group",
            "learner",
            "preview",
            QUIZ,
            str(GROUP),
            f"g{GROUP}",
            "en",
            "fr",
            "-0",
            "1e9",
            "9" * 30,
            "-" + "9" * 5000,
            "g",
            "%",
            "%00",
            "..",
            "../..",
            "１２３",
            "null",
            "[]",
            "a=b",
            "&",
            "#",
            "\u202e",
            "é",
        ]
    ),
    st.integers(-(10**20), 10**20).map(str),
    st.text(max_size=40),
    st.text(max_size=3000, alphabet=st.characters(codec="ascii")),
)
numbers = st.one_of(
    st.integers(-(10**15), 10**15).map(str),
    st.sampled_from([str(2**63), str(-(2**63) - 1), str(2**53), "9" * 30]),  # beyond 64 bits
    texts,
)


def one_line(text: str) -> str:
    """No CR or LF: a request smuggled inside a header could declare a body that never comes,
    and the answer would be a timeout, not the dashboard's."""
    return text.replace("\r", " ").replace("\n", " ")


structured = st.tuples(
    st.tuples(st.just("view"), st.sampled_from(["group", "preview", "learner", "x", ""])),
    st.tuples(st.just("chat"), numbers),
    st.tuples(st.just("quiz"), st.one_of(st.just(QUIZ), texts)),
).map(list)
anything = st.lists(st.tuples(st.one_of(st.sampled_from(KEYS), texts), texts), max_size=5)
HEADERS = ["Accept-Language", "Accept", "Cookie", "X-Forwarded-For", "Range", "X" + "y" * 9000]


@st.composite
def requests(draw: st.DrawFn, served: Served) -> bytes:
    # Mostly the route that reads the store; any known one; any at all.
    route = draw(st.sampled_from(["/api/view"] * 6 + ROUTES + ["?"]))
    if route == "?":
        route = "/" + draw(texts)
    if route in ROUTES and "{" in route:
        route = route.format(chat=draw(numbers), section=draw(texts))
    pairs = draw(st.one_of(structured, anything))
    if draw(st.booleans()):
        target = (
            quote(route, safe="/%")
            + "?"
            + "&".join(f"{quote(k, safe='')}={quote(v, safe='%')}" for k, v in pairs)
        )
    else:  # as typed, spaces and all: the parser's to refuse
        target = one_line(route + "?" + "&".join(f"{k}={v}" for k, v in pairs))
    headers = {"Host": "127.0.0.1"}
    who = draw(st.sampled_from(["valid", "valid", "none", "junk", "scheme"]))
    if who == "valid":
        user = draw(st.sampled_from([AWA, CLAIRE, NDEYE, 424242]))
        start = draw(st.one_of(st.none(), texts, numbers.map("g{}".format)))
        lang = draw(st.sampled_from(["en", "fr", "wo", "xx", "", "fr-CA"]))
        headers["Authorization"] = "tma " + served.init_data(user, lang, start_param=start or None)
    elif who == "junk":
        headers["Authorization"] = "tma " + draw(texts)
    elif who == "scheme":
        headers["Authorization"] = draw(texts)
    headers.update(draw(st.lists(st.tuples(st.sampled_from(HEADERS), texts), max_size=3)))
    lines = [f"GET {target} HTTP/1.1", *(f"{k}: {one_line(v)}" for k, v in headers.items())]
    lines += ["Connection: close", "", ""]
    return "\r\n".join(lines).encode("utf-8", "surrogateescape")


def server_side(snapshot: tracemalloc.Snapshot) -> tracemalloc.Snapshot:
    """What the dashboard holds, not what hypothesis keeps of its examples or the log's records."""
    return snapshot.filter_traces([
        tracemalloc.Filter(False, "*/hypothesis/*"),
        tracemalloc.Filter(False, "*/tests/*"),
        tracemalloc.Filter(False, "*/logging/*"),
        tracemalloc.Filter(False, "*/_pytest/*"),
    ])  # fmt: skip


def fuzz(served: Served, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(request=requests(served))
    def one(request: bytes) -> None:
        answer = raw(served, request)
        assert status_of(answer) < 500, (request[:200], answer[:300])

    one()


def test_any_request_is_answered_below_500_with_no_traceback(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    fuzz(served, 30)  # warm-up: whatever a first request of each kind allocates once
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        with caplog.at_level(logging.INFO):
            fuzz(served, EXAMPLES)
        gc.collect()
        after = tracemalloc.take_snapshot()
        grown = sum(
            d.size_diff for d in server_side(after).compare_to(server_side(before), "filename")
        )
    finally:
        tracemalloc.stop()
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:2000]
    assert grown < 2_000_000, f"{grown / 1e6:.1f} MB kept after {EXAMPLES} requests"
