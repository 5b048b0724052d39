"""The practice chooser keeps its whole state in its buttons' data, a bit per guide: it must
work for a catalogue of many guides, as content grows (it broke at the 31st: the mask had 9
digits and encoding a button raised)."""

from __future__ import annotations

from bot.core.models import GuidePath, Level, Text
from bot.i18n import translator
from bot.tg import callbacks as cb
from bot.tg import practice_render as pr


def _guides(n: int) -> list[GuidePath]:
    return [
        GuidePath(f"guide-{i}", Text({"en": f"Guide {i}"}), Text({"en": "https://example.org"}))
        for i in range(n)
    ]


def test_the_chooser_of_the_most_guides_it_offers_has_working_buttons() -> None:
    guides = _guides(pr.PRACTICE_GUIDES_MAX)
    everything = (1 << pr.PRACTICE_GUIDES_MAX) - 1
    levels = [Level.BEGINNER]
    for mask in (0, 1 << 40, everything):
        screen = pr.chooser(translator("en"), guides, mask, "x", 10, "en", levels)
        assert screen.keyboard is not None
        rows = screen.keyboard.inline_keyboard
        datas = [button.callback_data for row in rows for button in row]
        parsed = [cb.parse(data) for data in datas]  # type: ignore[arg-type]
        assert None not in parsed
        guide_rows = [row[0] for row in rows[: len(guides)]]
        ticked = [i for i, button in enumerate(guide_rows) if button.text.startswith("✓ ")]
        assert ticked == [i for i in range(len(guides)) if mask >> i & 1]
        toggles = [cb.parse(row.callback_data) for row in guide_rows]  # type: ignore[arg-type]
        assert [t.guides for t in toggles] == [mask ^ (1 << i) for i in range(len(guides))]
    assert cb.parse(cb.encode(cb.PracticeGo(everything, "x", 20))) == cb.PracticeGo(
        everything, "x", 20
    )
