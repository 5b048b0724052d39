"""Select-all questions (kind: multiple, issue 17) in a group run, through the emulator: every
member's selection stays private until they submit (popups to the tapper only, the shared
message unchanged), the submission is their one answer, forged taps change nothing, and the
reveal counts how many selected each option."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from bot.core.kinds import QuestionKind
from bot.core.models import Catalog, Quiz
from bot.emulator import Emulator
from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import GroupHarness, make_group, shown_counts
from tests.e2e.harness import SUBMIT, TOKEN, answer_select_all, right_letters, shipped_catalog

QUIZ = "gradient-checkpointing"


def select_all_first() -> Catalog:
    """The shipped quizzes, the checkpointing one cut to its select-all question and one more."""
    full = shipped_catalog()
    quiz = full.quizzes[QUIZ]
    multiple = next(q for q in quiz.questions if q.kind is QuestionKind.MULTIPLE)
    quizzes = dict(full.quizzes)
    quizzes[QUIZ] = replace(quiz, questions=(multiple, quiz.questions[0]))
    return Catalog(full.guides, quizzes)


@asynccontextmanager
async def group_bot(tmp_path: Path, seconds: float) -> AsyncIterator[GroupHarness]:
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(emu, tmp_path / "quizbot.sqlite3", select_all_first(), seconds=seconds)
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


async def test_selections_stay_private_until_the_reveal_counts_them(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=3.0) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        awa = h.emu.user(2101, "Awa", language_code="en")
        bob = h.emu.user(2102, "Bob", language_code="fr")
        cheikh = h.emu.user(2103, "Cheikh", language_code="en")
        for member in (awa, bob, cheikh):
            group.add_member(member)
        other, _ = await make_group(h, chat_id=-100777, admin_id=1002)
        other.add_member(awa)

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        labels = [b.text for row in q1.buttons for b in row]
        assert labels == ["☐ A", "☐ B", "☐ C", "☐ D", SUBMIT]
        assert "Select every right answer, then tap Submit." in q1.text
        right = right_letters(q1, quiz.questions[0])
        wrong = next(letter for letter in "ABCD" if letter not in right)

        said = await awa.tap(q1, f"☐ {right[0]}")
        assert said is not None and not said.show_alert
        assert said.text == f"Selected: {right[0]}. Tap Submit when you are done."
        said = await bob.tap(q1, f"☐ {wrong}")
        assert said is not None
        assert said.text == f"Sélectionnée\u00a0: {wrong}. Touchez Valider quand vous avez fini."
        said = await awa.tap(q1, f"☐ {right[1]}")
        assert said is not None
        assert (
            said.text
            == f"Selected: {right[0]}, {right[1]} (2 options). Tap Submit when you are done."
        )
        # The shared message shows nobody's selection, and toggles are not answers.
        shown = group.message(q1.message_id)
        assert not shown.edited and [b.text for row in shown.buttons for b in row] == labels
        assert h.answer_count() == [(0,)]

        # Forged: another group's chat, a private chat, a position no button carried.
        toggle = q1.button("☐ A").callback_data
        assert toggle is not None and toggle.startswith("gt:")
        howto = other.bot_messages[-1]  # a message of the other group, to tap from there
        forged = await awa.tap(howto, callback_data=toggle)
        assert forged is not None and forged.text == "This button belongs to another chat."
        forged = await awa.tap(await _private_message(awa), callback_data=toggle)
        assert forged is not None and forged.text == "This button has expired."
        assert h.rows("SELECT user_id, selected FROM pending_selections ORDER BY user_id") == [
            (2101, _mask(q1, quiz, right)),
            (2102, _mask(q1, quiz, wrong)),
        ]
        run_id = toggle.split(":")[1]
        bad = await awa.tap(q1, callback_data=f"gt:{run_id}:0:6")
        assert bad is not None and bad.text == "This question is closed."

        # Submit: nothing selected is refused; a selection is the member's one answer.
        empty = await cheikh.tap(q1, SUBMIT)
        assert empty is not None and empty.show_alert
        assert empty.text == "Select at least one option, then tap Submit."
        said = await bob.tap(q1, SUBMIT)  # a toast: no modal to dismiss during the question
        assert said is not None and not said.show_alert and said.text is not None
        assert said.text.startswith(f"🗳 Votre réponse {wrong} ")
        said = await awa.tap(q1, SUBMIT)
        assert said is not None and said.text is not None
        assert said.text.startswith(f"🗳 Your answers {right[0]}, {right[1]} are recorded.")
        again = await bob.tap(q1, f"☐ {right[0]}")
        assert again is not None and again.text == "Vous avez déjà répondu à cette question."
        assert h.rows(
            "SELECT user_id, selected_ids, score, is_correct FROM answers ORDER BY user_id"
        ) == [(2101, "a,c", 1.0, 1), (2102, _id(q1, quiz, wrong), 0.0, 0)]

        revealed = await group.wait_for(
            lambda m: m.message_id == q1.message_id and m.edited, timeout=10
        )
        assert f"✅ {right[0]}." in revealed.text and f"✅ {right[1]}." in revealed.text
        counts = dict(zip("ABCD", shown_counts(revealed), strict=True))
        assert counts == {letter: int(letter in right + wrong) for letter in "ABCD"}
        assert "2 answers" in revealed.text  # members, not selections
        await group.wait_for(lambda m: "finished" in m.text, timeout=15)


def _index(question: EmuMessage, quiz: Quiz, letter: str) -> int:
    """The option index shown at `letter` in the group question (its text found in the quiz)."""
    text = next(
        line[3:].strip() for line in question.text.splitlines() if line.startswith(f"{letter}. ")
    )
    options = quiz.questions[0].options
    return next(i for i, o in enumerate(options) if o.text.get("en").replace("`", "") == text)


def _id(question: EmuMessage, quiz: Quiz, letter: str) -> str:
    return quiz.questions[0].options[_index(question, quiz, letter)].id


def _mask(question: EmuMessage, quiz: Quiz, letters: str) -> int:
    return sum(1 << _index(question, quiz, letter) for letter in letters)


async def _private_message(user: SimUser) -> EmuMessage:
    """A message in the user's private chat with the bot (its answer to /help)."""
    mark = user.private.mark()
    await user.send("/help")
    return await user.private.next_message(after=mark)


async def test_groupstats_names_a_wrong_option_a_partly_right_set_chose(tmp_path: Path) -> None:
    """A set with a right and a wrong option (a + d): its wrong one is the most chosen wrong
    answer, not its first option (which is right); the share right counts exact sets."""
    async with group_bot(tmp_path, seconds=2.0) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        awa = h.emu.user(2101, "Awa", language_code="en")
        group.add_member(awa)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        letter = {quiz.questions[0].options[_index(q1, quiz, x)].id: x for x in "ABCD"}
        await answer_select_all(awa, q1, letter["a"] + letter["d"])
        await answer_select_all(admin, q1, letter["a"] + letter["c"])
        await group.wait_for(lambda m: "finished" in m.text, timeout=15)
        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        stats = await group.wait_for(lambda m: "most chosen wrong" in m.text, after=mark)
        wrong = "It leaves BatchNorm's running statistics as they… (1)"
        assert f"most chosen wrong answer: {wrong}" in stats.text
        assert "50% right, of 2 answers" in stats.text
