"""What the dashboard's browser tests share: Debian's chromium through Playwright, a page opened
the way Telegram opens the Mini App (initData in the URL fragment), and screenshots kept as test
artefacts (tests/artifacts/dashboard, or $QUIZBOT_TEST_ARTIFACTS).

The `browser` fixture itself is in conftest.py, so every browser test module gets it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tests.web.scenario import Served

CHROMIUM = os.environ.get("QUIZBOT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
ARTIFACTS = Path(
    os.environ.get("QUIZBOT_TEST_ARTIFACTS")
    or Path(__file__).resolve().parents[1] / "artifacts" / "dashboard"
)
LANGS = ("en", "fr", "wo")
# Moussa, Claire and Ndeye never chose a language in the bot, so each page follows the
# language_code of the initData the test signs (Awa chose English: hers would win).


def launch() -> Iterator[Any]:
    """One chromium, skipped with the reason where it or Playwright is missing (`.ci/run`
    installs chromium)."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}: `apt-get install -y chromium` (see .ci/run)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright's Python package is not installed"
    )
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def open_page(
    browser: Any,
    served: Served,
    query: str,
    init_data: str,
    theme: dict[str, str] | None = None,
    viewport: dict[str, int] = PHONE,
) -> Any:
    context = browser.new_context(viewport=viewport, device_scale_factor=2, accept_downloads=True)
    page = context.new_page()
    fragment = "tgWebAppData=" + quote(init_data, safe="")
    if theme is not None:
        fragment += "&tgWebAppThemeParams=" + quote(json.dumps(theme), safe="")
    page.goto(f"{served.url}/{query}#{fragment}")
    page.wait_for_selector("main[aria-busy=false]")
    return page


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
