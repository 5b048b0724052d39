"""Telegram's HTML subset: what it shows, and what it rejects with tdlib's words."""

from __future__ import annotations

import pytest

from bot.emulator.formatted import FormattedText, trim
from bot.emulator.html import HtmlError, parse_html


def _e(kind: str, offset: int, length: int, **extra: str) -> dict[str, object]:
    return {"offset": offset, "length": length, "type": kind, **extra}


VALID = [
    ("plain text", "plain text", []),
    ("<b>bold</b> x", "bold x", [_e("bold", 0, 4)]),
    ("<strong>s</strong><i>i</i><em>e</em>", "sie", [_e("bold", 0, 1), _e("italic", 1, 1),
                                                  _e("italic", 2, 1)]),
    ("<u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>", "unskd",
     [_e("underline", 0, 1), _e("underline", 1, 1), _e("strikethrough", 2, 1),
      _e("strikethrough", 3, 1), _e("strikethrough", 4, 1)]),
    ('<span class="tg-spoiler">x</span><tg-spoiler>y</tg-spoiler>', "xy",
     [_e("spoiler", 0, 1), _e("spoiler", 1, 1)]),
    ('<a href="https://example.org/x?a=1&amp;b=2">link</a>', "link",
     [_e("text_link", 0, 4, url="https://example.org/x?a=1&b=2")]),
    ("<a href=telegram.org> </a>x", " x", [_e("text_link", 0, 1, url="http://telegram.org/")]),
    ("<code>x &lt; y</code>", "x < y", [_e("code", 0, 5)]),
    ('<pre><code class="language-python">print(1)</code></pre>', "print(1)",
     [_e("pre", 0, 8, language="python")]),
    ("<pre>block</pre>", "block", [_e("pre", 0, 5)]),
    ("<blockquote>q</blockquote>", "q", [_e("blockquote", 0, 1)]),
    ("<blockquote expandable>q</blockquote>", "q", [_e("expandable_blockquote", 0, 1)]),
    ('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>', "👍",
     [_e("custom_emoji", 0, 2, custom_emoji_id="5368324170671202286")]),
    ("&lt;&gt;&amp;&quot;&#65;&#x42;", "<>&\"AB", []),
    ("a > b", "a > b", []),
    # entity offsets count UTF-16 units: the emoji takes two
    ("🏟 <b>é</b>", "🏟 é", [_e("bold", 3, 1)]),
    ("<B>upper</b>", "upper", [_e("bold", 0, 5)]),  # start tags are case-insensitive
    ("<i>a</>", "a", [_e("italic", 0, 1)]),  # tdlib accepts an empty end tag
    ("<b><i>both</i></b>", "both", [_e("bold", 0, 4), _e("italic", 0, 4)]),
    ("<b></b>x", "x", []),  # empty entities vanish
]  # fmt: skip


@pytest.mark.parametrize(("source", "text", "entities"), VALID)
def test_valid_html(source: str, text: str, entities: list[dict[str, object]]) -> None:
    parsed = parse_html(source)
    assert parsed.text == text
    assert list(parsed.entities) == entities


INVALID = [
    ("a < b", 'Unsupported start tag "" at byte offset 2'),
    ("x <b", "Unclosed start tag at byte offset 2"),
    ("<p>para</p>", 'Unsupported start tag "p" at byte offset 0'),
    ("<br/>", 'Unsupported start tag "br/" at byte offset 0'),
    ("<b>bold", 'Can\'t find end tag corresponding to start tag "b"'),
    ("<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'),
    ("x</b>", "Unexpected end tag at byte offset 1"),
    ("<i>a</i   ", "Unclosed end tag at byte offset 4"),
    ("<i   =aba>", 'Empty attribute name in the tag "i" at byte offset 0'),
    ("<i    aba>",
     'Expected equal sign in declaration of an attribute of the tag "i" at byte offset 0'),
    ("<i aba=  ", 'Unclosed start tag "i" at byte offset 0'),
    ("<i aba=190azAz-.,", "Unexpected end of name token at byte offset 7"),
    ('<i aba="x>', "Unclosed start tag at byte offset 0"),
    ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    ("&#xDFDF;", "Text contains invalid Unicode characters after decoding HTML entities, "
                 "check for unmatched surrogate code units"),
    ("🏟 🏟&lt;<abac>", 'Unsupported start tag "abac" at byte offset 13'),  # bytes, not chars
    ("fish & chips", 'Unescaped "&" at byte offset 5; write &amp;'),  # emulator is strict
    ("&laquo;", 'Unescaped "&" at byte offset 0; write &amp;'),
]  # fmt: skip


@pytest.mark.parametrize(("source", "detail"), INVALID)
def test_invalid_html(source: str, detail: str) -> None:
    with pytest.raises(HtmlError) as caught:
        parse_html(source)
    assert caught.value.detail == detail
    assert str(caught.value) == f"can't parse entities: {detail}"


def test_lenient_ampersand_matches_tdlib() -> None:
    parsed = parse_html("&laquo; fish & chips &#12345678;", strict_ampersand=False)
    assert parsed.text == "&laquo; fish & chips &#12345678;"


def test_trim_strips_whitespace_and_shifts_entities() -> None:
    trimmed = trim(parse_html("\n  <b>hi</b> there \n"))
    assert trimmed == FormattedText("hi there", ({"offset": 0, "length": 2, "type": "bold"},))
    assert trim(parse_html("<i> </i>")).text == ""
