"""The sandbox plays the README's "Passing a quiz on": `:inline WORDS` and `:inline #N` (inline
mode is on there, so cards carry 📤 Share), and `:addvia QUIZ` (the startgroup link)."""

from __future__ import annotations

import re

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
    assert f"· You open {LINK}?startgroup={QUIZ} and pick Study group" in added, added
    assert "Push now" in added, added


def test_the_buttons_of_a_posted_card_are_tapped_by_their_numbers_and_follow_the_links(
    sandbox: Sandbox,
) -> None:
    """Claire posts the card in the group; Moussa, who never wrote to the bot, taps ▶️ Take it
    and lands in his private chat, in the quiz, in Wolof; Claire's 👥 Play in a group picks the
    study group, where the bot tells her (a member) that an admin can start it."""
    sandbox.type(":group", timeout=30)
    sandbox.type("/quiz")  # an admin's picker: a keyboard the card's numbers must not reach
    sandbox.type(":user Claire")
    sandbox.type(":inline accumulation")
    posted = sandbox.type(":inline #1")
    card = re.search(r"╭─ #(\d+) Claire via @quizbot_sandbox_bot", posted)
    assert card is not None, posted

    opened = sandbox.type(":as Moussa 1")
    assert f"· Moussa opens {LINK}?start={QUIZ}" in opened, opened
    assert "╭─ #2 Quiz Bot → Moussa (private)\n│ *Laaj 1/11* · Dajale gradient yi" in opened
    assert opened.endswith("Claire @ Study group › "), opened

    group = sandbox.type(f":tap {card.group(1)}.2")
    assert f"· Claire opens {LINK}?startgroup={QUIZ} and picks Study group" in group, group
    assert "Quiz Bot · Study group\n│ A group admin can start Gradient accumulation" in group
    assert group.endswith("Claire @ Study group › "), group
    assert "Sorry, only the group's admins" not in sandbox.output  # /quiz's list was not tapped


def test_inline_posts_only_from_the_list_the_person_asked_for(sandbox: Sandbox) -> None:
    """Inline results are personal (in the asker's language): after :user, :inline #N does not
    post the card You listed in English under Moussa's name."""
    sandbox.prompt()
    assert "[1] Gradient accumulation · " in sandbox.type(":inline accumulation")
    sandbox.type(":user Moussa")
    refused = sandbox.type(":inline #1")
    assert "no such result: :inline WORDS lists them first" in refused, refused
    sandbox.type(":inline dajale")
    posted = sandbox.type(":inline #1")
    assert "Moussa via @quizbot_sandbox_bot\n│ *Dajale gradient yi*" in posted, posted
