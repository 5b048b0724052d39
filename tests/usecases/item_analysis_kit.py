"""A group run played on a real store for item-analysis tests: every member's answers, at a fixed
time. Shared by the use-case, dashboard and stats-CLI tests, so no test imports another."""

from __future__ import annotations

from bot.store import GroupStore
from bot.store.interface import Engine
from tests.item_tables import MISKEYED, QUESTIONS, QUIZ, choice, miskeyed_catalog

CHAT = -100
NOW = 1_800_000_000.0


async def run_quiz(db: Engine, members: int, at: float, flip: bool = False) -> None:
    """One group run where `members` answer every question as `choice` says (`flip`: the other
    way round on the mis-keyed question)."""
    quiz = miskeyed_catalog().quizzes[QUIZ]
    groups = GroupStore(db)
    await groups.ensure_group(CHAT, "Study", "en", 30, "UTC", at)
    run_id = await groups.start_run(
        CHAT, 1, QUIZ, "[" + ",".join(["[0,1,2,3]"] * QUESTIONS) + "]", 30.0, at
    )
    assert run_id is not None
    for index, question in enumerate(quiz.questions):
        await groups.open_question(run_id, index, at, at + 30)
        for k in range(members):
            option = choice(k, index, question.correct)
            if flip and index == MISKEYED:
                option = question.correct
            await groups.record_answer(
                run_id, index, 5000 + k, f"M{k}", "en", option, option == question.correct, "en",
                at + 1, 1000, question_id=question.id, option_id=question.options[option].id,
                version="v1",
            )  # fmt: skip
        assert await groups.close_question(run_id, index)
    assert await groups.finish_run(run_id, "finished", at + 2)
