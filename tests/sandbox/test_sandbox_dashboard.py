"""The sandbox prints a local link to the Mini App dashboard, signed for its own user: it opens
with no token and no network, as the user's page, and in the group as the group's page."""

from __future__ import annotations

import re
import urllib.request
from urllib.parse import unquote, urlsplit

from tests.sandbox.driver import Sandbox


def fetch_view(link: str) -> tuple[int, str]:
    """What the dashboard's page script fetches for this link (its initData as the header)."""
    parts = urlsplit(link)
    init_data = unquote(parts.fragment.removeprefix("tgWebAppData="))
    request = urllib.request.Request(
        f"{parts.scheme}://{parts.netloc}/api/view", headers={"Authorization": f"tma {init_data}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def test_the_sandbox_links_to_its_dashboard(sandbox: Sandbox) -> None:
    intro = sandbox.prompt()
    found = re.search(
        r"dashboard \(Mini App\) as You: (http://127\.0\.0\.1:\d+/#tgWebAppData=\S+)", intro
    )
    assert found is not None, intro
    status, page = fetch_view(found.group(1))
    assert status == 200 and "Your progress" in page

    sandbox.type(":group")
    shown = sandbox.type(":dashboard")
    link = re.search(r"(http://127\.0\.0\.1:\d+/#tgWebAppData=\S+)", shown)
    assert link is not None, shown
    status, page = fetch_view(link.group(1))
    assert status == 200 and "Group statistics" in page and "Study group" in page
    assert sandbox.close_input() == 0
