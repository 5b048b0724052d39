"""The UI catalogues under the content checker's wording rules (issue 29): the glossary, matched
by stem, and English left over fail `python -m bot.i18n_tools check`; Wolof entries that take a
count read right for any number, since Wolof has one plural form."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.i18n import translator
from bot.i18n_tools import catalogue_path, catalogue_problems, main, read_catalogue


def _edited(tmp_path: Path, lang: str, old: str, new: str) -> Path:
    """A copy of the shipped catalogue with one existing msgstr changed."""
    path = tmp_path / f"{lang}.po"
    shutil.copyfile(catalogue_path(lang), path)
    text = path.read_text(encoding="utf-8")
    assert text.count(f'msgstr "{old}"') == 1, old
    path.write_text(text.replace(f'msgstr "{old}"', f'msgstr "{new}"'), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("lang", "old", "new", "words"),
    [
        ("wo", "Laaj yi gën a metti ñoo jiitu.", "Laaj yi gëna metti ñoo jiitu.", "'gëna'"),
        ("wo", "Dakkal nañu sa fàttali bés bu nekk.", "Sa fàttali bés bu nekk fey na.", "'fey'"),
        ("fr", "Choisissez votre langue", "Choisissez vos dégradées", "'dégradé' (as"),
        ("fr", "Choisissez votre langue", "Choose the langue", "looks partly English (the)"),
    ],
)
def test_a_forbidden_term_or_english_fails_the_check(
    tmp_path: Path, lang: str, old: str, new: str, words: str
) -> None:
    assert not catalogue_problems(lang)
    found = catalogue_problems(lang, path=_edited(tmp_path, lang, old, new))
    assert len(found) == 1 and words in found[0], found


def test_a_msgstr_joined_twice_by_a_merge_fails_the_check(tmp_path: Path) -> None:
    """A text merge of two wrappings left the French group how-to three times in one msgstr
    (twice on main): placeholders and tags still matched, so the check passed."""
    old = "Choisissez votre langue"
    doubled = "Choisissez la langue de vos quiz et de vos réponses. " * 2
    found = catalogue_problems("fr", path=_edited(tmp_path, "fr", old, doubled.strip()))
    assert len(found) == 1 and "the same text twice" in found[0], found


def test_the_shipped_catalogues_pass_the_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr().out.strip().endswith("0 problems")


# Agreement words that only read right for several: "nañu" (they), "leen" (them), "ñooy"
# (they are). With one plural form, "{n} laaj war nañu" also shows for n = 1.
_PLURAL_AGREEMENT = re.compile(r"\b(?:nañu|leen|ñooy)\b")


def test_wolof_entries_with_a_count_are_number_neutral() -> None:
    catalog = read_catalogue(catalogue_path("wo"))
    agreeing = [
        m.id[0]
        for m in catalog
        if m.id and m.pluralizable and _PLURAL_AGREEMENT.search(m.string[0])
    ]
    assert agreeing == []


@pytest.mark.parametrize("n", [1, 2, 5])
def test_the_wolof_due_count_reads_right_for_any_number(n: int) -> None:
    tr = translator("wo")
    due = tr.ngettext(
        "⏰ {n} question is due for review. /review to go over it.",
        "⏰ {n} questions are due for review. /review to go over them.",
        n,
    )
    assert due == f"⏰ Laaj yi war a xoolaat: {n}. /review ngir tàmbali."
