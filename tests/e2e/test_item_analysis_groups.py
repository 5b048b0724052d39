"""Item analysis through the emulator: 25 members play a group run of a test quiz whose second
question is keyed on a wrong option (tests/item_tables.py); /groupstats then lists that question
first among the questions to check, as probably mis-keyed, with the figures behind it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bot.core.markup import plain
from bot.core.models import Question
from bot.emulator import Emulator
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import LETTERS, GroupHarness, make_group
from tests.e2e.harness import TOKEN
from tests.item_tables import MEMBERS, MISKEYED, QUESTIONS, QUIZ, TRUE_KEY, choice, miskeyed_catalog

SECONDS = 8.0  # per question, on the fake clock: the deadline comes when the test moves it


def letter(message: EmuMessage, question: Question, option: int) -> str:
    """The letter the shown question gives option `option` (options are shuffled per run)."""
    text = plain(question.options[option].text.get("en"))
    for line in message.text.splitlines():
        if line[:2] in {f"{c}." for c in LETTERS} and line[3:].strip() == text:
            return line[0]
    raise AssertionError(f"{text!r} not in:\n{message.text}")


def shows(text: str) -> Callable[[EmuMessage], bool]:
    return lambda message: text in message.text


async def test_groupstats_flags_the_miskeyed_question_after_25_members(tmp_path: Path) -> None:
    catalog = miskeyed_catalog()
    quiz = catalog.quizzes[QUIZ]
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(
            emu, tmp_path / "quizbot.sqlite3", catalog, seconds=SECONDS, clock_timers=True
        )
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            members = [h.emu.user(3000 + k, f"M{k}", language_code="en") for k in range(MEMBERS)]
            for member in members:
                group.add_member(member)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            for index, question in enumerate(quiz.questions):
                shown = await group.wait_for(
                    shows(f"Question {index + 1}/{QUESTIONS}"), after=mark, timeout=SECONDS + 20
                )
                mark = group.mark()
                picks = [letter(shown, question, choice(k, index, question.correct))
                         for k in range(MEMBERS)]  # fmt: skip
                popups = await asyncio.gather(
                    *(m.tap(shown, pick) for m, pick in zip(members, picks, strict=True))
                )
                assert all(p is not None for p in popups)  # every tap was answered
                await h.next_timer()  # the question's time is up (the fake clock: no waiting)
            await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=30)
            answers = h.rows("SELECT count(*) FROM answers WHERE user_id >= 3000")
            assert answers == [(MEMBERS * QUESTIONS,)]  # every tap in its window

            mark = group.mark()
            await admin.send("/groupstats", chat=group)
            stats = await group.wait_for(lambda m: "Group statistics" in m.text, after=mark)
        finally:
            await h.stop_bot()
    text = stats.text
    assert "Questions to check first" in text
    flagged = text[text.index("Questions to check first") : text.index("Hardest questions first")]
    wrong = quiz.questions[MISKEYED]
    first = flagged.splitlines()[1]  # the first flagged question: the mis-keyed one
    assert f"· {MISKEYED + 1}. " in first and plain(wrong.prompt.get("en"))[:30] in first
    assert "probably mis-keyed: members who do well on the rest of the quiz" in flagged
    truth = plain(wrong.options[TRUE_KEY].text.get("en"))
    assert f"the strongest members choose “{truth}” (100%) more than the key (0%)" in flagged
    assert flagged.count("probably mis-keyed") == 2  # both reasons, for that question only
    # The per-question figures are shown too, and the existing lines are still there.
    assert "discrimination -0." in text and "25 answers" in text and "by language:" in text
