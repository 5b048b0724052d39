"""The bot's HTML as the sandbox prints it, in a pipe and on a terminal."""

from __future__ import annotations

import pytest

from bot.emulator import Button
from bot.sandbox.terminal import bubble, html_to_text, keyboard_lines, popup


@pytest.mark.parametrize(
    ("source", "plain"),
    [
        ("<b>Question 1/8</b> · Title", "*Question 1/8* · Title"),
        ("<strong>x</strong> <i>y</i> <em>z</em>", "*x* _y_ _z_"),
        ("use <code>model.train()</code> here", "use `model.train()` here"),
        (
            '📖 Guide: <a href="https://q.dev/g">Gradient</a>',
            "📖 Guide: Gradient <https://q.dev/g>",
        ),
        ('<a href="https://q.dev/g">https://q.dev/g</a>', "https://q.dev/g"),  # no URL twice
        ("Tom &amp; Jerry &lt;3 &quot;x&quot;", 'Tom & Jerry <3 "x"'),
        ("<s>old</s> <u>under</u> <tg-spoiler>secret</tg-spoiler>", "~old~ under ||secret||"),
        ('<span class="tg-spoiler">s</span>', "||s||"),
        ("<b>bold <i>both</i></b>", "*bold _both_*"),
        ('<pre><code class="language-python">x = 1\ny = 2</code></pre>', "```\nx = 1\ny = 2\n```"),
        ("<blockquote>one\ntwo</blockquote>", "▌ one\n▌ two"),
        ("<b>unclosed", "*unclosed*"),
        ("✅ <b>A.</b> Ünïcödé 🎉", "✅ *A.* Ünïcödé 🎉"),
    ],
)
def test_html_reads_plainly_in_a_pipe(source: str, plain: str) -> None:
    assert html_to_text(source) == plain


def test_a_terminal_gets_ansi_bold_instead_of_stars() -> None:
    shown = html_to_text("<b>Score</b>: 8/8", tty=True)
    assert shown == "\033[1mScore\033[0m: 8/8"


def test_buttons_are_numbered_in_reading_order_one_line_per_row() -> None:
    rows = ((Button("A", "a"), Button("B", "b")), (Button("Guide", url="https://q.dev"),))
    lines, flat = keyboard_lines(rows)
    assert lines == ["[1] A  [2] B", "[3] Guide <https://q.dev>"]
    assert [b.text for b in flat] == ["A", "B", "Guide"]


def test_a_bubble_and_a_popup() -> None:
    assert bubble("Quiz Bot", "hello\n\nthere", ["[1] Next"]) == (
        "╭─ Quiz Bot\n│ hello\n│\n│ there\n│ [1] Next\n╰─"
    )
    assert popup("✅ Right!") == "  ⟨popup⟩ ✅ Right!"
    assert popup("Stop\nnow", alert=True) == "  ⟨alert⟩ Stop\n          now"
