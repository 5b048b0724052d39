"""The sandbox can try what the README describes: an earlier message's buttons (`:tap N.M`), a
reply to a message (`:reply N TEXT`), `:as` from a private chat and back, the command menu
(`:menu`), the /stats Dashboard button, and a word when a typed number is no button."""

from __future__ import annotations

import re
from pathlib import Path

from tests.sandbox.driver import Sandbox

NUMBER_QUIZ = """\
id: sums
guide: gradient-checkpointing
level: beginner
languages: [en]
title: "Sums"
description: "A number question for the group."
questions:
  sum:
    kind: number
    prompt: "How much is 2 + 2?"
    answer: {value: 4}
    explanation: "Two and two make four."
"""


def number_of(shown: str, pattern: str) -> int:
    """The #N of the (first) bot message whose text matches `pattern`."""
    found = re.search(r"╭─ #(\d+) Quiz Bot[^\n]*\n(?:│[^\n]*\n)*?│[^\n]*" + pattern, shown)
    assert found is not None, shown
    return int(found.group(1))


def test_tap_an_earlier_message_and_come_back_after_as(sandbox: Sandbox) -> None:
    help_text = sandbox.prompt()
    for verb in (":tap N.M", ":reply N TEXT", ":menu"):
        assert verb in help_text, verb
    sandbox.type("/start")
    listing = sandbox.type("1")
    quizzes = number_of(listing, r"📚 Quizzes")

    stats = sandbox.type("/stats")  # now the latest keyboard is the /stats one
    assert "[1] 📊 Dashboard" in stats, stats  # the button the README names
    dashboard = number_of(stats, r"Your progress")
    opened = sandbox.type(f":tap {dashboard}.1")
    assert "“📊 Dashboard” opens the Mini App: http://127.0.0.1:" in opened, opened

    # A number past the latest keyboard is said to be sent as text, not silently.
    typed = sandbox.type("9")
    assert f"9 is no button here (the latest keyboard, on #{dashboard}, has 1-1)" in typed

    # The quiz list's third button (six shipped quizzes, by id), though another keyboard
    # came after it; the card replaces the list in that message (four buttons: ▶️ Start,
    # 👥 Play in a group, 📤 Share (inline mode is on in the sandbox), ⬅️ All quizzes).
    card = sandbox.type(f":tap {quizzes}.3")
    assert "*Gradient checkpointing*" in card and "▶️ Start" in card, card
    assert f"message #{quizzes} has buttons 1-4, not 7" in sandbox.type(f":tap {quizzes}.7")
    assert "no message #999" in sandbox.type(":tap 999.1")

    # :as from a private chat acts in Claire's chat, headed as hers, then comes back.
    claire = sandbox.type(":as Claire /quizzes")
    assert "Quiz Bot → Claire (private)" in claire and "Accumulation de gradient" in claire
    assert claire.endswith("You › ")
    mine = sandbox.type("/help")
    assert "→ Claire" not in mine and "╭─ #" in mine, mine
    assert "Quiz Bot → Claire" not in sandbox.type("1")  # the number is You's own chat's

    menu = sandbox.type(":menu")
    assert "/stats - Your progress, and your place in your groups" in menu, menu
    sandbox.type(":group")
    group_menu = sandbox.type(":menu")  # You created the group: the admins' menu
    assert "/push - Start a quiz in this group now" in group_menu, group_menu
    assert "/stats" not in group_menu
    assert sandbox.quit() == 0


def test_reply_answers_a_group_number_question(tmp_path: Path) -> None:
    quiz = tmp_path / "sums.yaml"
    quiz.write_text(NUMBER_QUIZ, encoding="utf-8")
    box = Sandbox(tmp_path / "data", "--fresh", "--no-flood-limits", "--question-seconds", "3")
    try:
        box.prompt()
        box.type(":group")
        box.type("/settings")
        assert "✓ Typed answers on" in box.type("Typed answers on")
        assert "sums.yaml is a sound quiz." in box.type(f":upload {quiz}")
        box.send("/push sums")
        shown = box.wait_output(r"╭─ #(\d+) Quiz Bot · Study group\n│ \*Question 1/1\*")
        question = int(shown.group(1))
        box.send(f":reply {question} 4")
        box.send(f":as Moussa :reply {question} 5")
        revealed = box.wait_output(rf"╭─ #{question} Quiz Bot · Study group \(edited\).*?╰─")
        assert "2 answers" in revealed.group(0), revealed.group(0)
        assert "no message #" not in box.output
        assert box.quit() == 0
    finally:
        box.kill()
