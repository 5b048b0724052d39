"""/forget: after a confirmation bound to the learner's own private chat, everything the bot
keeps about them is deleted; their group answers stay counted under a pseudonym. The operator's
`quizbot forget USER_ID` does the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import forget as forget_cli
from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import (
    LETTERS,
    QUIZ,
    GroupHarness,
    group_bot,
    make_group,
    right_position,
)
from tests.e2e.harness import answered

LEARNER, OTHER = 3001, 3002


async def _leave_traces(h: GroupHarness, learner: SimUser, group: ChatView, admin: SimUser) -> None:
    """A private quiz with a wrong answer (review queue), a time zone and a reminder in it, and
    a group run."""
    chat = learner.private
    await learner.send("/start")
    await learner.send("/language")
    mark = chat.mark()
    await learner.send(f"/start {QUIZ}")
    question = await chat.wait_for(lambda m: "1/2" in m.text, after=mark)
    quiz = h.catalog.quizzes[QUIZ]
    for index in range(2):  # the first answer wrong (a miss for the review queue)
        right = right_position(question, quiz, index)
        mark = chat.mark()
        await learner.tap(question, LETTERS[(right + 1) % 4 if index == 0 else right])
        explanation = await answered(chat, question, mark)
        mark = chat.mark()
        await learner.tap(explanation, explanation.buttons[0][0].text)
        if index == 0:
            question = await chat.wait_for(lambda m: "2/2" in m.text, after=mark)
    await chat.wait_for(lambda m: "Quiz finished" in m.text, after=mark)  # the last tap's result
    mark = chat.mark()
    await learner.send("/review")  # moves the miss from the inbox into the review queue
    await chat.next_message(after=mark)
    mark = chat.mark()
    await learner.send("/practice")  # a practice set: the set and the questions seen
    chooser = await chat.next_message(after=mark)
    mark = chat.mark()
    await learner.tap(chooser, "▶️ Start")
    await chat.next_message(after=mark)
    mark = chat.mark()
    await learner.send("/timezone Europe/Paris")
    await chat.next_message(after=mark)
    mark = chat.mark()
    await learner.send("/remind on 07:30")
    await chat.next_message(after=mark)
    group.add_member(learner)
    mark = group.mark()
    await admin.send(f"/push {QUIZ}", chat=group)
    for index in (1, 2):
        asked = await group.wait_for(lambda m, i=index: f"Question {i}/2" in m.text, after=mark)
        await learner.tap(asked, "A")
    await group.wait_for(lambda m: m.text.startswith("🏁"), timeout=10)
    await h.emu.member_leaves(group, learner)  # a departure the standings remember
    for _ in range(200):
        if h.rows("SELECT count(*) FROM group_members WHERE user_id = ?", learner.id) == [(1,)]:
            break
        await asyncio.sleep(0.025)


def _kept(h: GroupHarness, traces: dict[str, int] | None = None) -> dict[str, int]:
    """The traces that cannot change by themselves (group misses reach the review queue in the
    background after a run, so its size may still grow)."""
    traces = traces if traces is not None else h.traces_of(LEARNER)
    return {k: v for k, v in traces.items() if k != "review_items"} | {
        "review_items": int(traces["review_items"] > 0)
    }


async def test_forget_after_confirmation_deletes_the_learner_and_keeps_group_counts(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        learner, other = h.emu.user(LEARNER, "Awa"), h.emu.user(OTHER, "Bintou")
        await _leave_traces(h, learner, group, admin)
        before = h.traces_of(LEARNER)
        assert all(before.values()), before
        group_answers = h.rows(
            "SELECT count(*) FROM answers a JOIN attempts t ON t.id = a.attempt_id "
            "WHERE t.kind = 'group'"
        )

        mark = learner.private.mark()
        await learner.send("/forget")
        # Not the next message: a notice of the group run's misses may come first (background).
        confirm = await learner.private.wait_for(lambda m: "cannot be undone" in m.text, after=mark)
        data = confirm.buttons[0][0].callback_data
        assert data is not None and str(LEARNER) in data
        # The same data from someone else, or from a group, changes nothing.
        await other.send("/start")
        refused = await other.tap(confirm, callback_data=data)
        assert refused is not None and "expired" in (refused.text or "")
        refused = await learner.tap(group.last or confirm, callback_data=data)
        assert _kept(h) == _kept(h, before)
        # Cancel keeps everything.
        mark = learner.private.mark()
        await learner.tap(confirm, "Cancel")
        await learner.private.wait_for(lambda m: "Nothing was deleted" in m.text)
        assert _kept(h) == _kept(h, before)

        await learner.send("/forget")
        confirm = await learner.private.wait_for(lambda m: bool(m.buttons), after=mark)
        await learner.tap(confirm, "Delete my data")
        await learner.private.wait_for(lambda m: "forgotten you" in m.text)
        assert h.traces_of(LEARNER) == dict.fromkeys(before, 0)
        assert h.rows("SELECT count(*) FROM review_log WHERE user_id = ?", LEARNER) == [(0,)]
        # The group still counts their answers, under one pseudonym and no name.
        assert (
            h.rows(
                "SELECT count(*) FROM answers a JOIN attempts t ON t.id = a.attempt_id "
                "WHERE t.kind = 'group'"
            )
            == group_answers
        )
        [(pseudonyms, lowest)] = h.rows(
            "SELECT count(DISTINCT user_id), min(user_id) FROM answers WHERE user_id < 0"
        )
        assert pseudonyms == 1 and lowest < 0
        # their points in the group's standings stay too, under the same pseudonym
        assert h.rows("SELECT user_id FROM run_scores") == [(lowest,)]
        assert h.rows("SELECT count(*) FROM users WHERE id < 0") == [(0,)]
        assert h.bot is not None and h.bot.app.job_queue is not None
        assert not h.bot.app.job_queue.get_jobs_by_name(f"remind:{LEARNER}")
        # Coming back is starting afresh: the language picker, no quiz to continue.
        mark = learner.private.mark()
        await learner.send("/start")
        welcome = await learner.private.next_message(after=mark)
        assert "Continue" not in [b.text for row in welcome.buttons for b in row]
        mark = learner.private.mark()
        await learner.send("/timezone")  # the bot's default again
        assert "UTC" in (await learner.private.next_message(after=mark)).text


async def test_the_operator_command_does_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        learner = h.emu.user(LEARNER, "Awa")
        await _leave_traces(h, learner, group, admin)
        assert all(h.traces_of(LEARNER).values())
        await h.stop_bot()
    assert await asyncio.to_thread(forget_cli.main, [str(LEARNER), "--db", h.store]) == 0
    assert "group answers kept" in capsys.readouterr().out
    assert h.traces_of(LEARNER) == dict.fromkeys(h.traces_of(LEARNER), 0)
    assert forget_cli.main(["-5", "--db", h.store]) == 2
