"""Rules about one translated string against its English source: pure functions, no files.

Each returns the messages to report (empty when the string is fine), so the checks module only
decides where and how loudly to report them.

Start-up runs every check over every string (500 quizzes: ~25,000 pairs), and one string is
looked at by several checks, so its prose, code spans and words are computed once and memoized
(bounded caches: a string's analysis never changes). Strings without a backtick skip the span
splitting entirely.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from bot.content.problems import N_, Msg
from bot.content.schema import GlossaryTerm
from bot.core.markup import code_spans, split_code

# Identifiers that look like code when written without backticks: dotted names, calls.
_CODE_LIKE = re.compile(r"(?<![\w.`])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\b[A-Za-z_]\w*\(\)")
# Names that stay English in every language: acronyms (GPU, FSDP) and CamelCase (BatchNorm).
# Written as \b(?:[A-Z0-9]{2,}s?|[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+)\b, but starting with a character
# class so that the regex engine skips ahead to candidates instead of testing \b everywhere.
_NAME = re.compile(r"[A-Z0-9](?<!\w.)(?:[A-Z0-9]+s?|(?<=[A-Z])[a-z]+(?:[A-Z][a-z0-9]*)+)\b")
_WORD = re.compile(r"[^\W\d_]+")
# Big enough for a pair's strings to be reused across checks; bounded so a long-lived process
# that re-checks edited content does not grow without limit.
_CACHE_SIZE = 1 << 14
# Function words that occur in English prose but not in French or Wolof prose.
_ENGLISH_MARKERS = frozenset(
    {"the", "which", "what", "with", "when", "why", "how", "is", "are", "of", "this", "that"}
    | {"their", "they", "from", "into", "every", "only", "should", "does", "would", "than"}
    | {"and", "you", "your", "not", "each", "then", "after", "before", "without", "because"}
    | {"so", "it", "its", "be", "can", "will", "have", "has", "was", "were", "them"}
)


@lru_cache(maxsize=_CACHE_SIZE)
def prose(text: str) -> str:
    """The text outside code spans."""
    if "`" not in text:
        return text
    return " ".join(piece for is_code, piece in split_code(text) if not is_code)


@lru_cache(maxsize=_CACHE_SIZE)
def _spans(text: str) -> tuple[str, ...]:
    return tuple(code_spans(text))


def code_spans_of(text: str) -> tuple[str, ...]:
    """The code spans and fenced blocks of a string, in order (memoized)."""
    return _spans(text)


def unclosed_backtick(text: str) -> list[str]:
    count = text.count("`")
    if count and "```" in text:  # backticks inside a fenced block are code, not markup
        count = sum(piece.count("`") for is_code, piece in split_code(text) if not is_code)
    if count % 2:
        return [Msg(N_("odd number of backticks: close the `code` span"))]
    return []


def unmarked_code(text: str) -> list[str]:
    """Identifiers written as prose in an English string (they would be translated)."""
    if "." not in text and "()" not in text:  # every match has a dot or a call
        return []
    found = [m for m in _CODE_LIKE.findall(prose(text)) if not _is_abbreviation(m)]
    return [Msg(N_("'{name}' looks like code: write it in backticks, `{name}`"), name=name)
            for name in found]  # fmt: skip


def _is_abbreviation(token: str) -> bool:
    return all(len(part) <= 2 for part in token.rstrip("()").split("."))  # e.g., i.e.


def compare_code(source: str, translated: str) -> list[str]:
    """Messages for code spans that the translation lost, changed or added."""
    if "`" not in source and "`" not in translated:
        return []
    source_spans, translated_spans = _spans(source), _spans(translated)
    if source_spans == translated_spans:  # the usual case, and always so without backticks
        return []
    want, have = Counter(source_spans), Counter(translated_spans)
    missing = list((want - have).elements())
    extra = list((have - want).elements())
    messages: list[str] = []
    outside = prose(translated)
    for span in missing:
        if span in outside:
            messages.append(Msg(N_("`{span}` is written without backticks; keep it as code"),
                                span=span))  # fmt: skip
        elif extra:
            messages.append(Msg(N_("code `{span}` was changed to `{other}`; code is never "
                                   "translated"), span=span, other=extra.pop(0)))  # fmt: skip
        elif (stem := _stem(span)) and stem in outside:
            messages.append(Msg(N_("code `{span}` looks translated or altered (found '{stem}...' "
                                   "outside backticks); copy it exactly, in backticks"),
                                span=span, stem=stem))  # fmt: skip
        else:
            messages.append(Msg(N_("code `{span}` from the English is missing"), span=span))
    messages.extend(Msg(N_("code `{span}` is not in the English source"), span=span)
                    for span in extra)  # fmt: skip
    return messages


def _stem(span: str) -> str:
    """The part of an identifier a translator keeps when mangling the rest (`torch.utils.`)."""
    head = span.split("(")[0]
    return head[: head.rfind(".") + 1] if "." in head else ""


@lru_cache(maxsize=_CACHE_SIZE)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(_NAME.sub(" ", prose(text)).casefold()))


def identical_to_source(source: str, translated: str) -> bool:
    """Same words outside code and names: English left untranslated."""
    words = _words(translated)
    if not words:
        return False
    # Every word of the source is a piece of its casefolded text (casefolding maps character by
    # character), so a translated word missing from it settles the question without splitting
    # the source into words: the usual case, a real translation.
    folded = source.casefold()
    for word in words:
        if word not in folded:
            return False
    return words == _words(source)


def english_leftovers(translated: str) -> list[str]:
    """English function words in a non-English string: a sentence probably left in English.

    One is enough: none of them is a French or Wolof word, and the seed pages' leftovers were
    clauses such as ", so keeping them is optional" with a single one."""
    found = _ENGLISH_MARKERS.intersection(_words(translated))
    if found:
        return [Msg(N_("looks partly English ({words}): translate the whole string"),
                    words=", ".join(sorted(found)))]  # fmt: skip
    return []


def fold(text: str) -> str:
    """Casefolded without accents: "Dégradées" and "degradees" are the same word to a reader."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _word_stem(word: str) -> str:
    """A word without its French or English inflection (-e, -s, -es), so that one glossary entry
    "dégradé" catches "dégradée", "dégradés", "dégradées" and "degrade"."""
    if len(word) > 4:
        for ending in ("es", "s", "e"):
            if word.endswith(ending):
                return word[: -len(ending)]
    return word


_INFLECTION = "(?:e|s|es|ee|ees|er|ed|ing|é|ée|ées|és)?"


def _letters(word: str) -> str:
    """A stem as a pattern where an accented letter may also be written without its accent
    ("dégradé" matches "degrade"), but a plain letter never stands for an accented one (so
    "model" never matches the "modèle" a glossary prefers)."""
    out = []
    for char in word:
        bare = fold(char)
        out.append(f"[{re.escape(char)}{re.escape(bare)}]" if bare != char else re.escape(char))
    return "".join(out)


@lru_cache(maxsize=256)
def _avoid_pattern(avoid: str) -> re.Pattern[str]:
    words = [_word_stem(w) for w in avoid.casefold().split()]
    # each word by its stem and an inflection (dégradé -> dégradées, degrade, degraded)
    body = r"\s+".join(_letters(w) + _INFLECTION for w in words)
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])")


def glossary_hits(translated: str, terms: Sequence[GlossaryTerm]) -> list[str]:
    """Glossary words outside code, by stem, their accents optional."""
    messages: list[str] = []
    if not terms:
        return messages
    text = prose(translated).casefold()
    for term in terms:
        for avoid in term.avoid:
            if found := _avoid_pattern(avoid).search(text):
                note = f" ({term.note})" if term.note else ""  # the glossary's own words
                if found.group(0) == avoid.casefold():
                    message = Msg(N_("'{avoid}': write '{prefer}' instead{note}"), avoid=avoid,
                                  prefer=term.prefer, note=note)  # fmt: skip
                else:
                    message = Msg(N_("'{avoid}' (as '{found}'): write '{prefer}' instead{note}"),
                                  avoid=avoid, found=found.group(0), prefer=term.prefer,
                                  note=note)  # fmt: skip
                messages.append(message)
                break
    return messages
