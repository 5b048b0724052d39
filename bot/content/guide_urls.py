"""Where a guide link points: the URLs in guides.yaml, or a deployment's own site.

`QUIZBOT_GUIDE_BASE_URL` points every guide at `<base>/<guide-id>`. A base containing `{lang}`
has a page per language (`https://learn.example.org/{lang}/guides` gives `.../fr/guides/<id>`
to a French reader); without it every reader gets the same page, taken to be in English, and
the link says so to readers of other languages.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from bot.content.schema import placeholder_host
from bot.core.models import SOURCE_LANGUAGE, Text

ENV = "QUIZBOT_GUIDE_BASE_URL"


def check_base_url(base: str) -> str | None:
    """Why `base` cannot be used (None when it can)."""
    parts = urlsplit(base.replace("{lang}", "en"))
    if parts.scheme != "https" or not parts.hostname or " " in base:
        return f"{ENV} must be an https URL such as https://learn.example.org/guides"
    if placeholder_host(parts.hostname):
        return f"{ENV} points at a placeholder host ({parts.hostname})"
    return None


def guide_url(
    base: str | None, guide_id: str, url: str, urls: dict[str, str], languages: Iterable[str]
) -> Text:
    """The guide's URL per language: from guides.yaml, or under `base` when one is set."""
    if base is None:
        return Text({SOURCE_LANGUAGE: url, **urls})
    root = base.rstrip("/")
    if "{lang}" not in root:
        return Text({SOURCE_LANGUAGE: f"{root}/{guide_id}"})
    langs = dict.fromkeys([SOURCE_LANGUAGE, *languages])
    return Text({lang: f"{root.replace('{lang}', lang)}/{guide_id}" for lang in langs})
