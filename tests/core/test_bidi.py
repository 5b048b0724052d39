"""Names isolated from the line around them: unclosed direction controls dropped, closed pairs
kept, the whole wrapped in FSI ... PDI."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.bidi import EMBEDDINGS, FSI, ISOLATES, PDF, PDI, balanced, isolate, isolate_if_needed

RLE, RLO, RLI, LRI = "\u202b", "\u202e", "\u2067", "\u2066"


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("Awa", "Awa"),
        ("Eve" + RLO, "Eve"),  # the reported one: an override never closed
        (RLO + "evE", "evE"),
        ("a" + RLE + "b" + PDF + "c", "a" + RLE + "b" + PDF + "c"),  # a closed pair is theirs
        ("a" + PDF + PDI, "a"),  # closers without openers
        (RLI + "x" + RLO + "y" + PDI + "z", RLI + "xy" + PDI + "z"),  # PDI closes inside
        (RLE + LRI + "x" + PDF, "x"),  # a PDF cannot close across an isolate
        ("مريم", "مريم"),  # right-to-left letters need no control
        ("", ""),
    ],
)
def test_balanced_drops_only_what_is_not_closed(name: str, kept: str) -> None:
    assert balanced(name) == kept


def test_isolate_wraps_in_first_strong_isolate() -> None:
    assert isolate("Eve" + RLO) == FSI + "Eve" + PDI


def closes_everything(text: str) -> bool:
    """Whether every opener in `text` is closed in it and no closer is stray."""
    stack: list[str] = []
    for char in text:
        if char in EMBEDDINGS or char in ISOLATES:
            stack.append(char)
        elif char == PDF:
            if not stack or stack[-1] not in EMBEDDINGS:
                return False
            stack.pop()
        elif char == PDI:
            if not stack or stack[-1] not in ISOLATES:
                return False
            stack.pop()
    return not stack


CONTROLS = "".join(sorted(EMBEDDINGS | ISOLATES)) + PDF + PDI


@given(st.text(alphabet=st.sampled_from(CONTROLS + "ab"), max_size=12))
def test_an_isolated_name_leaves_nothing_open(name: str) -> None:
    once = isolate(name)
    assert once.startswith(FSI) and once.endswith(PDI)
    assert balanced(once) == once  # nothing left to drop
    assert closes_everything(once)
    assert [c for c in name if c not in CONTROLS] == [c for c in once if c not in CONTROLS]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Sums and weeks", "Sums and weeks"),  # left-to-right text stays as written
        ("Révision (2) : 3 × 4 !", "Révision (2) : 3 × 4 !"),
        ("Drills\u202e", FSI + "Drills" + PDI),  # an unclosed override: dropped, isolated
        ("اختبار", FSI + "اختبار" + PDI),  # right-to-left letters
        ("Quiz \u0661\u0662", FSI + "Quiz \u0661\u0662" + PDI),  # Arabic-Indic digits
        ("Mark\u200f", FSI + "Mark\u200f" + PDI),  # a RIGHT-TO-LEFT MARK
        ("\u2067x\u2069", FSI + "\u2067x\u2069" + PDI),  # a closed isolate stays, inside ours
    ],
)
def test_isolate_if_needed_isolates_only_what_could_reorder_a_line(text: str, shown: str) -> None:
    assert isolate_if_needed(text) == shown
