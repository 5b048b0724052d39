"""Rules about one translated string against its English source: pure functions, no files.

Each returns the messages to report (empty when the string is fine), so the checks module only
decides where and how loudly to report them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from bot.content.schema import GlossaryTerm
from bot.core.markup import code_spans, split_code

# Identifiers that look like code when written without backticks: dotted names, calls.
_CODE_LIKE = re.compile(r"(?<![\w.`])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\b[A-Za-z_]\w*\(\)")
# Names that stay English in every language: acronyms (GPU, FSDP) and CamelCase (BatchNorm).
_NAME = re.compile(r"\b(?:[A-Z0-9]{2,}s?|[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)\b")
_WORD = re.compile(r"[^\W\d_]+")
# Function words that occur in English prose but not in French or Wolof prose.
_ENGLISH_MARKERS = frozenset(
    {"the", "which", "what", "with", "when", "why", "how", "is", "are", "of", "this", "that"}
    | {"their", "they", "from", "into", "every", "only", "should", "does", "would", "than"}
)


def prose(text: str) -> str:
    """The text outside code spans."""
    return " ".join(piece for is_code, piece in split_code(text) if not is_code)


def unclosed_backtick(text: str) -> list[str]:
    if text.count("`") % 2:
        return ["odd number of backticks: close the `code` span"]
    return []


def unmarked_code(text: str) -> list[str]:
    """Identifiers written as prose in an English string (they would be translated)."""
    found = [m for m in _CODE_LIKE.findall(prose(text)) if not _is_abbreviation(m)]
    return [f"'{name}' looks like code: write it in backticks, `{name}`" for name in found]


def _is_abbreviation(token: str) -> bool:
    return all(len(part) <= 2 for part in token.rstrip("()").split("."))  # e.g., i.e.


def compare_code(source: str, translated: str) -> list[str]:
    """Messages for code spans that the translation lost, changed or added."""
    want, have = Counter(code_spans(source)), Counter(code_spans(translated))
    missing = list((want - have).elements())
    extra = list((have - want).elements())
    messages: list[str] = []
    outside = prose(translated)
    for span in missing:
        if span in outside:
            messages.append(f"`{span}` is written without backticks; keep it as code")
        elif extra:
            messages.append(
                f"code `{span}` was changed to `{extra.pop(0)}`; code is never translated"
            )
        elif (stem := _stem(span)) and stem in outside:
            messages.append(
                f"code `{span}` looks translated or altered (found '{stem}...' outside "
                "backticks); copy it exactly, in backticks"
            )
        else:
            messages.append(f"code `{span}` from the English is missing")
    messages.extend(f"code `{span}` is not in the English source" for span in extra)
    return messages


def _stem(span: str) -> str:
    """The part of an identifier a translator keeps when mangling the rest (`torch.utils.`)."""
    head = span.split("(")[0]
    return head[: head.rfind(".") + 1] if "." in head else ""


def _words(text: str) -> list[str]:
    return _WORD.findall(_NAME.sub(" ", prose(text)).casefold())


def identical_to_source(source: str, translated: str) -> bool:
    """Same words outside code and names: English left untranslated."""
    words = _words(translated)
    return bool(words) and words == _words(source)


def english_leftovers(translated: str) -> list[str]:
    """English function words in a non-English string: a sentence probably left in English."""
    found = sorted({w for w in _words(translated) if w in _ENGLISH_MARKERS})
    if len(found) >= 2:
        return [f"looks partly English ({', '.join(found)}): translate the whole string"]
    return []


def glossary_hits(translated: str, terms: Sequence[GlossaryTerm]) -> list[str]:
    messages: list[str] = []
    text = prose(translated)
    for term in terms:
        for avoid in term.avoid:
            if re.search(rf"(?<!\w){re.escape(avoid)}(?!\w)", text, re.IGNORECASE):
                note = f" ({term.note})" if term.note else ""
                messages.append(f"'{avoid}': write '{term.prefer}' instead{note}")
    return messages
