"""A screen's HTML within Telegram's message limit, measured as Telegram measures it.

Telegram counts a message's 4,096 characters after parsing the HTML: tags count nothing, an
entity such as `&lt;` one character. Content heavy in `<` and `&` (code) is much longer as HTML
than as text, so a cut of the HTML source at 4,096 both drops text that fits and can land inside
an entity or leave a tag open, which Telegram refuses ("can't parse entities"). `fit_html` keeps
a text that fits as it is, and otherwise cuts it at a visible character, never inside a tag or an
entity, and closes the tags left open.
"""

from __future__ import annotations

import re

from bot.core.limits import MESSAGE_MAX_CHARS
from bot.tg.wire.captions import visible_chars

# A tag, an entity, or one character of text: the units a cut may fall between.
_TOKEN = re.compile(r"<[^>]*>|&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z]+);|[^<&]|&", re.DOTALL)
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")
ELLIPSIS = "…"


def fit_html(text: str, limit: int = MESSAGE_MAX_CHARS) -> str:
    """`text` (HTML as quizbot renders it) if Telegram would take it, else its start up to
    `limit` visible characters with an ellipsis, its open tags closed."""
    if len(text) <= limit or visible_chars(text) <= limit:  # the source never counts less
        return text
    kept: list[str] = []
    open_tags: list[str] = []
    shown = 0
    for token in _TOKEN.findall(text):
        if token.startswith("<") and len(token) > 1:
            name = _TAG_NAME.match(token)
            if name is None:
                continue
            if token.startswith("</"):
                if open_tags:
                    open_tags.pop()
            elif not token.endswith("/>"):
                open_tags.append(name.group(1).lower())
            kept.append(token)
            continue
        if shown >= limit - len(ELLIPSIS):
            break
        kept.append(token)
        shown += 1
    while kept and kept[-1].isspace():
        kept.pop()
    closing = "".join(f"</{name}>" for name in reversed(open_tags))
    return "".join(kept) + ELLIPSIS + closing
