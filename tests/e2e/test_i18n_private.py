"""A learner who picks Français or Wolof meets no English UI string on any private screen."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LANGUAGES
from bot.tg.menus import MENUS, telegram_code
from tests.e2e.harness import (
    Harness,
)
from tests.e2e.i18n_kit import (
    PLACEHOLDER,
    TRANSLATED,
    Seen,
    english_patterns,
    walk_private_flow,
)


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_no_english_on_any_private_screen(harness: Harness, lang: str) -> None:
    user = harness.emu.user(4100 + len(lang) + ord(lang[0]), "Ndèye <&>", language_code=lang)
    seen = Seen()
    await walk_private_flow(harness, user, lang, seen)
    assert len(seen.texts) > 40  # the walk did reach every screen
    patterns = english_patterns(lang)
    leaks = {
        english: text
        for text in seen.texts
        for english, pattern in patterns.items()
        if pattern.search(text)
    }
    assert leaks == {}


async def test_french_result_uses_french_number_formatting(harness: Harness) -> None:
    user = harness.emu.user(4200, "Claire", language_code="fr")
    await walk_private_flow(harness, user, "fr", Seen())
    result = await user.private.wait_for(lambda m: "Score" in m.text)
    assert "\u00a0%" in result.text


async def test_menus_differ_per_language_and_scope(harness: Harness) -> None:
    emu = harness.emu
    codes = [telegram_code(lang) for lang in SUPPORTED_LANGUAGES]  # "" is the fallback
    menus = {
        (scope, code): emu.commands(scope={"type": scope}, language_code=code)
        for scope in MENUS
        for code in codes
    }
    assert all(menus.values())
    for scope in MENUS:
        per_language = [menus[(scope, code)] for code in codes]
        assert len({tuple(m) for m in per_language}) == len(codes), scope
        names = {tuple(c for c, _ in m) for m in per_language}
        assert len(names) == 1, f"{scope}: the same commands in every language"
    for code in codes:
        by_scope = {tuple(menus[(scope, code)]) for scope in MENUS}
        assert len(by_scope) == len(MENUS)
    assert dict(menus[("all_private_chats", "fr")])["language"] == "Changer de langue"
    assert set(emu.descriptions) == set(emu.short_descriptions) == set(codes)
    assert len(set(emu.descriptions.values())) == len(codes)


async def test_each_learner_sees_the_menu_in_their_language(harness: Harness) -> None:
    awa = harness.emu.user(4300, "Awa", language_code="wo")
    english = harness.emu.user(4301, "Ada", language_code="de")  # unsupported: the fallback
    visible = dict(harness.emu.visible_commands(awa))
    assert visible["stop"] == "Bàyyi xoolaat, eksaamen walla quiz bi ngay def"
    assert (
        dict(harness.emu.visible_commands(english))["stop"]
        == "Stop the running review, exam or quiz"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_leak_detector_finds_english(lang: str) -> None:
    patterns = english_patterns(lang)
    assert len(patterns) > 30
    for english, pattern in patterns.items():
        shown = PLACEHOLDER.sub("X", english)
        assert pattern.search(f"<b>{shown}</b>"), english


async def test_first_contact_in_an_unsupported_language_ticks_the_language_spoken(
    harness: Harness,
) -> None:
    """Telegram says German, which the bot does not speak: it answers in English, so English
    is the language ticked, as /language ticks it later."""
    user = harness.emu.user(4302, "Jonas", language_code="de")
    mark = user.private.mark()
    await user.send("/start")
    picker = await user.private.next_message(after=mark)
    ticked = [b.text for row in picker.buttons for b in row if b.text.startswith("✓")]
    assert ticked == ["✓ English"]
