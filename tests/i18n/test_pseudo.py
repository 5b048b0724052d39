"""The pseudo-locale checker itself: what it lets through and what it catches."""

from __future__ import annotations

from pathlib import Path

from bot.i18n_tools import read_catalogue
from tests.i18n.pseudo import mark, unmarked_words, write_pseudo_locales

CONTENT = ["What does gradient accumulation mainly allow?", "Gradient accumulation"]


def test_marked_content_names_and_numbers_pass() -> None:
    text = (
        "<b>⟦Question 1/2⟧</b> · Gradient accumulation\n\n"
        "What does gradient accumulation mainly allow?\n"
        "⟦Shuffle options: ⟦on⟧⟧ · Ada · Français · 12 % 🥇 A B"
    )
    assert unmarked_words(text, CONTENT, {"Ada", "Français"}) == []


def test_truncated_content_passes_and_ui_text_does_not() -> None:
    assert unmarked_words("1. What does gradient accum…", CONTENT, set()) == []
    assert unmarked_words("📊 Group statistics\n⟦Runs: 2⟧", CONTENT, set()) == [
        "Group",
        "statistics",
    ]
    assert unmarked_words("✓ 10s", CONTENT, set()) == []  # a unit alone is caught elsewhere
    assert unmarked_words("fr 100 % (1)", CONTENT, set()) == ["fr"]


def test_every_message_of_every_catalogue_is_marked(tmp_path: Path) -> None:
    root = write_pseudo_locales(tmp_path)
    for lang, forms in (("en", 2), ("fr", 3), ("wo", 1)):
        catalog = read_catalogue(root / lang / "LC_MESSAGES" / "messages.po")
        assert catalog.num_plurals == forms
        for message in catalog:
            if message.id:
                strings = [message.string] if isinstance(message.string, str) else message.string
                assert all(s.startswith(mark("")[0]) and s.endswith(mark("")[1]) for s in strings)
