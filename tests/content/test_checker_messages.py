"""Every message the checker and the importers give is a gettext string of our catalogues
(issue 28: an upload's problems reach a French- or Wolof-speaking admin in their language).

The checker speaks English on the command line and never calls gettext; its messages are
`problems.Msg` values that carry their msgid, and the chat translates them. This holds it on
every checker fixture and every import-format fixture: each message a Msg (its parameters that
are words too), each msgid translated in fr and wo.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.content.formats import parse, parse_bytes
from bot.content.loader import check
from bot.content.problems import Msg
from bot.i18n import locales_dir
from tests.content.moodle_kit import HOSTILE

FIXTURES = Path(__file__).parent / "fixtures"
CHECKER_FIXTURES = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name != "formats")
FORMAT_FIXTURES = sorted(p for p in (FIXTURES / "formats").iterdir() if p.is_file())
FORMAT_OF = {".gift": "gift", ".aiken": "aiken", ".csv": "csv"}


def _catalogue(lang: str) -> Catalog:
    with (locales_dir() / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle)


CATALOGUES = {lang: _catalogue(lang) for lang in ("fr", "wo")}


def _untranslated(message: str) -> list[str]:
    """What in `message` a French or Wolof reader would get in English."""
    if not isinstance(message, Msg):
        return [f"plain English: {message!r}"]
    found = []
    for lang, catalogue in CATALOGUES.items():
        entry = catalogue.get(message.msgid)
        if entry is None or not entry.string:
            found.append(f"{lang} lacks {message.msgid!r}")
    for value in message.params.values():
        if isinstance(value, Msg):
            found += _untranslated(value)
    return found


@pytest.mark.parametrize("fixture", CHECKER_FIXTURES, ids=lambda p: p.name)
def test_every_checker_message_is_a_translated_gettext_string(fixture: Path) -> None:
    report = check(fixture)
    bad = [f"{p.format()} -> {why}" for p in report.problems for why in _untranslated(p.message)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("fixture", FORMAT_FIXTURES, ids=lambda p: p.name)
def test_every_import_format_message_is_a_translated_gettext_string(fixture: Path) -> None:
    result = parse(FORMAT_OF[fixture.suffix], fixture.read_text(encoding="utf-8"), fixture.stem)
    bad = [f"{p.line}: {why}" for p in result.problems for why in _untranslated(p.message)]
    assert not bad, "\n".join(bad)


MOODLE_FIXTURES = sorted((FIXTURES / "formats" / "moodle").glob("*.xml"))
MOODLE_HOSTILE = {name: build for name, (build, _, _) in HOSTILE.items()}


@pytest.mark.parametrize("fixture", MOODLE_FIXTURES, ids=lambda p: p.name)
def test_every_moodle_import_message_is_a_translated_gettext_string(fixture: Path) -> None:
    result = parse_bytes("moodle", fixture.read_bytes(), fixture.stem)
    assert result.problems
    bad = [f"{p.line}: {why}" for p in result.problems for why in _untranslated(p.message)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("name", MOODLE_HOSTILE)
def test_every_moodle_refusal_is_a_translated_gettext_string(name: str) -> None:
    result = parse_bytes("moodle", MOODLE_HOSTILE[name](), "hostile.xml")
    bad = [f"{p.line}: {why}" for p in result.problems for why in _untranslated(p.message)]
    assert not bad, "\n".join(bad)
