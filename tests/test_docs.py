"""Files hold each other honest: the README's commands and what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))


def test_readme_starts_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = text.index("```sh")
    assert first_block < 40, "the two commands must be the README's first lines"
    install_and_run, install_and_test = readme_commands()[:2]
    assert install_and_run.endswith("quizbot sandbox")
    assert "pytest" in install_and_test


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci


def test_every_menu_command_is_in_the_readme() -> None:
    from bot.tg.menus import MENUS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for commands in MENUS.values():
        for command in commands:
            assert f"`/{command.name}" in text, command.name


def test_readme_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#:]+)\)", text):
        assert (ROOT / target).exists(), target


def test_every_setting_read_is_in_the_readmes_table_and_back() -> None:
    """Each `QUIZBOT_*` name the code reads is a row of the README's settings table, and each
    row names a setting the code reads: an operator learns every setting from one table."""
    read = set()
    for path in (ROOT / "bot").rglob("*.py"):
        read |= set(re.findall(r"[\"'](QUIZBOT_[A-Z_]+)[\"']", path.read_text(encoding="utf-8")))
    from bot.setting_names import OTHERS, SETTINGS

    read -= OTHERS  # docker compose's and the tests' own, named there so none is warned about
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if re.match(r"\| `(QUIZBOT_|BOT_TOKEN)", line)]
    documented = {
        name for row in rows for name in re.findall(r"`(QUIZBOT_[A-Z_]+)`", row.split("|")[1])
    }
    assert sorted(read - documented) == [], "settings read but not in the README's table"
    assert sorted(documented - read) == [], "settings in the README's table that nothing reads"

    assert documented == SETTINGS, "bot/setting_names.py: the names a misspelt one is told from"
