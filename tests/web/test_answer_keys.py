"""Who sees the answer keys in the dashboard's quiz preview (issue 25, item 1), over HTTP with
signed initData, on both engines: the dashboard as `quizbot web` serves it (a store, the Bot API
emulator answering the admin checks), the learner's history made by the real use cases.

The preview is open to every learner: one in an exam, or a member during a group run, must not
read the key of the question in front of them. The bot's owners and a group's admins see every
key; a learner only those of questions whose verdict they were already shown.
"""

from __future__ import annotations

import random
import re

from bot.core.exam import ExamClock
from bot.core.review import encode_order
from bot.store import GroupStore, LearnerStore
from bot.store.practice_sets import PracticeStore
from bot.store.reviews import ReviewStore
from bot.store.selections import SelectionStore
from bot.usecases import group_answers as ga
from bot.usecases import group_runs as gr
from bot.usecases import private_quiz as pq
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.learner_profile import Learner
from bot.usecases.practice_outcomes import PracticeQuestion
from bot.usecases.practice_session import PracticeSession
from bot.usecases.spaced_review import SpacedReview
from bot.web.html_parts import rich
from tests.e2e.harness import FakeClock, shipped_catalog
from tests.web.world_kit import (
    ACCUMULATION,
    ADMIN,
    CHECKPOINTING,
    GROUP,
    LEARNER,
    OWNER,
    ROW,
    STRANGER,
    World,
    world,
)

__all__ = ["world"]  # the fixture, from world_kit


async def learner_history(db, clock: FakeClock) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The learner answers, through the use cases: checkpointing's first question in a private
    quiz; one practice question; accumulation's first question in an exam still running; and
    checkpointing's second question in a group run still running. What each question is."""
    catalog = shipped_catalog()
    private = pq.PrivateQuiz(catalog, LearnerStore(db), clock=clock, rng=random.Random(1))
    shown = await private.start(LEARNER, CHECKPOINTING)
    assert isinstance(shown, pq.ShowQuestion)
    assert isinstance(await private.answer(LEARNER, shown.attempt.id, 0, 0, "en"), pq.Answered)

    practice = PracticeSession(catalog, PracticeStore(db), ReviewStore(db), clock=clock,
                               rng=random.Random(7))  # fmt: skip
    drawn = await practice.start(LEARNER, set(), None, 5)
    assert isinstance(drawn, PracticeQuestion)
    await practice.answer(LEARNER, drawn.set_id, 0, 0)
    practised = drawn.quiz.id, drawn.question.id
    exam = await practice.start_exam(LEARNER, ACCUMULATION, ExamClock.PER_QUESTION, 30)
    assert isinstance(exam, PracticeQuestion)
    wrong = next(p for p, option in enumerate(exam.order) if option not in exam.question.key)
    await practice.answer(LEARNER, exam.set_id, 0, wrong)  # a miss, judged only at the end

    settings = GroupSettingsCases(GroupStore(db), clock=clock)
    runs = gr.GroupRuns(catalog, GroupStore(db), settings, clock=clock, rng=random.Random(5))
    started = await runs.start(GROUP, ADMIN, CHECKPOINTING)
    assert isinstance(started, gr.Started)
    run = await runs.open_question(started.run, 0)
    assert run is not None
    assert await runs.time_up(run.id, 0) is not None
    run = await runs.open_question(run, 1)
    assert run is not None
    member = Learner(LEARNER, "U", "en", None, "en")
    answers = ga.GroupAnswers(runs, SelectionStore(db), clock=clock)
    assert isinstance(await answers.tap(GROUP, run.id, 1, 0, member, "en"), ga.Answered)
    questions = {
        "private": f"{CHECKPOINTING}/{catalog.quizzes[CHECKPOINTING].questions[0].id}",
        "practice": "/".join(practised),
        "exam": f"{ACCUMULATION}/{exam.question.id}",
        "run": f"{CHECKPOINTING}/{catalog.quizzes[CHECKPOINTING].questions[1].id}",
        "run_id": str(run.id),
    }
    assert len({questions[k] for k in ("private", "practice", "exam", "run")}) == 4
    return questions


def shown_in(rows: dict[str, str], quiz_id: str, questions: dict[str, str]) -> set[str]:
    """Which of the learner's answers (by where they were given) show their key in `rows`."""
    where = ("private", "practice", "exam", "run")
    return {k for k in where if questions[k] in {f"{quiz_id}/{q}" for q in rows}}


async def test_a_learner_sees_only_the_keys_of_verdicts_already_shown(world: World, db) -> None:  # type: ignore[no-untyped-def]
    questions = await learner_history(db, world.clock)
    seen = set()
    for quiz_id in (ACCUMULATION, CHECKPOINTING):
        seen |= shown_in(await world.rows(quiz_id, LEARNER), quiz_id, questions)
        # Opened from the group's page: the learner is no admin there, the same keys.
        assert await world.rows(quiz_id, LEARNER, GROUP) == await world.rows(quiz_id, LEARNER)
    # The exam's question and the open group question stay hidden; the rest shows.
    assert seen == {"private", "practice"}
    right = shipped_catalog().quizzes[CHECKPOINTING].questions[0]
    (row,) = [
        html for q, html in (await world.rows(CHECKPOINTING, LEARNER)).items() if q == right.id
    ]
    assert row.count('class="ok"') == 3 and row.count('class="why"') == 3  # each language

    # The group run ends: its question's reveal was shown to everyone, so its key shows.
    settings = GroupSettingsCases(GroupStore(db), clock=world.clock)
    runs = gr.GroupRuns(shipped_catalog(), GroupStore(db), settings, clock=world.clock)
    await runs.stop(int(questions["run_id"]))
    assert "run" in shown_in(await world.rows(CHECKPOINTING, LEARNER), CHECKPOINTING, questions)


async def test_owners_and_the_groups_admins_see_every_key(world: World, db) -> None:  # type: ignore[no-untyped-def]
    for quiz in shipped_catalog().quizzes.values():
        every = {q.id for q in quiz.questions}
        assert set(await world.rows(quiz.id, OWNER)) == every
        assert set(await world.rows(quiz.id, ADMIN, GROUP)) == every
        assert set(await world.rows(quiz.id, ADMIN)) == set()  # not opened from the group
        assert set(await world.rows(quiz.id, STRANGER, GROUP)) == set()
        assert set(await world.rows(quiz.id, STRANGER, -100_999)) == set()  # no such group


async def test_a_hidden_questions_options_do_not_follow_the_authors_order(world: World) -> None:
    quiz = shipped_catalog().quizzes[ACCUMULATION]
    status, page = await world.get(f"/api/view?view=preview&quiz={quiz.id}", STRANGER)
    assert status == 200 and "outside an exam" in page
    for question_id, state, html in ROW.findall(page):
        question = next(q for q in quiz.questions if q.id == question_id)
        assert state == "hidden"
        english = re.findall(r"<li[^>]*><b>[A-J]\.</b> (.*?)</li>", html)[: len(question.options)]
        alphabetical = sorted(question.options, key=lambda o: o.text.get("en").casefold())
        assert english == [rich(o.text.get("en")) for o in alphabetical]


async def test_an_exams_miss_shows_its_key_once_reviewed(world: World, db) -> None:  # type: ignore[no-untyped-def]
    questions = await learner_history(db, world.clock)
    exam_question = questions["exam"].split("/")[1]
    catalog = shipped_catalog()
    # A new practice set ends the exam: its miss joins the review queue, its key stays hidden.
    practice = PracticeSession(catalog, PracticeStore(db), ReviewStore(db), clock=world.clock)
    assert isinstance(await practice.start(LEARNER, set(), None, 5), PracticeQuestion)
    assert exam_question not in await world.rows(ACCUMULATION, LEARNER)
    # Reviewed days later: the verdict is shown then, and so is the key.
    world.clock.advance(3 * 86_400)
    review = SpacedReview(catalog, ReviewStore(db), clock=world.clock, rng=random.Random(2))
    while (card := await review.next_card(LEARNER)) is not None:
        assert await review.answer(LEARNER, card.item_id, encode_order(card.order), 0)
        if card.question.id == exam_question:
            break
    assert card is not None, "the exam's miss never reached the review queue"
    assert exam_question in await world.rows(ACCUMULATION, LEARNER)


async def test_a_group_admin_in_an_exam_does_not_see_its_quizs_keys(world: World, db) -> None:  # type: ignore[no-untyped-def]
    """Anyone who adds the bot to a group of their own is its admin: opened from that group, the
    preview showed every key, the questions of the viewer's own running exam included. While
    the exam runs, its quiz's keys are a learner's (those of verdicts already shown); the other
    quizzes' keys still show, and every key comes back once the exam ends."""
    catalog = shipped_catalog()
    practice = PracticeSession(catalog, PracticeStore(db), ReviewStore(db), clock=world.clock,
                               rng=random.Random(7))  # fmt: skip
    exam = await practice.start_exam(ADMIN, ACCUMULATION, ExamClock.PER_QUESTION, 30)
    assert isinstance(exam, PracticeQuestion)
    assert exam.question.id not in await world.rows(ACCUMULATION, ADMIN, GROUP)
    assert await world.rows(ACCUMULATION, ADMIN, GROUP) == await world.rows(ACCUMULATION, ADMIN)
    every = {q.id for q in catalog.quizzes[CHECKPOINTING].questions}
    assert set(await world.rows(CHECKPOINTING, ADMIN, GROUP)) == every
    assert set(await world.rows(ACCUMULATION, OWNER)) == {
        q.id for q in catalog.quizzes[ACCUMULATION].questions
    }  # the owners are the content's authors

    await practice.stop_exam(ADMIN)
    every = {q.id for q in catalog.quizzes[ACCUMULATION].questions}
    assert set(await world.rows(ACCUMULATION, ADMIN, GROUP)) == every
