"""A pseudo-locale: every msgstr of every catalogue wrapped in ⟦…⟧, placeholders kept.

Run the real bot with these catalogues and every string that went through gettext shows up
marked; any other visible word came from somewhere else: a msgid pybabel never saw (inside an
f-string), a string typed into the code, or a library's English.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import fields, is_dataclass
from pathlib import Path

from babel import Locale

from bot.core.markup import plain
from bot.core.models import Catalog, Text
from bot.i18n import DOMAIN, SUPPORTED_LANGUAGES
from bot.i18n_tools import TEMPLATE, catalogue_path, read_catalogue, write_catalogue

OPEN, CLOSE = "⟦", "⟧"
_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_TRUNCATED = re.compile(r"([^\n·•⟦⟧]+)…")
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"[^\W\d_]{2,}")


def mark(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


def write_pseudo_locales(root: Path) -> Path:
    """Catalogues for every supported language (each keeps its plural rule), all marked."""
    template = read_catalogue(TEMPLATE)
    for lang in SUPPORTED_LANGUAGES:
        catalog = read_catalogue(catalogue_path(lang))
        for message in catalog:
            if not message.id:
                continue
            if isinstance(message.id, str):
                message.string = mark(message.id)
            else:
                singular, plural = message.id[0], message.id[1]
                forms = len(message.string) if isinstance(message.string, tuple) else 2
                message.string = tuple(mark(singular if i == 0 else plural) for i in range(forms))
            message.flags.discard("fuzzy")
        assert {m.id for m in catalog if m.id} == {m.id for m in template if m.id}
        out = root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_catalogue(out, catalog)
    return root


def _texts(value: object) -> Iterator[Text]:
    if isinstance(value, Text):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from _texts(getattr(value, f.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def content_strings(catalog: Catalog) -> list[str]:
    """Every content string in every language, as a chat shows it, longest first."""
    found: set[str] = set()
    for text in _texts([dict(catalog.guides), dict(catalog.quizzes)]):
        for value in text.values.values():
            found |= {value, plain(value), html.escape(plain(value), quote=False)}
    found |= {quiz.id for quiz in catalog}  # ids are content too: /quiz shows them for /push
    return sorted((s for s in found if s.strip()), key=len, reverse=True)


def language_names() -> set[str]:
    """What Babel calls each supported language, in each supported language."""
    names = set()
    for reader in SUPPORTED_LANGUAGES:
        for code in SUPPORTED_LANGUAGES:
            name = Locale.parse(reader).languages.get(code) or ""
            own = Locale.parse(code).get_display_name(code) or ""
            names |= {name, name.capitalize(), own, own.capitalize()}
    return {n for n in names if n}


def unmarked_words(text: str, content: Iterable[str], allowed: set[str]) -> list[str]:
    """Words a user saw that no catalogue marked and that are no content, name or language."""
    text = html.unescape(_TAG.sub("", text))
    previous = None
    while previous != text:  # innermost first: a translated value inside a translated string
        previous = text
        text = _MARKED.sub(" ", text)
    contents = list(content)

    def cut(match: re.Match[str]) -> str:  # content shortened to fit ("What does…")
        head = match.group(1).strip(" .:0123456789")
        return " " if head and any(head in c for c in contents) else match.group(0)

    text = _TRUNCATED.sub(cut, text)
    # A popup keeps the explanation's first sentences: a long line taken from content is content.
    lines = text.split("\n")
    text = "\n".join(
        " " if len(line.strip()) >= 20 and any(line.strip() in c for c in contents) else line
        for line in lines
    )
    for piece in contents:  # longest first, so a title inside a prompt goes with the prompt
        if piece in text and _WORD.search(piece):
            text = text.replace(piece, " ")
    return [word for word in _WORD.findall(text) if word not in allowed]
