"""QUIZBOT_METRICS_PORT: off unless set, a clear error for a value that is no port."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings


def test_the_metrics_port_is_off_by_default_and_local_when_set() -> None:
    assert Settings.from_env({}).metrics_port is None
    settings = Settings.from_env({"QUIZBOT_METRICS_PORT": "9464"})
    assert (settings.metrics_listen, settings.metrics_port) == ("127.0.0.1", 9464)
    wide = Settings.from_env({"QUIZBOT_METRICS_PORT": "9464", "QUIZBOT_METRICS_LISTEN": "0.0.0.0"})
    assert wide.metrics_listen == "0.0.0.0"


@pytest.mark.parametrize("raw", ["0", "70000", "-1", "ninety"])
def test_a_metrics_port_that_is_no_port_is_refused_by_name(raw: str) -> None:
    with pytest.raises(ConfigError, match="QUIZBOT_METRICS_PORT"):
        Settings.from_env({"QUIZBOT_METRICS_PORT": raw})
