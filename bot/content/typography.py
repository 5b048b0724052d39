"""French typography in a content string: the rules a French reader notices when they are broken.

- a narrow no-break space (U+202F) before ; : ! ? and inside « », so the mark never starts a
  line (an ordinary or a wide no-break space is the usual slip);
- no straight quotes: ’ for the apostrophe, « » for quotations;
- a decimal comma in prose (0,5 Go, not 0.5 Go: a learner types "0,5" too);
- a no-break space (U+202F or U+00A0) between a number and its unit (16 bits, 1 Go, 30 %).

Warnings: the bot serves such text, but it reads as careless. Code spans and links are left
alone. Pure functions; `translations` decides where to report.
"""

from __future__ import annotations

import re

from bot.content import text_checks
from bot.content.problems import N_, Msg

NARROW = "\u202f"
_NO_BREAK = "\u202f\u00a0"
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
# A mark that needs the narrow space before it (':' between digits is a time or a ratio, 12:30).
_HIGH_MARK = re.compile(r"(?<=(.))([;:!?])")
_OPEN, _CLOSE = re.compile(r"«(.)"), re.compile(r"(.)»")
_DIGIT = re.compile(r"\d")
_DECIMAL_POINT = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")
UNITS = (
    "Go|Mo|Ko|To|Gio|Mio|Kio|Tio|o|octets?|bits?|Go/s|Mo/s|Gbit/s|%|ms|µs|ns|s|min|h|Hz|kHz|MHz|GHz"
    "|W|kW|°C|Tflops|Tflop/s|GFLOP/s|TFLOP/s|FLOPs?|Po|Pio"
)
_UNIT_AFTER_SPACE = re.compile(rf"(?<![\w.,])\d+(?:,\d+)? (?={UNITS})(?:{UNITS})(?![\w/])")


def _prose(text: str) -> str:
    return _URL.sub(" ", text_checks.prose(text))


def french(text: str) -> list[str]:
    """What breaks French typography in a French string."""
    prose = _prose(text) if "://" in text or "`" in text else text
    messages: list[str] = []
    marks = sorted({m.group(2) for m in _HIGH_MARK.finditer(prose) if not _spaced(prose, m)})
    if marks:
        messages.append(Msg(N_("write a narrow no-break space (U+202F) before {marks} (French "
                               "typography; not a plain or a wide no-break space)"),
                            marks=" ".join(marks)))  # fmt: skip
    inside = [m.group(1) for m in _OPEN.finditer(prose)] + [
        m.group(1) for m in _CLOSE.finditer(prose)
    ]
    if any(c != NARROW for c in inside):
        messages.append(Msg(N_("write a narrow no-break space (U+202F) inside « »")))
    if '"' in prose or "'" in prose:
        messages.append(Msg(N_("straight quotes: write ’ for an apostrophe and « » for a "
                               "quotation")))  # fmt: skip
    if not _DIGIT.search(prose):
        return messages  # the number rules below need a digit
    if found := _DECIMAL_POINT.search(prose):
        comma = found.group(0).replace(".", ",")
        messages.append(Msg(N_("'{found}': French writes a decimal comma, '{comma}'"),
                            found=found.group(0), comma=comma))  # fmt: skip
    if found := _UNIT_AFTER_SPACE.search(prose):
        messages.append(Msg(N_("'{found}': put a no-break space (U+202F) between the number and "
                               "its unit, so a line cannot break between them"),
                            found=found.group(0)))  # fmt: skip
    return messages


# Typography rules per language (warnings); a language without an entry has none checked.
RULES = {"fr": french}


def _spaced(prose: str, mark: re.Match[str]) -> bool:
    before, after = mark.group(1), prose[mark.end() : mark.end() + 1]
    if mark.group(2) == ":" and before.isdigit() and after.isdigit():
        return True  # 12:30, 1:1
    # Two marks in a row (?!, ...) take one space; the first carries it.
    return before == NARROW or before in ";:!?"
