"""Guide links: real pages in the shipped content, a deployment's own site, the page's language."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.config import ConfigError, Settings
from bot.content import load_catalog
from bot.content.schema import placeholder_host
from bot.core.limits import POPUP_VERDICT_CHARS
from bot.core.models import GuidePath, Text
from bot.i18n import SUPPORTED_LANGUAGES, translator
from bot.tg.screen_render import guide_link

CONTENT = Path(__file__).resolve().parents[2] / "content"
URL = re.compile(r"https?://[^\s\"'<>)`]+")


def test_no_shipped_link_uses_a_placeholder_host() -> None:
    urls = [u for path in CONTENT.rglob("*.yaml") for u in URL.findall(path.read_text("utf-8"))]
    assert urls, "the shipped guides link somewhere"
    for url in urls:
        parts = urlsplit(url)
        assert parts.scheme == "https", url
        assert not placeholder_host(parts.hostname or ""), url


def test_shipped_guides_point_at_the_reference_pages() -> None:
    guides = load_catalog(CONTENT).guides
    assert guides["gradient-checkpointing"].url.get("en") == (
        "https://docs.pytorch.org/docs/stable/checkpoint.html"
    )
    assert guides["gradient-accumulation"].url.get("en") == (
        "https://huggingface.co/docs/accelerate/usage_guides/gradient_accumulation"
    )


@pytest.mark.parametrize("host", ["example.com", "docs.example.org", "site.test", "localhost"])
def test_placeholder_hosts(host: str) -> None:
    assert placeholder_host(host)


def test_real_hosts_are_not_placeholders() -> None:
    assert not placeholder_host("huggingface.co")
    assert not placeholder_host("examples.pytorch.org")


def test_link_says_which_language_it_opens_in() -> None:
    guide = GuidePath("g", Text({"en": "Guide", "fr": "Guide FR"}), Text.plain("https://a.org/g"))
    assert guide_link(guide, "en") == '<a href="https://a.org/g">Guide</a>'
    assert guide_link(guide, "fr") == '<a href="https://a.org/g">Guide FR</a> (en anglais)'
    assert guide_link(guide, "wo").endswith("</a> (ci angale)")
    french = GuidePath("g", guide.title, Text({"en": "https://a.org/g", "fr": "https://a.org/fr"}))
    assert guide_link(french, "fr") == '<a href="https://a.org/fr">Guide FR</a>'


def test_one_setting_points_every_guide_at_the_deployment() -> None:
    catalog = load_catalog(CONTENT, guide_base_url="https://learn.school.org/guides/")
    for guide in catalog.guides.values():
        assert guide.url.get("fr") == f"https://learn.school.org/guides/{guide.id}"
        assert not guide.url.has("fr")  # one page, in English: the link says so
    per_lang = load_catalog(CONTENT, guide_base_url="https://learn.school.org/{lang}/g")
    for quiz in per_lang:
        assert quiz.guide.url.get("wo") == f"https://learn.school.org/wo/g/{quiz.guide.id}"
        assert guide_link(quiz.guide, "wo").endswith("</a>")


@pytest.mark.parametrize(
    ("value", "words"),
    [("http://learn.school.org", "https URL"), ("https://guides.example.com/x", "placeholder")],
)
def test_the_setting_is_checked_at_start_up(value: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Settings.from_env({"QUIZBOT_GUIDE_BASE_URL": value})
    ok = Settings.from_env({"QUIZBOT_GUIDE_BASE_URL": "https://learn.school.org/{lang}"})
    assert ok.guide_base_url == "https://learn.school.org/{lang}"


def test_popup_verdicts_fit_the_room_the_checker_assumes() -> None:
    for lang in SUPPORTED_LANGUAGES:
        tr = translator(lang)
        heads = [tr._("✅ Right!"), tr._("❌ Not quite: the answer is {letter}.", letter="J")]
        assert max(len(head) for head in heads) <= POPUP_VERDICT_CHARS, lang
