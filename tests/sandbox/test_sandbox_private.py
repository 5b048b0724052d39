"""A person runs `quizbot sandbox`, takes a whole quiz by typing, and comes back the next day."""

from __future__ import annotations

import re
from pathlib import Path

from bot.core.kinds import QuestionKind
from tests.e2e.harness import shipped_catalog, typed_for
from tests.sandbox.driver import Sandbox, correct_number, correct_numbers

QUIZ = "gradient-checkpointing"
MISSED = 2  # the question (0-based) answered wrong on purpose, to see both popups


def test_a_whole_quiz_typed_into_the_terminal(sandbox: Sandbox, tmp_path: Path) -> None:
    intro = sandbox.prompt()
    assert ":group" in intro and ":user NAME" in intro

    picker = sandbox.type("/start")
    assert "[1] ✓ English" in picker and "[2] Français" in picker

    listing = sandbox.type("1")
    assert "⟨popup⟩ Language: English" in listing
    assert "Quiz Bot (edited)" in listing  # the picker became the list
    assert "Gradient checkpointing <https://" in listing  # links read as "text <url>"
    number = re.search(r"\[(\d)\] Gradient checkpointing", listing)
    assert number is not None, listing

    card = sandbox.type(number.group(1))
    assert "*Gradient checkpointing*" in card  # bold, in a pipe
    start = re.search(r"\[(\d)\] ▶️ Start", card)
    assert start is not None, card
    shown = sandbox.type(start.group(1))

    quiz = shipped_catalog().quiz(QUIZ)
    assert quiz is not None
    total = len(quiz)
    for index in range(total):
        assert f"*Question {index + 1}/{total}* · Gradient checkpointing" in shown, shown
        question = quiz.questions[index]
        if question.typed:  # a number question: the answer is typed, as a reply
            assert "Reply with a number" in shown, shown
            after = sandbox.type(typed_for(question))
            assert "is no button here" not in after, after  # an answer, not a missed button
            assert "(edited)" in after and "Right! The answer is" in after, after
            label = "Next ▶️" if index < total - 1 else "🏁 See my score"
            assert f"[1] {label}" in after, after
            shown = sandbox.type("1")
            continue
        if index == 2:  # sqrt-n carries a picture: its name, then the question as its caption
            assert f"[photo: sqrt-n-checkpoints.png] *Question 3/{total}*" in shown, shown
        if question.kind is QuestionKind.MULTIPLE:  # select-all: toggles, then Submit
            assert "[1] ☐ A  [2] ☐ B  [3] ☐ C  [4] ☐ D" in shown and "[5] 📨 Submit" in shown
            for number in correct_numbers(shown, QUIZ, index):
                assert f"[{number}] ☑" in sandbox.type(str(number))
            after = sandbox.type("5")
            assert "⟨popup⟩ ✅ Right! You found every right answer." in after, after
        else:
            assert "[1] A  [2] B  [3] C  [4] D" in shown or "[1] A  [2] B\n" in shown
            right = correct_number(shown, QUIZ, index)
            tap = right if index != MISSED else right % 4 + 1
            after = sandbox.type(str(tap))
            if index == MISSED:
                assert "⟨popup⟩ ❌ Not quite: the answer is" in after, after
            else:
                assert "⟨popup⟩ ✅ Right!" in after, after
        # The question is shown again as edited, without its buttons, the right option ticked.
        assert "(edited)" in after and "✅ *" in after
        label = "Next ▶️" if index < total - 1 else "🏁 See my score"
        assert f"[1] {label}" in after, after
        shown = sandbox.type("1")

    assert f"Score: {total - 1}/{total}" in shown, shown
    assert "You missed 1 question" in shown
    assert sandbox.quit() == 0
    assert sandbox.output.endswith("· bye\n")
    assert "Traceback" not in sandbox.stderr_now()

    # A second run, without --fresh, remembers the language chosen: no picker this time.
    again = Sandbox(tmp_path)
    try:
        again.prompt()
        welcome = again.type("/start")
        assert "Welcome, \u2068You\u2069!" in welcome and "Choose your language" not in welcome
        assert again.quit() == 0
    finally:
        again.kill()


def test_end_of_input_ends_the_sandbox_cleanly(sandbox: Sandbox) -> None:
    sandbox.prompt()
    assert "Unknown" not in sandbox.type(":nonsense")
    help_text = sandbox.type(":help")
    assert ":private" in help_text
    assert sandbox.close_input() == 0
    assert "· bye" in sandbox.output
