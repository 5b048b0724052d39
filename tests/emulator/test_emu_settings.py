"""Command menus per scope and language, descriptions, menu button."""

from __future__ import annotations

import pytest
import telegram
from telegram import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeChat
from telegram.error import BadRequest

from bot.emulator import Emulator


async def test_commands_recorded_per_scope_and_language(emu: Emulator, bot: telegram.Bot) -> None:
    await bot.set_my_commands([BotCommand("start", "Start"), BotCommand("quiz", "Take a quiz")])
    await bot.set_my_commands([BotCommand("start", "Commencer")], language_code="fr")
    await bot.set_my_commands(
        [BotCommand("push", "Push a quiz")], scope=BotCommandScopeAllGroupChats()
    )
    assert emu.commands() == [("start", "Start"), ("quiz", "Take a quiz")]
    assert emu.commands(language_code="fr") == [("start", "Commencer")]
    assert emu.commands({"type": "all_group_chats"}) == [("push", "Push a quiz")]
    assert emu.commands({"type": "all_group_chats"}, "fr") == []
    fr = await bot.get_my_commands(language_code="fr")
    assert [(c.command, c.description) for c in fr] == [("start", "Commencer")]
    await bot.delete_my_commands(language_code="fr")
    assert emu.commands(language_code="fr") == []


async def test_visible_commands_resolve_scope_then_language(
    emu: Emulator, bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa", language_code="fr")
    bintou = emu.user(1002, "Bintou", language_code="wo")
    group = emu.group(-100123, "Study group")
    group.add_member(awa, "administrator")
    await bot.set_my_commands([BotCommand("start", "Start")])
    await bot.set_my_commands([BotCommand("start", "Commencer")], language_code="fr")
    await bot.set_my_commands([BotCommand("push", "Push")], scope=BotCommandScopeAllGroupChats())
    await bot.set_my_commands(
        [BotCommand("stats", "Stats")], scope=BotCommandScopeChat(1002), language_code="wo"
    )
    assert emu.visible_commands(awa) == [("start", "Commencer")]
    assert emu.visible_commands(bintou) == [("stats", "Stats")]
    assert emu.visible_commands(awa, group) == [("push", "Push")]


@pytest.mark.parametrize(
    ("command", "description", "error"),
    [
        ("Start", "ok", "bot_command_invalid"),
        ("x" * 33, "ok", "bot_command_invalid"),
        ("start", "", "bot_command_description_invalid"),
        ("start", "d" * 257, "bot_command_description_invalid"),
    ],
)
async def test_invalid_commands(
    bot: telegram.Bot, command: str, description: str, error: str
) -> None:
    with pytest.raises(BadRequest) as caught:
        await bot.set_my_commands([BotCommand(command, description)])
    assert error in caught.value.message.lower()


async def test_scope_chat_must_exist(bot: telegram.Bot) -> None:
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.set_my_commands([BotCommand("a", "b")], scope=BotCommandScopeChat(-5))


async def test_descriptions_per_language(emu: Emulator, bot: telegram.Bot) -> None:
    await bot.set_my_description("Quizzes for learners")
    await bot.set_my_description("Des quiz", language_code="fr")
    await bot.set_my_short_description("Quizzes")
    assert emu.descriptions == {"": "Quizzes for learners", "fr": "Des quiz"}
    assert emu.short_descriptions == {"": "Quizzes"}
    assert (await bot.get_my_description(language_code="fr")).description == "Des quiz"
    assert (await bot.get_my_short_description()).short_description == "Quizzes"
    await bot.set_my_description("", language_code="fr")
    assert "fr" not in emu.descriptions


async def test_menu_button_is_accepted(emu: Emulator, bot: telegram.Bot) -> None:
    assert await bot.set_chat_menu_button(menu_button=telegram.MenuButtonCommands())
    assert emu.menu_buttons[None] == {"type": "commands"}
    assert isinstance(await bot.get_chat_menu_button(), telegram.MenuButtonCommands)
