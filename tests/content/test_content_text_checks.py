"""Rules on one translated string against its English source."""

from __future__ import annotations

import pytest

from bot.content import text_checks
from bot.content.schema import GlossaryTerm


@pytest.mark.parametrize(
    ("source", "translated", "words"),
    [
        ("Use `torch.utils.checkpoint`", "Jëfandikool `torch.utils.checkpoint`", []),
        ("Use `a` then `b`", "`b` après `a`", []),  # order may change with the language
        ("Use `torch.utils.checkpoint`", "torch.utils.point de contrôle", ["looks translated"]),
        ("Use `torch.nn.Dropout`", "`torch.nn.Bàyyi`", ["changed to `torch.nn.Bàyyi`"]),
        ("Call `zero_grad()`", "Appeler zero_grad()", ["without backticks"]),
        ("Call `zero_grad()`", "Appeler la fonction", ["is missing"]),
        ("Call it", "Appeler `step()`", ["not in the English"]),
    ],
)
def test_compare_code(source: str, translated: str, words: list[str]) -> None:
    messages = text_checks.compare_code(source, translated)
    assert len(messages) == len(words)
    for message, expected in zip(messages, words, strict=True):
        assert expected in message


@pytest.mark.parametrize(
    ("source", "translated", "same"),
    [
        ("Plain gradient descent", "Plain gradient descent.", True),
        ("Plain gradient descent", "La descente de gradient simple", False),
        ("`torch.optim.SGD`", "`torch.optim.SGD`", False),  # only code: nothing to translate
        ("32", "32", False),
        ("BatchNorm", "BatchNorm", False),  # a name
        ("GPU memory", "GPU memory", True),
        ("Use `x` now", "Use `x` now", True),
    ],
)
def test_identical_to_source(source: str, translated: str, same: bool) -> None:
    assert text_checks.identical_to_source(source, translated) is same


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("Ñu defaat xayma yi: their forward computations are rerun", True),
        ("Dafay denc activation yi ci memwaar bi", False),
        ("La passe arrière en a besoin pour calculer les gradients", False),
        ("The `with` statement", True),  # one marker word is enough (issue 29)
        ("Le `with` de Python", False),  # code is not prose
    ],
)
def test_english_leftovers(text: str, flagged: bool) -> None:
    assert bool(text_checks.english_leftovers(text)) is flagged


def test_unmarked_code_in_the_source() -> None:
    assert text_checks.unmarked_code("Call optimizer.step() after N micro-batches")
    assert text_checks.unmarked_code("Call zero_grad() first")
    assert not text_checks.unmarked_code("Call `optimizer.step()`, e.g. after N steps")


def test_unclosed_backtick() -> None:
    assert text_checks.unclosed_backtick("`a` and `b")
    assert not text_checks.unclosed_backtick("`a` and `b`")


def test_glossary_matches_whole_words_outside_code() -> None:
    term = GlossaryTerm(avoid=["dégradé", "dégradés"], prefer="gradient")
    assert text_checks.glossary_hits("Accumulation de dégradés", [term])
    assert text_checks.glossary_hits("Le Dégradé", [term])
    assert not text_checks.glossary_hits("Un gradient `dégradé`", [term])
    assert not text_checks.glossary_hits("dégradéx", [term])
