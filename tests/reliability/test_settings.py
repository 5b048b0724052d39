"""Settings from the README's table that are no value quizbot can use: `quizbot run` refuses
them in one line naming the setting and what it takes, status 2, before it opens anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Settings
from tests.e2e.harness import TOKEN


@pytest.mark.parametrize(
    ("name", "raw", "says"),
    [
        # A traceback (logging's "Unknown level").
        ("QUIZBOT_LOG_LEVEL", "VERBOSE", "DEBUG, INFO, WARNING, ERROR"),
        # Accepted: every group the bot then joined failed the store's check (seconds > 0).
        ("QUIZBOT_QUESTION_SECONDS", "-5", "1 to 3600"),
        ("QUIZBOT_QUESTION_SECONDS", "0", "1 to 3600"),  # was 30, silently
        # Accepted: the bot started, then failed with "OverflowError: bind(): port must be 0-65535".
        ("QUIZBOT_WEBHOOK_PORT", "99999", "1-65535"),
        ("QUIZBOT_WEBHOOK_PORT", "0", "1-65535"),  # was 8443, silently
        ("QUIZBOT_WEB_PORT", "99999", "1-65535"),
        # "cannot start: ValueError: invalid literal for int()", naming no setting.
        ("QUIZBOT_DB", "postgresql://bot@db:notaport/quizbot", "port"),
        ("QUIZBOT_DB", "postgresql://bot@db:99999/quizbot", "port"),
    ],
)
def test_a_setting_out_of_its_range_is_refused_by_name(
    name: str, raw: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("QUIZBOT_DB", str(tmp_path / "q.sqlite3"))
    monkeypatch.setenv("QUIZBOT_API_BASE_URL", "http://127.0.0.1:9/bot")  # nobody: never reached
    monkeypatch.setenv("QUIZBOT_WEBAPP_URL", "https://quiz.example.org/")  # the web port read
    monkeypatch.setenv("QUIZBOT_WEBHOOK_SECRET", "s3cret")
    monkeypatch.setenv(name, raw)
    assert main(["run", "--webhook-url", "https://example.org/telegram"]) == 2
    err = capsys.readouterr().err
    named = (f"quizbot: configuration error: {name} ", f"quizbot: configuration error: {name}:")
    assert err.startswith(named) and says in err, err
    assert len(err.strip().splitlines()) == 1 and TOKEN not in err
    assert not (tmp_path / "q.sqlite3").exists()


@pytest.mark.parametrize(
    ("raw", "level"), [(None, "INFO"), ("debug", "DEBUG"), (" Warning ", "WARNING")]
)
def test_a_log_level_is_read_in_any_case(raw: str | None, level: str) -> None:
    assert Settings.from_env({} if raw is None else {"QUIZBOT_LOG_LEVEL": raw}).log_level == level


@pytest.mark.parametrize("port", ["99999", "0", "http"])
def test_quizbot_webs_port_option_out_of_range_is_one_line(
    port: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--port 99999` passed and failed later in bind() with a traceback."""
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    with pytest.raises(SystemExit) as exited:
        main(["web", "--port", port])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"--port: must be 1-65535, got {port}" in err and "Traceback" not in err


def test_a_misspelt_setting_is_named_with_the_one_it_resembles() -> None:
    """`QUIZBOT_WEBHOOK_SECRETS=...` was ignored without a word: the bot ran on the default."""
    from bot.setting_names import unknown

    lines = unknown(["QUIZBOT_WEBHOOK_SECRETS", "QUIZBOT_DB", "QUIZBOT_WORKERS", "HOME",
                     "QUIZBOT_NOPE"])  # fmt: skip
    assert lines == [
        "QUIZBOT_NOPE is not a setting quizbot reads (the README's table lists them): ignored",
        "QUIZBOT_WEBHOOK_SECRETS is not a setting quizbot reads "
        "(did you mean QUIZBOT_WEBHOOK_SECRET?): ignored",
    ]


def test_quizbot_run_says_so_in_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOT_TOKEN", TOKEN)
    monkeypatch.setenv("QUIZBOT_DB", str(tmp_path / "q.sqlite3"))
    monkeypatch.setenv("QUIZBOT_CONTENT_DIR", str(tmp_path / "no-content"))  # stops the start
    monkeypatch.setenv("QUIZBOT_QUESTION_SECOND", "20")
    assert main(["run"]) == 1
    err = capsys.readouterr().err
    assert "QUIZBOT_QUESTION_SECOND is not a setting quizbot reads (did you mean " in err
    assert TOKEN not in err
