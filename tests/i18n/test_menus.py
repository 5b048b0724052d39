"""The command menus: valid for Telegram, translated, and only commands the bot answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from telegram.ext import CommandHandler

from bot.content import default_content_dir, load_catalog
from bot.i18n import SUPPORTED_LANGUAGES, translator
from bot.tg.menus import DESCRIPTION, GROUP, GROUP_ADMIN, MENUS, SHORT_DESCRIPTION, commands
from bot.tg.options import BotOptions
from tests.e2e.harness import compose_bot


def handled_commands(tmp_path: Path) -> set[str]:
    options = BotOptions(
        token="1:x", db_path=tmp_path / "db.sqlite3", catalog=load_catalog(default_content_dir())
    )
    app = compose_bot(options).app
    return {
        command
        for handlers in app.handlers.values()
        for handler in handlers
        if isinstance(handler, CommandHandler)
        for command in handler.commands
    }


def test_every_menu_command_has_a_handler(tmp_path: Path) -> None:
    handled = handled_commands(tmp_path)
    for scope, menu in MENUS.items():
        missing = [c.name for c in menu if c.name not in handled]
        assert not missing, f"{scope}: no CommandHandler for {missing}"


def test_administrators_keep_the_members_commands() -> None:
    # Telegram shows admins their list instead of the group one, not in addition to it.
    assert {c.name for c in GROUP} <= {c.name for c in GROUP_ADMIN}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("scope", MENUS)
def test_menus_fit_telegram(scope: str, lang: str) -> None:
    menu = commands(scope, lang)
    names = [c.command for c in menu]
    assert len(names) == len(set(names)) and len(names) <= 100
    for command in menu:
        assert command.command.isascii() and command.command.islower()
        assert 1 <= len(command.command) <= 32
        assert 1 <= len(command.description) <= 256


@pytest.mark.parametrize("lang", ["fr", "wo"])
def test_menus_and_descriptions_are_translated(lang: str) -> None:
    tr = translator(lang)
    for scope in MENUS:
        english = {c.description for c in commands(scope, "en")}
        assert not english & {c.description for c in commands(scope, lang)}
    assert tr._(DESCRIPTION) != DESCRIPTION and len(tr._(DESCRIPTION)) <= 512
    assert tr._(SHORT_DESCRIPTION) != SHORT_DESCRIPTION and len(tr._(SHORT_DESCRIPTION)) <= 120
