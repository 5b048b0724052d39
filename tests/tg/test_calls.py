"""Raw hot-path calls send exactly what PTB's wrappers would: the same keyboard JSON."""

from __future__ import annotations

from telegram import CopyTextButton, InlineKeyboardMarkup, LoginUrl
from telegram import InlineKeyboardButton as Button

from bot.tg.wire.calls import keyboard_json


def test_keyboard_json_equals_ptb_to_dict() -> None:
    keyboard = InlineKeyboardMarkup(
        [
            [Button("A", callback_data="ans:1:0:0"), Button("É ✓", callback_data="lang:fr")],
            [Button("Guide", url="https://example.org/guide?a=1&b=2")],
            [Button("Log in", login_url=LoginUrl("https://example.org/login"))],
            [Button("Copy", copy_text=CopyTextButton("x"))],
            [Button("Styled", callback_data="s", style="primary", icon_custom_emoji_id="42")],
            [Button("Extra", callback_data="e", api_kwargs={"future_field": 1})],
        ]
    )
    assert keyboard_json(keyboard) == keyboard.to_dict()
