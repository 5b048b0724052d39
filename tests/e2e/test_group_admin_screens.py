"""What a group admin sees: quiz ids in /quiz, a running quiz named with /stop offered, the
closest id for a mistyped /push, results over the questions asked with no medal for 0 and a
labelled time column, /groupstats hardest first with ties named."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group, right_position


async def say(group: ChatView, admin: SimUser, text: str) -> str:
    mark = group.mark()
    await admin.send(text, chat=group)
    return (await group.next_message(after=mark)).text


async def test_quiz_ids_running_quiz_and_closest_id(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin = await make_group(h)
        for text in (await say(group, admin, "/quiz"), await say(group, admin, "/push")):
            for quiz in h.catalog:
                assert f"• {quiz.title.get('en')}: {quiz.id}" in text
            assert "/push <id>" in text
        typo = await say(group, admin, "/push gradient-acumulation")
        assert typo == (
            "I don't know the quiz gradient-acumulation. Did you mean /push "
            "gradient-accumulation? /quiz shows the list."
        )
        assert "Did you mean" not in await say(group, admin, "/push zzzz")
        assert h.attempt_count() == [(0,)]
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
        running = await say(group, admin, "/quiz")
        title = h.catalog.quizzes[QUIZ].title.get("en")
        assert (
            running
            == f"A quiz is running here: {title}. /stop ends it; then /quiz to pick another."
        )


async def test_stopped_results_count_the_questions_asked(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        awa, bob = h.emu.user(2001, "Awa"), h.emu.user(2002, "Bob")
        for member in (awa, bob):
            group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        right = right_position(q1, quiz, 0)
        await awa.tap(q1, LETTERS[right])
        await bob.tap(q1, LETTERS[(right + 1) % 4])
        mark = group.mark()
        await admin.send("/stop", chat=group)
        results = await group.wait_for(lambda m: "stopped" in m.text, after=mark)
        lines = results.text.splitlines()
        assert "Scored over the 1 question asked, of 2." in lines
        assert "Right answers · total answer time (the faster wins a tie)" in lines
        first = next(line for line in lines if "Awa" in line)
        second = next(line for line in lines if "Bob" in line)
        assert first.startswith("🥇 \u2068Awa\u2069 · 1/1 · ⏱ ") and first.endswith(" s")
        assert second.startswith("2. \u2068Bob\u2069 · 0/1 · ⏱ "), second  # no medal for 0 points


async def test_groupstats_lists_the_hardest_first_and_names_ties(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.5, clock_timers=True) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        members = [h.emu.user(2001 + i, f"M{i}") for i in range(2)]
        for member in members:
            group.add_member(member)
        await admin.send(f"/push {QUIZ}", chat=group)
        # Question 1: one of two right (50 %); question 2: nobody right (0 %): 2 comes first.
        for index, rights in ((0, 1), (1, 0)):
            shown = await group.wait_for(lambda m, i=index: f"Question {i + 1}/2" in m.text)
            right = right_position(shown, quiz, index)
            for n, member in enumerate(members):
                await member.tap(shown, LETTERS[right if n < rights else (right + 1) % 4])
            await h.next_timer()  # the question's time is up
        await group.wait_for(lambda m: "finished" in m.text, timeout=10)
        other = next(q for q in h.catalog if q.id != QUIZ)
        await admin.send(f"/push {other.id}", chat=group)
        for index in range(2):  # both wrong: a tie at 0 %
            shown = await group.wait_for(
                lambda m, i=index: (
                    f"Question {i + 1}/2" in m.text
                    and m.buttons
                    and other.title.get("en") in m.text
                )
            )
            right = right_position(shown, other, index)
            await members[0].tap(shown, LETTERS[(right + 1) % 4])
            await h.next_timer()
        await group.wait_for(
            lambda m: "finished" in m.text and other.title.get("en") in m.text, timeout=10
        )
        report = await say(group, admin, "/groupstats")
        assert "Hardest questions first." in report
        first_quiz = report[report.index(quiz.title.get("en")) :]
        assert first_quiz.index("\n2. ") < first_quiz.index("\n1. ")
        assert "0% right, of 2 answers" in first_quiz and "50% right, of 2 answers" in first_quiz
        second_quiz = report[report.index(other.title.get("en")) :]
        assert "as hard as question 2" in second_quiz and "as hard as question 1" in second_quiz


async def test_a_run_nobody_answers_stops_after_two_questions(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=4, clock_timers=True) as h:
        group, admin = await make_group(h)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        await h.next_timer()  # Q1's time is up, then a minute passes: Q2's too
        await h.advance(60)
        # The notice, not the results after it ("Nobody answered this time."): with time moved
        # by the test both are there at once, and the newest would match first.
        notice = await group.wait_for(
            lambda m: "Nobody answered the last" in m.text, after=mark, timeout=10
        )
        assert notice.text == (
            "⏹ Nobody answered the last two questions, so the quiz stops here. /push to play again."
        )
        results = await group.wait_for(lambda m: "stopped" in m.text, after=mark, timeout=5)
        assert "Scored over the 2 questions asked, of 4." in results.text
        assert "Nobody answered this time." in results.text
        assert not any("Question 3/4" in m.text for m in group.bot_messages)
        assert h.attempt_statuses() == [("abandoned",)]
        mark = group.mark()  # the group can play again at once
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: "Question 1/4" in m.text, after=mark)
