"""Webhook mode refuses, at start-up and in one line, a URL or secret Telegram would refuse."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Secret, Settings, check_webhook
from tests.e2e.harness import TOKEN
from tests.reliability.support import ROOT

GOOD_SECRET = "s3cret-Token_1"


def quizbot_run(tmp_path: Path, url: str, secret: str) -> subprocess.CompletedProcess[str]:
    """`quizbot run --webhook-url URL` with the Bot API pointed at a closed port: a bot that
    got past its settings fails later with another message and status."""
    env = {
        "BOT_TOKEN": TOKEN, "QUIZBOT_WEBHOOK_SECRET": secret, "PATH": "/usr/bin:/bin",
        "QUIZBOT_API_BASE_URL": "http://127.0.0.1:9/bot", "QUIZBOT_DB": str(tmp_path / "q.db"),
    }  # fmt: skip
    return subprocess.run(
        [sys.executable, "-m", "bot", "run", "--webhook-url", url],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("url", "secret", "says"),
    [
        ("http://example.org/telegram", GOOD_SECRET, "https://"),
        ("HTTP://example.org/telegram", GOOD_SECRET, "https://"),
        ("https://example.org/telegram", "has space", "A-Z, a-z, 0-9, _ and -"),
        ("https://example.org/telegram", "x" * 257, "1 to 256"),
        ("https://example.org/telegram", "sécret", "A-Z, a-z, 0-9, _ and -"),
    ],
)
def test_run_refuses_a_webhook_telegram_would_refuse(
    tmp_path: Path, url: str, secret: str, says: str
) -> None:
    done = quizbot_run(tmp_path, url, secret)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("quizbot: configuration error:"), lines
    assert says in lines[0]
    assert secret not in done.stderr + done.stdout and TOKEN not in done.stderr
    assert not (tmp_path / "q.db").exists()  # refused before anything was opened


@pytest.mark.parametrize(
    ("url", "secret"),
    [
        ("https://example.org/telegram", GOOD_SECRET),
        ("https://bot.example.org:8443/hook", "A" * 256),
        ("https://example.org", "_-9"),
    ],
)
def test_https_and_a_telegram_secret_are_accepted(url: str, secret: str) -> None:
    check_webhook(url, Secret(secret))


@pytest.mark.parametrize(
    ("url", "secret"),
    [("https:///telegram", GOOD_SECRET), ("example.org/telegram", GOOD_SECRET),
     ("https://example.org/telegram", ""), ("https://example.org/telegram", "a/b")],
)  # fmt: skip
def test_check_webhook_refuses(url: str, secret: str) -> None:
    with pytest.raises(ConfigError):
        check_webhook(url, Secret(secret))


@pytest.mark.parametrize("port", [8080, 8444, 3000])
def test_run_refuses_a_port_telegram_does_not_deliver_to(tmp_path: Path, port: int) -> None:
    """Telegram sets a webhook only on ports 80, 88, 443 and 8443 ("bad webhook: Webhook can be
    set up only on ports ..."): refused with the settings, not by setWebhook once started."""
    done = quizbot_run(tmp_path, f"https://example.org:{port}/telegram", GOOD_SECRET)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("quizbot: configuration error:"), lines
    assert "80, 88, 443 or 8443" in lines[0]
    assert not (tmp_path / "q.db").exists()


@pytest.mark.parametrize("url", ["https://example.org:80/t", "https://example.org:88/t"])
def test_every_port_telegram_delivers_to_is_accepted(url: str) -> None:
    check_webhook(url, Secret(GOOD_SECRET))


def test_a_worker_started_by_hand_without_a_secret_refuses_to_open_its_door(
    tmp_path: Path,
) -> None:
    """`quizbot run --workers N` checks the secret first; a worker started by hand did not, and
    its webhook front would have had no lock. It refuses, in one line, before connecting."""
    env = {
        "BOT_TOKEN": TOKEN, "PATH": "/usr/bin:/bin",
        "QUIZBOT_DB": "postgresql://nobody@127.0.0.1:9/none",
    }  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli.worker"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "quizbot: webhook mode needs QUIZBOT_WEBHOOK_SECRET (or --poll)"
    ]


@pytest.mark.parametrize(("raw", "wait"), [(None, 0.5), ("0", 0.0), ("1.5", 1.5), (" 2 ", 2.0)])
def test_the_wait_for_a_popup_in_the_webhook_response_is_read(raw: str | None, wait: float) -> None:
    env = {} if raw is None else {"QUIZBOT_WEBHOOK_REPLY_WAIT": raw}
    assert Settings.from_env(env).webhook_reply_wait == wait


@pytest.mark.parametrize("raw", ["soon", "-1", "6", "nan", "inf"])
def test_a_wait_that_is_no_few_seconds_is_refused_in_one_line(raw: str) -> None:
    with pytest.raises(ConfigError, match="QUIZBOT_WEBHOOK_REPLY_WAIT"):
        Settings.from_env({"QUIZBOT_WEBHOOK_REPLY_WAIT": raw})
