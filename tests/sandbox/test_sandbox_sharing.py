"""The sandbox plays the README's "Passing a quiz on": `:inline WORDS` and `:inline #N` (inline
mode is on there, so cards carry 📤 Share), and `:addvia QUIZ` (the startgroup link)."""

from __future__ import annotations

from tests.sandbox.driver import Sandbox

QUIZ = "gradient-accumulation"
LINK = "https://t.me/quizbot_sandbox_bot"


def test_inline_lists_and_posts_a_card_and_addvia_brings_the_quiz_to_the_group(
    sandbox: Sandbox,
) -> None:
    help_text = sandbox.prompt()
    for verb in (":inline WORDS", ":addvia QUIZ"):
        assert verb in help_text, verb
    sandbox.type("/start")
    sandbox.type("1")  # English: the quiz list
    card = sandbox.type("3")  # the third quiz's card
    assert "[3] 📤 Share" in card, card
    shared = sandbox.type("3")
    assert "types @quizbot_sandbox_bot gradient-checkpointing in a chat you pick" in shared

    listed = sandbox.type(":inline gradient accumulation")
    assert "[1] Gradient accumulation · " in listed, listed
    posted = sandbox.type(":inline #1")
    assert "You via @quizbot_sandbox_bot" in posted, posted
    assert f"▶️ Take it <{LINK}?start={QUIZ}>" in posted, posted
    assert f"👥 Play in a group <{LINK}?startgroup={QUIZ}>" in posted, posted
    assert "no such result" in sandbox.type(":inline #99")

    added = sandbox.type(f":addvia {QUIZ}", timeout=30)
    assert f"?startgroup={QUIZ}" in added and "Push now" in added, added
