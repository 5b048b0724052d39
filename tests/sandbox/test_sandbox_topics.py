"""The sandbox plays the README's "Forum topics": `:topic NAME` moves you into topic NAME of a
forum study group (made on first use), where a pushed quiz plays and every bot message is
labelled with its topic; `:topic` alone is the forum's General, with the topics listed."""

from __future__ import annotations

import re

from bot.core.bidi import FSI, PDI
from tests.sandbox.driver import Sandbox

QUIZ = "gradient-checkpointing"


def test_a_quiz_pushed_in_a_topic_plays_there_and_top_in_general_answers_in_general(
    sandbox: Sandbox,
) -> None:
    assert ":topic NAME" in sandbox.prompt()
    entered = sandbox.type(":topic Quizzes", timeout=30)
    assert "You create the topic Quizzes" in entered, entered
    assert entered.endswith("You @ Study forum ▸ Quizzes › "), entered

    sandbox.send("/push " + QUIZ)
    card = sandbox.wait_output(r"╭─ #\d+ Quiz Bot · Study forum ▸ (\w+)\n│ .{0,3}Group quiz: ")
    assert card.group(1) == "Quizzes", card.group(0)
    header = r"╭─ #\d+ Quiz Bot · Study forum ▸ (\w+)\n│ (\[photo: [^]]+\] )?\*Question 1/"
    assert sandbox.wait_output(header, timeout=30).group(1) == "Quizzes"
    sandbox.prompt(timeout=30)

    general = sandbox.type(":topic")
    assert "you are now You @ Study forum ▸ General" in general, general
    assert "topics: General, Quizzes" in general, general
    top = sandbox.type("/top")
    answers = re.findall(r"╭─ #\d+ Quiz Bot · Study forum ▸ (\w+)\n│ (.*)", top)
    standings = [topic for topic, first in answers if "Question" not in first]
    assert standings == ["General"], top

    back = sandbox.type(":group", timeout=30)  # the basic study group is still there, unlabelled
    assert re.search(r"╭─ #\d+ Quiz Bot · Study group\n", back), back
    assert back.endswith("You @ Study group › "), back


def test_rename_renames_the_topic_you_are_in_and_the_bot_keeps_the_new_name(
    sandbox: Sandbox,
) -> None:
    help_text = sandbox.prompt()
    assert ":rename NEW NAME" in help_text, help_text
    refused = sandbox.type(":rename Drills")
    assert "· :rename works in a forum topic: :topic NAME goes into one first" in refused, refused
    sandbox.type(":topic Quizzes", timeout=30)
    sandbox.type(f"/schedule {QUIZ} daily 18:00")
    assert "usage: :rename NEW NAME" in sandbox.type(":rename")
    sandbox.type(":topic Maths")
    taken = sandbox.type(":rename quizzes")
    assert "· another topic is called Quizzes;" in taken, taken
    assert sandbox.type(":rename General").endswith("▸ Maths › ")

    sandbox.type(":topic Quizzes")
    renamed = sandbox.type(":rename Daily drills")
    assert "· You rename the topic Quizzes to Daily drills" in renamed, renamed
    assert renamed.endswith("You @ Study forum ▸ Daily drills › "), renamed
    listed = sandbox.type("/schedules")
    assert f"in the topic {FSI}Daily drills{PDI}" in listed and "Quizzes" not in listed, listed
    assert "topics: General, Daily drills, Maths" in sandbox.type(":topic")
    assert "General keeps its name" in sandbox.type(":rename Lobby")
    assert sandbox.type(":topic daily drills").endswith("▸ Daily drills › ")
