"""`fit_html`: a screen's HTML within Telegram's 4,096 characters, counted after parsing."""

from __future__ import annotations

import pytest

from bot.emulator.html import parse_html
from bot.tg.wire.html_fit import fit_html

CODE = "<b>Question 1/2</b>\n\n<code>" + "a &amp;&amp; b &lt; c; " * 250 + "</code>\n\nA. yes"


def test_a_text_that_fits_once_parsed_is_kept_whole() -> None:
    assert len(CODE) > 4096 > len(parse_html(CODE).text)
    assert fit_html(CODE) == CODE


@pytest.mark.parametrize("limit", [30, 31, 32, 33, 34, 35, 100, 1001])
def test_a_cut_falls_between_characters_and_closes_its_tags(limit: int) -> None:
    cut = fit_html(CODE, limit)
    shown = parse_html(cut)  # Telegram would parse it: no broken entity, no open tag
    assert len(shown.text) <= limit and shown.text.endswith("…")
    assert cut.endswith("…</code>")
    assert shown.text[:-1] == parse_html(CODE).text[: len(shown.text) - 1].rstrip()


def test_a_cut_after_a_closed_tag_closes_nothing_more() -> None:
    text = "<b>Title</b>\n" + "x &amp; y " * 20
    cut = fit_html(text, 20)
    assert cut == "<b>Title</b>\nx &amp; y x &amp; y x…"  # 19 characters and the ellipsis
    assert parse_html(cut).entities == ({"offset": 0, "length": 5, "type": "bold"},)
