"""The translation workflow in one place: extract, update, check (`python -m bot.i18n_tools ...`).

The commands are exactly the `pybabel` ones the docs give, run from the repository root, so the
docs, the tests and a person at a terminal all do the same thing:

    extract  pybabel extract -F babel.cfg -k _ -k ngettext:1,2 --no-location --sort-output
                 --add-comments=TRANSLATORS: -o locales/messages.pot .
    update   pybabel update -i locales/messages.pot -d locales --no-fuzzy-matching
                 --ignore-obsolete
             then fills the English catalogue with msgstr = msgid (English is the source)
    check    the template is fresh and every catalogue is complete and faithful (exit 1 if not):
             placeholders and tags kept, no word content/glossary.yaml forbids (matched by stem,
             as the content checker does), no English left in a translated string

The template keeps its header (it carries the charset and project name that `update` copies),
but its `POT-Creation-Date` changes on every run: `extract` leaves the committed file untouched
when nothing but that date changed, and the freshness check ignores that line.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import yaml
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from bot.content import text_checks
from bot.content.schema import GlossaryFile, GlossaryTerm
from bot.i18n import DOMAIN, SUPPORTED_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
GLOSSARY = ROOT / "content" / "glossary.yaml"
SOURCE_LANGUAGE = "en"

EXTRACT_ARGS: tuple[str, ...] = (
    "extract",
    "-F",
    "babel.cfg",
    "-k",
    "_",
    "-k",
    "ngettext:1,2",
    "--no-location",
    "--sort-output",
    "--add-comments=TRANSLATORS:",
)
UPDATE_ARGS: tuple[str, ...] = (
    "update",
    "-i",
    "locales/messages.pot",
    "-d",
    "locales",
    "--no-fuzzy-matching",
    "--ignore-obsolete",
)
_DATE_LINE = re.compile(r'^"POT-Creation-Date: .*\\n"$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{[a-zA-Z_][a-zA-Z0-9_]*\}")
# Telegram's HTML tags only: `<quiz|next|random>` or `<n>` in a usage line is text, not a tag.
TAG = re.compile(
    r"</?(?:b|strong|i|em|u|ins|s|strike|del|a|code|pre|span|tg-spoiler|tg-emoji|blockquote)"
    r"(?:\s[^>]*)?>"
)


def pybabel(*args: str) -> None:
    """Run Babel's command line from the repository root (paths in babel.cfg are relative)."""
    cmd = [sys.executable, "-m", "babel.messages.frontend", *args]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)


def without_date(text: str) -> str:
    return _DATE_LINE.sub("", text)


def extracted_template() -> str:
    """What extraction produces from the code now."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{DOMAIN}.pot"
        pybabel(*EXTRACT_ARGS, "-o", str(out), ".")
        return out.read_text(encoding="utf-8")


def extract() -> bool:
    """Rewrite locales/messages.pot; returns whether anything but the date changed."""
    fresh = extracted_template()
    old = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.exists() else ""
    if without_date(fresh) == without_date(old):
        return False
    TEMPLATE.write_text(fresh, encoding="utf-8")
    return True


def catalogue_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalogue(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh)


def write_catalogue(path: Path, catalog: Catalog) -> None:
    # The same options `pybabel update` writes with, so a later update leaves no diff.
    with path.open("wb") as fh:
        write_po(fh, catalog, ignore_obsolete=True)


def fill_source_language() -> int:
    """English is the source: copy each msgid into an empty English msgstr. Returns the count."""
    path = catalogue_path(SOURCE_LANGUAGE)
    catalog = read_catalogue(path)
    filled = 0
    for message in catalog:
        if not message.id or _translated(message):
            continue
        message.string = tuple(message.id) if isinstance(message.id, tuple) else message.id
        message.flags.discard("fuzzy")
        filled += 1
    if filled:
        write_catalogue(path, catalog)
    return filled


def update() -> int:
    pybabel(*UPDATE_ARGS)
    return fill_source_language()


# -- checks -------------------------------------------------------------------------------


def _forms(value: str | Sequence[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _translated(message: Message) -> bool:
    return all(form.strip() for form in _forms(message.string or ""))


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def tags(text: str) -> list[str]:
    """The HTML tags of a text, attributes dropped, in order (`<b>x</b>` -> ['<b>', '</b>'])."""
    return [re.sub(r"\s.*>", ">", tag) for tag in TAG.findall(text)]


def message_problems(message: Message, nplurals: int) -> list[str]:
    """What is wrong with one translated entry (an empty list when it is fine)."""
    ids = _forms(message.id)
    strings = _forms(message.string or "")
    name = ids[0][:50]
    problems = []
    if "fuzzy" in message.flags:
        problems.append(f"{name!r}: fuzzy")
    if not _translated(message):
        return [*problems, f"{name!r}: untranslated"]
    if message.pluralizable and len(strings) != nplurals:
        problems.append(f"{name!r}: {len(strings)} plural forms, the language has {nplurals}")
    wanted = set().union(*(placeholders(i) for i in ids))
    wanted_tags = tags(ids[0])
    for index, string in enumerate(strings):
        got = placeholders(string)
        # A singular form may leave out {n} ("une question"); nothing else may go missing.
        allowed = wanted - {"{n}"} if message.pluralizable else wanted
        if not allowed <= got or not got <= wanted:
            problems.append(
                f"{name!r} form {index}: placeholders {sorted(got)} != {sorted(wanted)}"
            )
        if sorted(tags(string)) != sorted(wanted_tags) or not _balanced(tags(string)):
            problems.append(f"{name!r} form {index}: HTML tags {tags(string)} != {wanted_tags}")
    return problems


def _balanced(found: Iterable[str]) -> bool:
    stack: list[str] = []
    for tag in found:
        if tag.startswith("</"):
            if not stack or stack.pop() != tag[2:-1]:
                return False
        else:
            stack.append(tag[1:-1])
    return not stack


# A run of 30 or more characters that occurs twice: a text merge that joined two wrappings of
# one msgstr (it happened twice on main; placeholders and tags still matched).
_REPEATED = re.compile(r"(.{30,}).*\1", re.DOTALL)


def repeated_text(message: Message) -> list[str]:
    """A translated form that holds the same long run of text twice, when the msgid does not."""
    ids = _forms(message.id)
    if any(_REPEATED.search(i) for i in ids):
        return []
    return [
        f"{ids[0][:50]!r} form {index}: the same text twice (a merge joined two copies?)"
        for index, string in enumerate(_forms(message.string or ""))
        if len(string) >= 60 and _REPEATED.search(string)
    ]


def wording_problems(message: Message, terms: Sequence[GlossaryTerm]) -> list[str]:
    """The content checker's wording rules on one UI entry: the glossary (a forbidden term
    fails CI, as it would mislead every learner on every screen) and English left over."""
    ids = _forms(message.id)
    name = ids[0][:50]
    problems = []
    for index, string in enumerate(_forms(message.string or "")):
        text = TAG.sub(" ", PLACEHOLDER.sub(" ", string))
        found = text_checks.glossary_hits(text, terms)
        if string not in ids:  # a string rightly the same as English (Quiz, CSV) is no leftover
            found += text_checks.english_leftovers(text)
        problems += [f"{name!r} form {index}: {p}" for p in found]
    return problems


def glossary_terms(lang: str) -> list[GlossaryTerm]:
    """The shipped glossary's terms for one language (none when it has no glossary)."""
    if not GLOSSARY.is_file():
        return []
    model = GlossaryFile.model_validate(yaml.safe_load(GLOSSARY.read_text(encoding="utf-8")))
    return list(model.terms.get(lang, []))


def catalogue_problems(
    lang: str, template: Catalog | None = None, path: Path | None = None
) -> list[str]:
    """Everything wrong with one language's catalogue (by default the shipped one), as
    readable lines."""
    path = path or catalogue_path(lang)
    if not path.exists():
        return [f"{lang}: missing {path.relative_to(ROOT)}"]
    catalog = read_catalogue(path)
    template = template or read_catalogue(TEMPLATE)
    problems = []
    wanted = {m.id for m in template if m.id}
    have = {m.id for m in catalog if m.id}
    for missing in sorted(map(str, wanted - have)):
        problems.append(f"{lang}: {missing[:50]!r} not in the catalogue (run update)")
    for extra in sorted(map(str, have - wanted)):
        problems.append(f"{lang}: {extra[:50]!r} no longer in the template (run update)")
    terms = glossary_terms(lang) if lang != SOURCE_LANGUAGE else []
    for message in catalog:
        if message.id:
            found = message_problems(message, catalog.num_plurals)
            if lang != SOURCE_LANGUAGE and _translated(message):
                found += wording_problems(message, terms) + repeated_text(message)
            problems += [f"{lang}: {p}" for p in found]
    return problems


def problems() -> list[str]:
    found = []
    if without_date(extracted_template()) != without_date(TEMPLATE.read_text(encoding="utf-8")):
        found.append("locales/messages.pot is stale (run extract, then update)")
    template = read_catalogue(TEMPLATE)
    for lang in SUPPORTED_LANGUAGES:
        found += catalogue_problems(lang, template)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command = args[0] if args else ""
    if command == "extract":
        print("messages.pot updated" if extract() else "messages.pot unchanged")
    elif command == "update":
        print(f"catalogues updated; {update()} English entries filled from their msgid")
    elif command == "check":
        found = problems()
        for line in found:
            print(line)
        template = read_catalogue(TEMPLATE)
        print(f"{len([m for m in template if m.id])} msgids; {len(found)} problems")
        return 1 if found else 0
    else:
        print("usage: python -m bot.i18n_tools extract|update|check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
