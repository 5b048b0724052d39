"""How the sandbox shows a chat in a terminal: Telegram HTML as readable text, messages as bubbles.

Pure functions over strings and emulator snapshots, so the look can be tested without a bot.
ANSI styling is used only when the output is a terminal; in a pipe (tests, logs) bold reads as
*text*, so a transcript stays plain and greppable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from bot.emulator import Button

BOLD, ITALIC, UNDERLINE, STRIKE, DIM, RESET = (
    "\033[1m",
    "\033[3m",
    "\033[4m",
    "\033[9m",
    "\033[2m",
    "\033[0m",
)


@dataclass(frozen=True)
class Style:
    """Opening and closing marks for each kind of formatting."""

    bold: tuple[str, str]
    italic: tuple[str, str]
    underline: tuple[str, str]
    strike: tuple[str, str]
    spoiler: tuple[str, str]
    code: tuple[str, str]

    @classmethod
    def for_output(cls, tty: bool) -> Style:
        if tty:
            return cls((BOLD, RESET), (ITALIC, RESET), (UNDERLINE, RESET), (STRIKE, RESET),
                       (DIM + "▒", "▒" + RESET), ("`", "`"))  # fmt: skip
        return cls(("*", "*"), ("_", "_"), ("", ""), ("~", "~"), ("||", "||"), ("`", "`"))


class _Renderer(HTMLParser):
    """Telegram's HTML subset to text; unknown tags are dropped and their text kept."""

    def __init__(self, style: Style) -> None:
        super().__init__(convert_charrefs=True)
        self.style = style
        self.out: list[str] = []
        self.stack: list[tuple[str, str]] = []  # (tag, what to write when it closes)
        self.link_start: list[tuple[int, str]] = []

    def _marks(self, tag: str, attrs: dict[str, str | None]) -> tuple[str, str] | None:
        s = self.style
        if tag in ("b", "strong"):
            return s.bold
        if tag in ("i", "em"):
            return s.italic
        if tag in ("u", "ins"):
            return s.underline
        if tag in ("s", "strike", "del"):
            return s.strike
        if tag == "tg-spoiler" or (tag == "span" and attrs.get("class") == "tg-spoiler"):
            return s.spoiler
        if tag == "code" and not any(t == "pre" for t, _ in self.stack):
            return s.code
        if tag == "pre":
            return ("\n```\n", "\n```\n")
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "a":
            self.link_start.append((len(self.out), attributes.get("href") or ""))
            self.stack.append((tag, ""))
            return
        if tag == "blockquote":
            self.stack.append((tag, ""))
            self.link_start.append((len(self.out), ""))
            return
        marks = self._marks(tag, attributes)
        if marks is None:
            self.stack.append((tag, ""))
            return
        self.out.append(marks[0])
        self.stack.append((tag, marks[1]))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            open_tag, closing = self.stack.pop()
            if open_tag == "a":
                start, url = self.link_start.pop()
                text = "".join(self.out[start:])
                if url and url != text:
                    self.out.append(f" <{url}>")
            elif open_tag == "blockquote":
                start, _ = self.link_start.pop()
                quoted = "".join(self.out[start:])
                del self.out[start:]
                self.out.append("\n".join("▌ " + line for line in quoted.split("\n")))
            else:
                self.out.append(closing)
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        self.out.append(data)

    def text(self) -> str:
        while self.stack:
            self.handle_endtag(self.stack[-1][0])
        return "".join(self.out)


def html_to_text(source: str, *, tty: bool = False) -> str:
    """A bot's HTML message as terminal text: bold as *x* (ANSI bold on a TTY), code as `x`,
    links as "text <url>"."""
    renderer = _Renderer(Style.for_output(tty))
    renderer.feed(source)
    renderer.close()
    return renderer.text().strip("\n").replace("\n```\n\n", "\n```\n")


def keyboard_lines(
    rows: Sequence[Sequence[Button]], first: int = 1
) -> tuple[list[str], list[Button]]:
    """Buttons numbered in reading order, one line per keyboard row; also the flat list the
    numbers refer to."""
    lines: list[str] = []
    flat: list[Button] = []
    for row in rows:
        cells = []
        for button in row:
            flat.append(button)
            label = f"{button.text} <{button.url}>" if button.url else button.text
            cells.append(f"[{first + len(flat) - 1}] {label}")
        lines.append("  ".join(cells))
    return lines, flat


def bubble(header: str, body: str, keyboard: Sequence[str] = ()) -> str:
    """A chat bubble: a header line, then the text and keyboard behind a bar."""
    lines = [f"╭─ {header}"]
    lines += [f"│ {line}".rstrip() for line in body.split("\n")]
    lines += [f"│ {line}" for line in keyboard]
    lines.append("╰─")
    return "\n".join(lines)


def popup(text: str, *, alert: bool = False) -> str:
    """A callback answer as Telegram would flash it (a toast) or show it (an alert)."""
    head = f"  ⟨{'alert' if alert else 'popup'}⟩ "
    first, *rest = text.split("\n")
    return "\n".join([head + first, *(" " * len(head) + line for line in rest)]).rstrip()


def verb(name: str, base: str) -> str:
    """`base` as `name` takes it in a note: "You open", "Claire opens"."""
    return base if name == "You" else f"{base}s"


def note(text: str) -> str:
    """Something the sandbox itself says, set apart from the chat."""
    return f"· {text}"
