"""Formatted text as the Bot API reports it: visible text plus entities in UTF-16 units.

Also the clean-ups Telegram applies to any message text: trimming white space at both ends and
normalizing link targets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_TRIM = " \t\r\n"


@dataclass(frozen=True)
class FormattedText:
    """What a chat shows: the visible text and its entities (Bot API dicts)."""

    text: str
    entities: tuple[dict[str, Any], ...] = field(default=())


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def tail(out: list[str], u16_length: int) -> str:
    """The last `u16_length` UTF-16 units of the output (the text inside an `<a>` without href)."""
    text = "".join(out).encode("utf-16-le", "surrogatepass")
    return text[len(text) - 2 * u16_length :].decode("utf-16-le", "surrogatepass")


def normalize_url(url: str) -> str | None:
    """A loose version of tdlib's URL check: drops what is clearly not a link."""
    url = url.strip()
    if not url or any(c in url for c in " \n\t"):
        return None
    if url.startswith(("tg:", "mailto:")):
        return url
    if "://" not in url:
        if "." not in url:
            return None
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    if not rest or scheme.lower() not in ("http", "https", "ftp", "tonsite"):
        return None
    return url if "/" in rest or "?" in rest or "#" in rest else url + "/"


def trim(formatted: FormattedText) -> FormattedText:
    """Telegram strips leading and trailing white space and clips entities to what remains."""
    text = formatted.text
    stripped = text.strip(_TRIM)
    if stripped == text:
        return formatted
    lead = utf16_len(text[: len(text) - len(text.lstrip(_TRIM))])
    size = utf16_len(stripped)
    entities = []
    for entity in formatted.entities:
        start = max(entity["offset"] - lead, 0)
        end = min(entity["offset"] + entity["length"] - lead, size)
        if end > start:
            entities.append({**entity, "offset": start, "length": end - start})
    return FormattedText(stripped, tuple(entities))
