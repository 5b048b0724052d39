"""A translated string held to its English source: what must not move, and what is no text at all.

A translation cannot change the answer key (it has no `answer`), but it can change the question
or the meaning of an option: a number changed in a prompt, "32" and "12" swapped between two
options, a name dropped, True and False swapped. A program cannot read meaning, but these it can
count: every string must carry the same numbers, names and code as its source (code spans are
compared in `text_checks.compare_code`). Errors, because the question or its answer could
change. Pure functions over strings; `translations` decides where to report.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol

from bot.content import text_checks
from bot.content.problems import N_, Msg

# Names that stay as written in every language: acronyms (GPU, FSDP, SGD), CamelCase (BatchNorm,
# GradScaler, PyTorch, AdamW, ZeRO) and words with digits (bf16, fp32). An acronym's plural "s"
# is dropped (French writes "les GPU").
_NAME = re.compile(
    r"(?<![\w.])(?:[A-Z][A-Z0-9]+(?=s?\b)|[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+|"
    r"[a-z]+[0-9]+[a-z0-9]*)"
)
# Units a language writes with its own letters: these acronyms are translated, not names.
TRANSLATED_NAMES: dict[str, dict[str, str]] = {
    "fr": {"GB": "Go", "MB": "Mo", "KB": "Ko", "TB": "To", "GiB": "Gio", "MiB": "Mio", "AI": "IA"},
}
# Texts that stand in for a translation nobody wrote yet.
_PLACEHOLDER = re.compile(
    r"^\W*(?:todo|tbd|fixme|xxx+|n/a|translate( me)?|to translate|à traduire|a traduire"
    r"|traduire|lorem ipsum.*)\W*$|^[\s.…_?-]+$|\b(?:TODO|FIXME|TBD|XXX)\b|\[(?:[^\]]*tradu|"
    r"[^\]]*translat)[^\]]*\]",
    re.IGNORECASE,
)
_MARKS = re.compile("todo|tbd|fixme|xxx|tradu|translat|lorem|n/a", re.IGNORECASE)
# The labels of a true_false question's two options, per language, in their order.
TRUE_FALSE_LABELS: dict[str, tuple[str, str]] = {
    "en": ("True", "False"),
    "fr": ("Vrai", "Faux"),
    "wo": ("Dëgg", "Du dëgg"),
}


@lru_cache(maxsize=32)
def _number_pattern(lang: str) -> re.Pattern[str]:
    """Digits with the language's decimal mark ("0,5" in French, "0.5" in English); thousands
    written with the language's group mark ("1,000", "1 000") are one number."""
    try:
        mark = get_decimal_symbol(Locale.parse(lang))
    except (UnknownLocaleError, ValueError):
        mark = "."
    group = "," if mark == "." else "[\u202f\u00a0 ]"
    return re.compile(
        rf"(?P<grouped>\d{{1,3}}(?:{group}\d{{3}})+)(?![\d{re.escape(mark)}])"
        rf"|(?P<whole>\d+)(?:{re.escape(mark)}(?P<part>\d+))?"
    )


# Start-up checks every string (500 quizzes: ~25,000 pairs): a string's numbers and names are
# computed once per language (bounded caches), as sorted tuples that compare fast.
_CACHE = 1 << 14
_DIGIT = re.compile(r"\d")
_DIGITS = re.compile(r"\d+")
_NAME_START = re.compile(r"[A-Z]|[a-z][0-9]")


@lru_cache(maxsize=_CACHE)
def _numbers(text: str, lang: str) -> tuple[str, ...]:
    if not _DIGIT.search(text):
        return ()
    found = []
    for match in _number_pattern(lang).finditer(text_checks.prose(text)):
        if match["grouped"]:
            found.append(str(int(re.sub(r"\D", "", match["grouped"]))))
        else:
            whole = str(int(match["whole"]))
            found.append(f"{whole}.{match['part']}" if match["part"] else whole)
    return tuple(sorted(found))


def numbers(text: str, lang: str) -> Counter[str]:
    """The numbers of a string's prose, each written the English way (0.5, 1000)."""
    return Counter(_numbers(text, lang))


@lru_cache(maxsize=32)
def _own_names(lang: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    own = TRANSLATED_NAMES.get(lang)
    if not own:
        return None
    words = "|".join(re.escape(mine) for mine in own.values())
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)"), {m: e for e, m in own.items()}


@lru_cache(maxsize=_CACHE)
def _names(text: str, lang: str) -> tuple[str, ...]:
    if not _NAME_START.search(text):
        return ()
    text = text_checks.prose(text)
    found = _NAME.findall(text)
    if (own := _own_names(lang)) is not None:
        pattern, english = own
        found += [english[m] for m in pattern.findall(text)]
    return tuple(sorted(found))


def names(text: str, lang: str) -> Counter[str]:
    """The names of a string's prose, each as the English writes it (a French "Go" counts as
    "GB")."""
    return Counter(_names(text, lang))


_DIFFER = {  # (what, English has more, this has more) -> message
    ("numbers", True, False): N_(
        "numbers differ from the English: the English has {missing} (keep every number)"
    ),
    ("numbers", False, True): N_(
        "numbers differ from the English: this has {extra} that the English does not "
        "(keep every number)"
    ),
    ("numbers", True, True): N_(
        "numbers differ from the English: the English has {missing}; this has {extra} that "
        "the English does not (keep every number)"
    ),
    ("names", True, False): N_(
        "names differ from the English: the English has {missing} (keep every name)"
    ),
    ("names", False, True): N_(
        "names differ from the English: this has {extra} that the English does not "
        "(keep every name)"
    ),
    ("names", True, True): N_(
        "names differ from the English: the English has {missing}; this has {extra} that "
        "the English does not (keep every name)"
    ),
}


def _differences(what: str, want: tuple[str, ...], have: tuple[str, ...]) -> list[str]:
    if want == have:
        return []
    missing, extra = Counter(want) - Counter(have), Counter(have) - Counter(want)
    if not missing and not extra:
        return []
    message = _DIFFER[(what, bool(missing), bool(extra))]
    return [Msg(message, missing=_listed(missing), extra=_listed(extra))]


def _listed(counts: Counter[str]) -> str:
    return ", ".join(f"'{k}'" + (f" ×{n}" if n > 1 else "") for k, n in sorted(counts.items()))


@lru_cache(maxsize=_CACHE)
def _digit_runs(text: str) -> tuple[str, ...]:
    return tuple(sorted(_DIGITS.findall(text_checks.prose(text))))


def drift(source: str, translated: str, lang: str) -> list[str]:
    """What the translation changed that it must keep: numbers and names."""
    messages = []
    # The same runs of digits: the same numbers, whatever the marks between them (the usual
    # case, settled without reading decimals; a French "0.5" is typography's to report).
    if _digit_runs(source) != _digit_runs(translated):
        messages += _differences("numbers", _numbers(source, "en"), _numbers(translated, lang))
    messages += _differences("names", _names(source, "en"), _names(translated, lang))
    return messages


def placeholder(text: str) -> list[str]:
    """A stand-in for a translation ("TODO", "...", "[à traduire]", "xxx")."""
    if len(text) > 3 and text.strip(" .…_?-") and not _MARKS.search(text):
        return []  # the usual case: a real text, no marker word (a quick test before the regex)
    prose = text_checks.prose(text)
    if (prose.strip() or "`" not in text) and _PLACEHOLDER.search(prose):
        return [Msg(N_("'{text}' is a placeholder, not a text: write the real text"),
                    text=_short(text))]  # fmt: skip
    return []


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def true_false_label(lang: str, option_id: str, text: str) -> list[str]:
    """A true_false option's label must be the language's own word for it, in order."""
    labels = TRUE_FALSE_LABELS.get(lang)
    if labels is None or option_id not in ("true", "false"):
        return []
    want = labels[0] if option_id == "true" else labels[1]
    if text.strip() == want:
        return []
    other = labels[1] if option_id == "true" else labels[0]
    if text.strip() == other:
        message = N_("the {option} option is labelled '{text}': write '{want}' (the labels look "
                     "swapped)")  # fmt: skip
    else:
        message = N_("the {option} option is labelled '{text}': write '{want}'")
    return [Msg(message, option=option_id, text=_short(text), want=want)]


def keep_list(source: str) -> str:
    """What a translation of `source` must carry unchanged, for a translator to read: its
    numbers, names and code spans ("32, 12, BatchNorm, `loss / N`"; empty when none)."""
    kept = [*_numbers(source, "en"), *_names(source, "en")]
    kept += [f"`{span}`" for span in text_checks.code_spans_of(source)]
    return ", ".join(dict.fromkeys(kept))
