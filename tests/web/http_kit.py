"""HTTP to the served dashboard for web tests: a GET as a signed user or none, and raw bytes
sent as they are with the status read back. Shared by the page, tile, chart, flood and fuzz
tests, so no test imports another."""

from __future__ import annotations

import re
import socket
import urllib.error
import urllib.request

from tests.web.scenario import Served

ADMIN_ONLY = "Only the group's admins can see this page."


def get(served: Served, path: str, init_data: str | None = None) -> tuple[int, str, dict[str, str]]:
    headers = {"Authorization": f"tma {init_data}"} if init_data is not None else {}
    request = urllib.request.Request(served.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), dict(exc.headers)


def raw(served: Served, request: bytes) -> bytes:
    """Send bytes as they are (no client tidies them) and read the whole answer."""
    port = int(served.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def status_of(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.[01] (\d{3}) ", answer)
    assert match, answer[:80]
    return int(match.group(1))
