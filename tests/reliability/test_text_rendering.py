"""Names, quiz content and arguments with `<`, `&`, quotes, emoji and right-to-left text render
without a Telegram parse error (the emulator parses HTML as Telegram does and refuses bad HTML)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli.content import main as content_main
from bot.content import load_catalog
from tests.reliability.support import VERDICT, bot_at, buttons, content_copy, handler_errors

# No digit in it: the checker holds a translation's numbers to its source's, and only the English
# sources are spiced.
NASTY = '<b>Ali & «Bob»</b> 🦊 مرحبا بالعالم שלום &amp; <i x="y">'


def spice(path: Path, data: dict[str, Any]) -> None:
    """Put the nasty string into every quiz text of the English sources."""
    if path.name.count(".") != 1 or "questions" not in data:
        return
    data["title"] = f"{data['title']} {NASTY}"[:80]
    for question in data["questions"].values():
        question["prompt"] = f"{question['prompt']} {NASTY}"
        question["options"] = {k: f"{v} <&> 🦊 עברית" for k, v in question["options"].items()}
        question["explanation"] = f"{question['explanation']} {NASTY}"


async def test_nasty_text_renders_everywhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    content = content_copy(tmp_path / "content", questions=2, edit=spice)
    assert content_main(["check", str(content)]) == 0, capsys.readouterr()
    catalog = load_catalog(content)
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(9001, NASTY, language_code="en")
        await user.send("/start")
        picker = await user.private.wait_for(lambda m: bool(m.buttons))
        await user.tap(picker, buttons(picker)[0])
        welcome = await user.private.wait_for(lambda m: "<b>Ali & «Bob»</b>" in m.text)
        assert "مرحبا" in welcome.text  # the name, shown as text, not as markup
        mark = user.private.mark()
        await user.send(f"/start {NASTY}")  # a deep link argument no quiz has
        await user.private.next_message(after=mark)
        mark = user.private.mark()
        await user.send("/start gradient-checkpointing")
        q1 = await user.private.wait_for(lambda m: "1/2" in m.text, after=mark)
        assert "<b>Ali & «Bob»</b>" in q1.text and "🦊" in q1.text
        answer = await user.tap(q1, "A")
        assert answer is not None and (answer.text or "").startswith(VERDICT)
        explanation = await user.private.wait_for(lambda m: any("▶" in b for b in buttons(m)))
        assert "שלום" in explanation.text
        mark = user.private.mark()
        await user.send(f"hello {NASTY}")
        await user.private.next_message(after=mark)
        assert not handler_errors(caplog)
        assert not [k for k in h.emu.stats.errors if k[1] == 400]  # no parse error anywhere


# Visible, this code is 3,000 characters: with the rest of the question Telegram takes it.
# Escaped for HTML it is ~5,750 (`&&` and `<` grow to `&amp;&amp;` and `&lt;`), longer than a
# message's 4,096.
CODE_HEAVY = "`" + "a && b < c; " * 250 + "`"


def code_heavy(path: Path, data: dict[str, Any]) -> None:
    """The code after the first prompt of gradient-checkpointing, in every language."""
    if path.name.startswith("gradient-checkpointing.") and "questions" in data:
        first = next(iter(data["questions"].values()))
        first["prompt"] = f"{first['prompt']} {CODE_HEAVY}"


async def test_a_question_whose_markup_outgrows_a_message_is_sent_whole(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """Telegram counts a message's 4,096 characters after parsing its HTML: a question that fits
    so is sent whole, options included, and never cut inside a tag or an entity."""
    content = content_copy(tmp_path / "content", questions=2, edit=code_heavy)
    assert content_main(["check", str(content)]) == 0, capsys.readouterr()
    async with bot_at(tmp_path, catalog=load_catalog(content)) as h:
        user = h.emu.user(9002, "Awa", language_code="en")
        await user.send("/start gradient-checkpointing")
        q1 = await user.private.wait_for(lambda m: "1/2" in m.text)
        assert CODE_HEAVY.strip("` ") in q1.text
        assert "Extra computation" in q1.text  # the options, after the long prompt
        answer = await user.tap(q1, "B")
        assert answer is not None and (answer.text or "").startswith(VERDICT)
        assert not handler_errors(caplog)
        assert not [k for k in h.emu.stats.errors if k[1] == 400]
