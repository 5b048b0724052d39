"""Which language a reply is in, the gettext catalogues, and Babel formatting.

Catalogues are read from the `.po` files at start-up (compiled in memory), so a checkout runs
without a `pybabel compile` step and a missing or broken catalogue stops the bot at start-up
instead of silently falling back to English.
"""

from __future__ import annotations

import io
import os
import re
from datetime import date, datetime, time, tzinfo
from functools import cache
from gettext import GNUTranslations
from pathlib import Path

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent, get_decimal_symbol

SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "fr", "wo")
# Languages whose UI catalogue no native speaker has reviewed yet: the welcome says so
# (content/README.md lists what awaits review).
UNREVIEWED_UI: frozenset[str] = frozenset({"wo"})
DOMAIN = "messages"
# How a language writes the first day of a month where it differs from the other days. CLDR has
# no ordinal day field: Babel 2.19 formats 1 December 2026 as "1 déc. 2026" in French, where French
# typography writes "1er déc. 2026" ("le 1er décembre"). English and Wolof write "1" (checked
# against CLDR's patterns "MMM d, y" and "d MMM, y").
FIRST_OF_MONTH: dict[str, str] = {"fr": "1er"}
NUMBERS_KEPT = 10_000  # whole numbers below this (in size) are formatted once per language
_DAY_FIELD = re.compile(r"(?<![A-Za-z'])d(?![A-Za-z])")


class CatalogueError(RuntimeError):
    """A locale's catalogue is missing or unreadable."""


def locales_dir() -> Path:
    env = os.environ.get("QUIZBOT_LOCALES_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "locales"


def normalize(code: str | None) -> str | None:
    """'fr-FR' -> 'fr' when supported, else None."""
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in SUPPORTED_LANGUAGES else None


def choose_language(
    *, stored: str | None, telegram_code: str | None = None, default: str = "en"
) -> str:
    """The one rule for a reply's language: a stored choice, else Telegram's, else the default.

    Who is being spoken to decides what is passed:

    - a private chat: `stored` = the learner's choice, `telegram_code` = their Telegram
      `language_code`;
    - a message posted in a group (intro, question, reveal, leaderboard, refusal): `stored` = the
      language an admin set for the group, and no `telegram_code` (a group has none; the member
      who typed the command does not decide for everyone);
    - feedback only one member sees in a group (a callback popup): that member, as in a private
      chat, whatever the group's language.

    Unsupported or empty codes are skipped ('fr-CA' counts as 'fr'); the result is always one of
    SUPPORTED_LANGUAGES as long as `default` is.
    """
    return normalize(stored) or normalize(telegram_code) or default


def N_(message: str) -> str:
    """Mark a string for extraction where it is defined; translate it where it is shown."""
    return message


Moment = datetime  # the class's own `datetime` method hides the type inside it


class Translator:
    """UI strings and number/date formatting for one language."""

    def __init__(self, lang: str, translations: GNUTranslations | None) -> None:
        self.lang = lang
        self.locale = Locale.parse(lang)
        self._t = translations
        # Whole numbers already formatted: counters ("Question 3/12") are formatted on every
        # tap, and Babel's format_decimal costs ~50 µs a call (issue 32). Same text as Babel's.
        self._ints: dict[int, str] = {}

    def _(self, message: str, /, **values: object) -> str:
        text = self._t.gettext(message) if self._t else message
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        fallback = singular if n == 1 else plural
        text = self._t.ngettext(singular, plural, n) if self._t else fallback
        return text.format(n=self.number(n), **values)

    def number(self, value: float) -> str:
        if type(value) is not int or not -NUMBERS_KEPT < value < NUMBERS_KEPT:
            return format_decimal(value, locale=self.locale)
        text = self._ints.get(value)
        if text is None:
            text = self._ints[value] = format_decimal(value, locale=self.locale)
        return text

    def decimal(self, value: float) -> str:
        """A typed answer or a key as this language writes it, every significant decimal kept
        (format_decimal alone rounds to 3: 0.0005 would read 0): "0,5" in French."""
        return format_decimal(value, format="#,##0.##########", locale=self.locale)

    @property
    def decimal_separator(self) -> str:
        """The decimal mark a learner of this language types ("," in French and Wolof)."""
        return get_decimal_symbol(self.locale)

    def percent(self, ratio: float) -> str:
        return format_percent(ratio, locale=self.locale)

    def datetime(self, moment: datetime, tz: tzinfo, fmt: str = "medium") -> str:
        return format_datetime(moment, format=fmt, tzinfo=tz, locale=self.locale)

    def clock_time(self, hour: int, minute: int) -> str:
        """A time of day as this language writes it ("6:30 PM"; "18:30")."""
        return format_time(time(hour, minute), format="short", locale=self.locale)

    def day(self, day: date, fmt: str = "medium") -> str:
        """A calendar day as this language writes it, "1er déc. 2026" included."""
        return self._format_day(day, self.locale.date_formats[fmt].pattern)

    def short_day(self, day: date) -> str:
        """A day with its weekday, no year ("Tue, Dec 1"; "mar. 1er déc.")."""
        pattern = self.locale.datetime_skeletons["MMMEd"].pattern
        return self._format_day(day, pattern)

    def month_day(self, day: date) -> str:
        """A day without weekday or year, for a chart's axis ("Dec 1"; "1er déc.")."""
        return self._format_day(day, self.locale.datetime_skeletons["MMMd"].pattern)

    def moment(self, at: Moment) -> str:
        """A coming moment as the chat writes it: its day, then the time to the minute
        ("Wed, Dec 2 at 6:30 PM"; "mer. 2 déc. à 18:30"), in `at`'s own zone."""
        day, time = self.short_day(at.date()), self.clock_time(at.hour, at.minute)
        # TRANSLATORS: a date and a time of day, e.g. "Wed, Dec 2 at 6:30 PM".
        return self._("{day} at {time}", day=day, time=time)

    def _format_day(self, day: date, pattern: str) -> str:
        first = FIRST_OF_MONTH.get(self.lang)
        if first and day.day == 1:
            pattern = _DAY_FIELD.sub(f"'{first}'", pattern, count=1)
        return format_date(day, format=pattern, locale=self.locale)

    def seconds(self, value: float) -> str:
        """A number of seconds with the unit as this language abbreviates it ("10 s")."""
        return self._("{seconds} s", seconds=self.number(value))

    def language_name(self, code: str) -> str:
        """A language's name in the language itself, as CLDR spells it (capitalized): the
        language picker, where the learner may not read the current language."""
        name = Locale.parse(code).get_display_name(code) or code
        return name[:1].upper() + name[1:]

    def language_label(self, code: str) -> str:
        """A language's name in this translator's language ("anglais" for a French reader),
        from CLDR; the code itself for a language CLDR does not name."""
        name = self.locale.languages.get(code)
        return name if isinstance(name, str) else code


def _load_po(path: Path) -> GNUTranslations:
    try:
        with path.open("rb") as fh:
            catalog = read_po(fh)
    except OSError as exc:
        raise CatalogueError(f"cannot read {path}: {exc}") from exc
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return GNUTranslations(buffer)


class _Translators:
    """`translator(lang)`: the translator for a supported language, loaded once (English needs no
    catalogue); any other code gets English's. Only supported codes reach the cache: a code is
    often the requester's to choose (a dashboard link's `lang`), and a cache keyed by the raw
    code parsed a catalogue on the event loop for each new value, and kept it for good."""

    def __call__(self, lang: str) -> Translator:
        return _loaded(lang if lang in SUPPORTED_LANGUAGES else SUPPORTED_LANGUAGES[0])

    def cache_clear(self) -> None:
        """Read the catalogues again on next use (tests pointing QUIZBOT_LOCALES_DIR elsewhere)."""
        _loaded.cache_clear()


translator = _Translators()


@cache
def _loaded(lang: str) -> Translator:
    if lang == "en":
        path = locales_dir() / "en" / "LC_MESSAGES" / f"{DOMAIN}.po"
        return Translator(lang, _load_po(path) if path.exists() else None)
    path = locales_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        raise CatalogueError(f"missing catalogue for {lang!r}: {path}")
    return Translator(lang, _load_po(path))


def load_all() -> dict[str, Translator]:
    """Load every catalogue now, so a broken one fails start-up rather than a reply."""
    return {lang: translator(lang) for lang in SUPPORTED_LANGUAGES}
