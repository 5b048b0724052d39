"""The words `/schedule` understands and the words it writes back, in every supported language.

An admin may type English (always) or any supported language's keywords and day names, with or
without diacritics: `lun,mer`, `altine,àjjuma`, `quotidien`. Day names come from CLDR through
Babel (full and abbreviated), plus the spellings Senegalese Wolof writers commonly use where CLDR
has another one (CLDR writes Saturday "Aseer"; many write "Gaawu"). Keywords (`daily`, `next`...)
are msgids, so each catalogue gives its own single word.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from babel import Locale
from babel.lists import format_list

from bot.core.bidi import isolate_if_needed
from bot.core.models import Catalog, Quiz
from bot.core.schedule import ENGLISH_DAYS, ENGLISH_SPECIALS, NAMED_SETS, fold
from bot.i18n import N_, SUPPORTED_LANGUAGES, Translator, translator

# What admins type: one word each, no spaces (translators keep them to one word).
DAY_KEYWORDS = {
    "daily": N_("daily"),
    "weekdays": N_("weekdays"),
    "weekends": N_("weekends"),
}
QUIZ_KEYWORDS = {"next": N_("next"), "random": N_("random")}
# Keywords a catalogue gave before a better word replaced it: groups typed them, and schedules
# typed that way must keep working (French "semaine" and Wolof "ayu-bés" read as "week", French
# "weekend" is "week-end").
EARLIER_KEYWORDS: dict[str, dict[str, str]] = {
    "fr": {"semaine": "weekdays", "weekend": "weekends"},
    "wo": {"ayu-bés": "weekdays"},
}
# Spellings in common use that CLDR does not list (ISO weekday, 0 = Monday).
EXTRA_DAY_NAMES: dict[str, tuple[str, ...]] = {
    "wo": ("altine", "talaata", "àllarba", "alxames", "àjjuma", "gaawu", "dibéer"),
}


def _cldr_days(lang: str) -> dict[str, tuple[int, ...]]:
    days = Locale.parse(lang).days["format"]
    words: dict[str, tuple[int, ...]] = {}
    for width in ("wide", "abbreviated"):
        for day in range(7):
            words[fold(days[width][day])] = (day,)
    for day, name in enumerate(EXTRA_DAY_NAMES.get(lang, ())):
        words[fold(name)] = (day,)
    return words


def day_words() -> dict[str, tuple[int, ...]]:
    """Folded word -> ISO weekdays, for English and every supported language."""
    words = dict(ENGLISH_DAYS)
    for lang in SUPPORTED_LANGUAGES:
        words.update(_cldr_days(lang))
        tr = translator(lang)
        for key, msgid in DAY_KEYWORDS.items():
            words.setdefault(fold(tr._(msgid)), NAMED_SETS[key])
        for word, key in EARLIER_KEYWORDS.get(lang, {}).items():
            words.setdefault(fold(word), NAMED_SETS[key])
    return words


def quiz_words() -> dict[str, str]:
    """Folded word -> "next" or "random", for English and every supported language."""
    words = dict(ENGLISH_SPECIALS)
    for lang in SUPPORTED_LANGUAGES:
        tr = translator(lang)
        for key, msgid in QUIZ_KEYWORDS.items():
            words.setdefault(fold(tr._(msgid)), key)
    return words


def days_text(tr: Translator, days: Sequence[int]) -> str:
    """Days as a reader of `tr`'s language says them: "every day", "lundi et mercredi"."""
    chosen = tuple(sorted(set(days)))
    if chosen == NAMED_SETS["daily"]:
        return tr._("every day")
    if chosen == NAMED_SETS["weekdays"]:
        return tr._("Monday to Friday")
    if chosen == NAMED_SETS["weekends"]:
        return tr._("Saturday and Sunday")
    names = tr.locale.days["format"]["wide"]
    return format_list([names[day] for day in chosen], locale=tr.locale)


def quiz_text(
    tr: Translator, catalog: Catalog, quiz: str, lang: str, own: Mapping[str, Quiz] | None = None
) -> str:
    """What a schedule plays: the quiz's title (a group's own quiz, under the id its admins
    typed, in `own`), or what "next" and "random" mean."""
    if quiz == "next":
        return tr._("the next quiz in order")
    if quiz == "random":
        return tr._("a random quiz")
    found = (own or {}).get(quiz) or catalog.quiz(quiz)
    # An uploaded quiz's title is its uploader's text: isolated if it could reorder the line.
    return isolate_if_needed(found.title.get(lang)) if found else quiz


def typed_keywords(tr: Translator) -> dict[str, str]:
    """The keywords in `tr`'s language, for the usage text."""
    return {key: tr._(msgid) for key, msgid in {**DAY_KEYWORDS, **QUIZ_KEYWORDS}.items()}


def typed_schedule(tr: Translator, quiz: str, days: Sequence[int], at_time: str) -> str:
    """The arguments of /schedule that make this schedule, in `tr`'s language: "next weekdays
    08:30", "suivant lun,mer 18:15" (read back by `day_words` and `quiz_words`)."""
    quiz_word = tr._(QUIZ_KEYWORDS[quiz]) if quiz in QUIZ_KEYWORDS else quiz
    chosen = tuple(sorted(set(days)))
    named = [key for key, value in NAMED_SETS.items() if value == chosen]
    days_word = tr._(DAY_KEYWORDS[named[0]]) if named else typed_days(tr, chosen)
    return f"{quiz_word} {days_word} {at_time}"


def typed_days(tr: Translator, days: Sequence[int]) -> str:
    """Days as /schedule reads them typed in `tr`'s language: "mon,wed", "lun,mer"."""
    names = tr.locale.days["format"]["abbreviated"]
    return ",".join(names[day].rstrip(".").lower() for day in days)
