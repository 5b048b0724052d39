"""Every UI string is extracted, translated in every catalogue, and keeps its placeholders."""

from __future__ import annotations

import re

import pytest
from babel import Locale
from babel.messages.catalog import Message

from bot.i18n import SUPPORTED_LANGUAGES, translator
from bot.i18n_tools import (
    TEMPLATE,
    catalogue_path,
    catalogue_problems,
    extracted_template,
    message_problems,
    read_catalogue,
    tags,
    without_date,
)


def test_committed_template_matches_the_code() -> None:
    fresh = without_date(extracted_template())
    committed = without_date(TEMPLATE.read_text(encoding="utf-8"))
    assert fresh == committed, (
        "locales/messages.pot is stale: run `python -m bot.i18n_tools extract`, then `update`, "
        "then translate (docs/adding-a-language.md)"
    )


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_catalogue_is_complete_and_faithful(lang: str) -> None:
    assert catalogue_problems(lang) == []


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_plural_forms_follow_cldr(lang: str) -> None:
    catalog = read_catalogue(catalogue_path(lang))
    assert catalog.num_plurals == len(Locale.parse(lang).plural_form.rules) + 1
    expected = {"en": 2, "fr": 3, "wo": 1}[lang]
    assert catalog.num_plurals == expected
    for message in catalog:
        if message.id and message.pluralizable:
            assert len(message.string) == expected, message.id


@pytest.mark.parametrize("lang", ["fr", "wo"])
def test_runtime_catalogues_translate(lang: str) -> None:
    tr = translator(lang)
    assert tr._("📚 Quizzes") != "📚 Quizzes"
    assert tr._("Language: {name}", name="X").endswith("X")


def test_french_typography_is_consistent() -> None:
    """No plain space (or none at all) before ; : ! ? in French, and no straight apostrophe."""
    for message in read_catalogue(catalogue_path("fr")):
        if not message.id:
            continue  # the header
        for form in [message.string] if isinstance(message.string, str) else message.string:
            text = form.replace("://", "")
            for sign in ";!?":
                for at in [i for i, c in enumerate(text) if c == sign]:
                    assert text[at - 1] == "\u202f", (message.id, form)
            # A colon that ends a phrase (not the one in 08:30 or <HH:MM>).
            for at in [i for i, c in enumerate(text) if c == ":" and text[i + 1 : i + 2] in " "]:
                assert text[at - 1] in "\u00a0\u202f", (message.id, form)
            assert "'" not in text, (message.id, form)
            # A number and its unit stay on one line ("30\u00a0s", "80\u00a0%").
            assert not re.search(r"\} (s|min|h|%)(?![\w’])", text), (message.id, form)


BAD = [
    (Message("Hi {name}", "Salut"), "placeholders"),
    (Message("Hi {name}", "Salut {nom}"), "placeholders"),
    (Message("<b>{title}</b>", "<b>{title}"), "HTML tags"),
    (Message("<b>{title}</b>", "</b>{title}<b>"), "HTML tags"),
    (Message("Hi", ""), "untranslated"),
    (Message("Hi", "Salut", flags=["fuzzy"]), "fuzzy"),
    (Message(("{n} question", "{n} questions"), ("{n} question", "{n} questions")), "plural forms"),
    (Message(("{n} question", "{n} questions"), ("{n} question", "", "{n} q")), "untranslated"),
]


@pytest.mark.parametrize(("message", "problem"), BAD)
def test_the_checker_catches(message: Message, problem: str) -> None:
    assert any(problem in line for line in message_problems(message, nplurals=3))


def test_the_checker_accepts_a_singular_without_its_count() -> None:
    message = Message(("{n} question", "{n} questions"), ("une question", "{n} q", "{n} q"))
    assert message_problems(message, nplurals=3) == []


def test_tags_ignore_attributes() -> None:
    assert tags('<a href="x">t</a> <b>u</b>') == ["<a>", "</a>", "<b>", "</b>"]
