"""Group run rules: which taps count, what a restart does, popups that fit in 200 characters."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.core.engine import Verdict
from bot.core.group_run import GroupRun, Step, elapsed_ms, fit_popup, judge_tap, resume_step
from bot.core.models import GuidePath, Level, Option, Question, Quiz, Text

GUIDE = GuidePath("g", Text.plain("Guide"), Text.plain("https://example.org"))
QUIZ = Quiz(
    "q",
    GUIDE,
    Level.BEGINNER,
    Text.plain("Quiz"),
    Text.plain("About"),
    tuple(
        Question(
            f"q{i}",
            Text.plain(f"Prompt {i}"),
            tuple(Option(f"o{j}", Text.plain(f"Option {j}")) for j in range(4)),
            1,
            Text.plain("Because."),
        )
        for i in range(3)
    ),
)
RUN = GroupRun(
    7,
    -100,
    "q",
    ((1, 0, 2, 3), (0, 1, 2, 3), (3, 2, 1, 0)),
    30.0,
    current=0,
    is_open=True,
    message_id=11,
    sent_at=100.0,
    deadline=130.0,
)


@pytest.mark.parametrize(
    ("run", "index", "position", "verdict", "correct"),
    [
        (RUN, 0, 0, Verdict.ACCEPTED, True),  # position 0 shows option 1, the right one
        (RUN, 0, 1, Verdict.ACCEPTED, False),
        (RUN, 0, 4, Verdict.INVALID, None),
        (RUN, 1, 0, Verdict.CLOSED, None),  # not the current question
        (replace(RUN, is_open=False), 0, 0, Verdict.CLOSED, None),  # revealed already
        (replace(RUN, current=-1, is_open=False), 0, 0, Verdict.CLOSED, None),
        (RUN, 9, 0, Verdict.CLOSED, None),
    ],
)
def test_judge_tap(
    run: GroupRun, index: int, position: int, verdict: Verdict, correct: bool | None
) -> None:
    got, judgement = judge_tap(run, QUIZ, index, position)
    assert got is verdict
    assert (judgement.is_correct if judgement else None) == correct


@pytest.mark.parametrize(
    ("run", "now", "step"),
    [
        (replace(RUN, current=-1, is_open=False), 100.0, (Step.ASK, 0)),
        (RUN, 120.0, (Step.WAIT, 0)),
        (RUN, 130.0, (Step.REVEAL, 0)),
        (replace(RUN, message_id=None), 120.0, (Step.ASK, 0)),  # never left: send it
        # Released, its id never recorded (the worker died): at most once, never sent again.
        (replace(RUN, message_id=None, released=True), 120.0, (Step.WAIT, 0)),
        (replace(RUN, message_id=None, released=True), 130.0, (Step.REVEAL, 0)),
        (replace(RUN, is_open=False), 500.0, (Step.ASK, 1)),  # revealed, next not yet asked
        (replace(RUN, current=2, is_open=False), 500.0, (Step.FINISH, 2)),
        (replace(RUN, current=2), 500.0, (Step.REVEAL, 2)),
    ],
)
def test_resume_step(run: GroupRun, now: float, step: tuple[Step, int]) -> None:
    assert resume_step(run, QUIZ, now) == step


def test_elapsed_ms() -> None:
    assert elapsed_ms(100.0, 101.2345) == 1234
    assert elapsed_ms(100.0, 99.0) == 0
    assert elapsed_ms(None, 99.0) == 0


LONG = (
    "Gradient accumulation sums the gradients of several micro-batches before one step. "
    "The effective batch is their total. Memory stays that of one micro-batch, "
    "which is why it fits on small GPUs. " * 3
)


@pytest.mark.parametrize("head", ["✅ Right!", "❌ Not quite: the answer is C."])
@pytest.mark.parametrize("body", ["", "Short.", LONG, "x" * 400, "word " * 100])
def test_fit_popup_stays_within_200_and_never_cuts_a_word(head: str, body: str) -> None:
    text = fit_popup(head, body)
    assert len(text) <= 200
    assert text.startswith(head)
    shown = text[len(head) + 1 :].rstrip("…")
    assert body.startswith(shown)
    if shown and len(shown) < len(body) and " " in body:
        assert body[len(shown)] in " .,;:" or shown.endswith(".")


def test_fit_popup_prefers_a_sentence_end() -> None:
    text = fit_popup("✅ Right!", LONG)
    assert text.endswith(".") and "…" not in text
