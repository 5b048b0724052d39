"""A group run in the sandbox: the local user pushes a quiz as admin, two members answer with them.

Flood limits stay on here (20 messages a minute per group, as on Telegram): a whole run fits.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

import pytest
from telegram.ext import CommandHandler

from bot.content import default_content_dir, load_catalog
from bot.core.kinds import QuestionKind
from bot.i18n import load_all, translator
from bot.tg.options import BotOptions
from tests.e2e.harness import compose_bot
from tests.sandbox.driver import Sandbox, correct_number, correct_numbers

QUIZ = "gradient-checkpointing"


def bot_has_push() -> bool:
    """Whether the bot registers /push (study groups, issue 5)."""
    with tempfile.TemporaryDirectory() as tmp:
        options = BotOptions(
            token="1:x", db_path=Path(tmp) / "db", catalog=load_catalog(default_content_dir())
        )
        handlers = compose_bot(options).app.handlers.values()
    return any(
        isinstance(h, CommandHandler) and "push" in h.commands for hs in handlers for h in hs
    )


@pytest.mark.skipif(not bot_has_push(), reason="group runs (/push, issue 5) are not in the bot yet")
def test_a_group_run_with_two_members(tmp_path: Path) -> None:
    began = time.monotonic()
    # 2.5 s a question: room for three taps each, also on a busy machine.
    box = Sandbox(tmp_path, "--fresh", "--question-seconds", "2.5")
    try:
        box.prompt()
        box.type(":group")
        assert box.wait_output(r"· you are now You @ Study group")

        refused = box.type(":as Moussa /push " + QUIZ)
        assert re.search(r"╭─ #\d+ Quiz Bot · Study group", refused) and "Group quiz" not in refused

        box.send("/push " + QUIZ)
        box.wait_output(r"Group quiz: Gradient checkpointing.*?seconds per question")
        quiz = load_catalog(default_content_dir()).quiz(QUIZ)
        assert quiz is not None
        total = sum(not q.typed for q in quiz.questions)  # groups skip number questions
        for index in range(total):
            # Question 3 has a picture: the sandbox names it before the caption.
            photo = r"(\[photo: sqrt-n-checkpoints\.png\] )?"
            header = rf"╭─ #\d+ Quiz Bot · Study group\n│ {photo}\*Question {index + 1}/{total}\*"
            # True/false: two buttons, A and B; select-all: four toggles and Submit.
            ends = r".*?(\[4\] D|\[2\] B|\[5\] 📨 Submit)\n╰─"
            shown = box.wait_output(header + ends).group(0)
            if quiz.questions[index].kind is QuestionKind.MULTIPLE:
                rights = correct_numbers(shown, QUIZ, index)
                wrong = next(n for n in range(1, 5) if n not in rights)
                taps = (("", rights), (":as Moussa ", rights), (":as Claire ", [wrong]))
                for who, numbers in taps:
                    for number in [*numbers, 5]:  # toggles, then Submit
                        box.send(f"{who}{number}")
            else:
                count = len(quiz.questions[index].options)
                right = correct_number(shown, QUIZ, index)
                box.send(str(right))
                box.send(f":as Moussa {right}")
                box.send(f":as Claire {right % count + 1}")
            # Time up: the question is edited to show how many chose what.
            edited = rf"╭─ #\d+ Quiz Bot · Study group \(edited\)\n│ {photo}"
            revealed = box.wait_output(edited + rf"\*Question {index + 1}/{total}\*.*?╰─").group(0)
            assert "3 answers" in revealed, revealed
            assert re.search(r"✅ \*[A-D]\.\*", revealed)

        board = box.wait_output(r"🏁 Quiz finished: Gradient checkpointing\*.*?╰─").group(0)
        lines = [line for line in board.splitlines() if " · " in line and f"/{total}" in line]
        # Ties on a full score go to the faster: You tapped before Moussa every time.
        names = [line.split(" · ")[0].split()[-1].strip("\u2068\u2069") for line in lines]
        assert names == ["You", "Moussa", "Claire"], board
        full, none = f"{total}/{total}", f"0/{total}"
        assert full in lines[0] and full in lines[1] and none in lines[2]

        # Each member's popup is in their own language, and gives nothing away (the default).
        load_all()
        output = box.output
        for lang in ("en", "wo", "fr"):
            recorded = (
                translator(lang)
                ._(
                    "🗳 Your answer {letter} is recorded. Whether it is right comes with the reveal.",  # noqa: E501
                    letter="\0",
                )
                .split("\0")[0]
            )
            # A select-all answer with several letters has its plural popup (issue 28, item 32).
            several = (
                translator(lang)
                .ngettext(
                    "🗳 Your answer {letters} is recorded. Whether it is right comes with the reveal.",  # noqa: E501
                    "🗳 Your answers {letters} are recorded. Whether they are right comes with the reveal.",  # noqa: E501
                    2,
                    letters="\0",
                )
                .split("\0")[0]
            )
            shown = {recorded, several}
            # A toast, not an alert: no modal to dismiss during a timed question (issue 28).
            assert sum(output.count("⟨popup⟩ " + p) for p in shown) == total, lang
            assert not any("⟨alert⟩ " + p in output for p in shown), lang
        assert translator("en")._("✅ Right!") not in output
        assert box.quit() == 0
        assert time.monotonic() - began < 60  # about 25 s; generous: machines differ
    finally:
        box.kill()
