"""Forum topics (issue 27): a run belongs to the topic it was pushed in, two topics play at once,
replies go to the topic they answer, and a closed topic ends its run or tells the admins once.

Every send of a run carries its topic's `message_thread_id` (the emulator refuses an unknown or
closed thread, and one in General, as Telegram does); edits name a message, so the edited
message's topic is checked instead."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.core.bidi import FSI, PDI
from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, right_position, schedule_jobs
from tests.e2e.harness import Harness
from tests.e2e.uploads_kit import GIFT

OTHER = "gradient-checkpointing"
FORUM = -1001234567
RLO = "\u202e"


async def make_forum(h: Harness) -> tuple[ChatView, SimUser, int, int]:
    """A supergroup with topics, the bot in it, and two topics: Quizzes and Maths."""
    admin = h.emu.user(1001, "Ada", language_code="en")
    group = h.emu.group(FORUM, "Study forum", type="supergroup", forum=True)
    group.add_member(admin, "creator")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)  # the how-to, in General
    return group, admin, group.create_topic("Quizzes", by=admin), group.create_topic("Maths")


def sends_to(h: Harness, chat_id: int, since: int) -> list[dict[str, object]]:
    return [
        p
        for p in h.emu.calls("sendMessage")[since:] + h.emu.calls("sendPhoto")
        if int(str(p["chat_id"])) == chat_id
    ]


async def question(group: ChatView, n: int, thread: int | None) -> EmuMessage:
    return await group.wait_for(lambda m: f"Question {n}/2" in m.text and m.thread_id == thread)


async def test_two_topics_play_at_once_each_in_its_own_topic_also_after_a_restart(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=2, clock_timers=True) as h:
        quiz, other = h.catalog.quiz(QUIZ), h.catalog.quiz(OTHER)
        assert quiz is not None and other is not None
        group, admin, a, b = await make_forum(h)
        awa, bintou, cheikh = (
            h.emu.user(2001 + i, n) for i, n in enumerate(["Awa", "Bintou", "Cheikh"])
        )
        for member in (awa, bintou, cheikh):
            group.add_member(member)
        mark, since = group.mark(), len(h.emu.calls("sendMessage"))

        await admin.send(f"/push {QUIZ}", chat=group, thread=a)
        qa = await question(group, 1, a)
        await admin.send(f"/push {OTHER}", chat=group, thread=b)
        qb = await question(group, 1, b)
        mark_busy = group.mark()
        await admin.send(f"/push {OTHER}", chat=group, thread=a)  # one run per topic
        busy = await group.wait_for(lambda m: "already running" in m.text, after=mark_busy)
        assert busy.thread_id == a
        assert sorted(h.rows("SELECT thread_id FROM attempts WHERE status = 'active'")) == [
            (a,),
            (b,),
        ]

        right_a, right_b = right_position(qa, quiz, 0), right_position(qb, other, 0)
        await awa.tap(qa, LETTERS[right_a])
        await bintou.tap(qa, LETTERS[(right_a + 1) % 4])
        await bintou.tap(qb, LETTERS[right_b])
        await h.restart_bot()  # mid-run: each run resumes in its own topic
        await cheikh.tap(qb, LETTERS[right_b])
        await h.advance(2)  # a question's time: both topics' deadlines pass

        for q, thread in ((qa, a), (qb, b)):
            revealed = await group.wait_for(
                lambda m, q=q: m.message_id == q.message_id and m.edited
            )
            assert revealed.thread_id == thread and not revealed.buttons
        qa2, qb2 = await question(group, 2, a), await question(group, 2, b)
        await awa.tap(qa2, LETTERS[right_position(qa2, quiz, 1)])
        await cheikh.tap(qb2, LETTERS[right_position(qb2, other, 1)])
        await h.advance(2)
        board_a = await group.wait_for(
            lambda m: "finished" in m.text and m.thread_id == a, timeout=8
        )
        board_b = await group.wait_for(
            lambda m: "finished" in m.text and m.thread_id == b, timeout=8
        )
        assert quiz.title.get("en") in board_a.text and other.title.get("en") in board_b.text
        assert board_a.text.index("Awa") < board_a.text.index("Bintou")  # 2/2 before 0/2
        assert "Cheikh" not in board_a.text and "Awa" not in board_b.text
        assert board_b.text.index("Cheikh") < board_b.text.index("Bintou")  # 2/2 before 1/2

        # Nothing of either run landed in General; every send named its topic.
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert posted and {m.thread_id for m in posted} == {a, b}
        assert {p.get("message_thread_id") for p in sends_to(h, FORUM, since)} == {a, b}
        for edit in h.emu.calls("editMessageText"):
            assert group.message(int(str(edit["message_id"]))).thread_id in (a, b)
        assert h.rows("SELECT status FROM attempts ORDER BY id") == [("finished",)] * 2

        # Standings are the group's, whichever topic played: /top in Maths counts both runs.
        mark = group.mark()
        await admin.send("/top", chat=group, thread=b)
        top = await group.wait_for(lambda m: "Awa" in m.text, after=mark)
        assert top.thread_id == b and "Cheikh" in top.text
        for command, says in (("/groupstats", "Group statistics"), ("/settings", "Answer popups")):
            mark = group.mark()
            await admin.send(command, chat=group, thread=a)
            answer = await group.wait_for(lambda m, says=says: says in m.text, after=mark)
            assert answer.thread_id == a, command


@pytest.mark.parametrize("forum", [True, False])
async def test_push_in_general_or_without_topics_names_no_thread(
    tmp_path: Path, forum: bool
) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=1, clock_timers=True) as h:
        if forum:
            group, admin, _, _ = await make_forum(h)
        else:  # a supergroup without topics
            admin = h.emu.user(1001, "Ada", language_code="en")
            group = h.emu.group(FORUM, "Plain supergroup", type="supergroup")
            group.add_member(admin, "creator")
            await h.emu.add_bot_to_group(group, by=admin)
            await group.wait_for(lambda m: "/push" in m.text)
        mark, since = group.mark(), len(h.emu.calls("sendMessage"))
        await admin.send(f"/push {QUIZ}", chat=group)
        await h.next_timer()
        await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=5)
        sent = sends_to(h, FORUM, since)
        assert len(sent) >= 3 and all("message_thread_id" not in p for p in sent)
        assert all(m.thread_id is None for m in group.bot_messages)


@pytest.mark.parametrize("gone", ["closed", "deleted"])
async def test_a_topic_closed_mid_run_ends_the_run_with_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, gone: str
) -> None:
    async with group_bot(tmp_path, seconds=1, clock_timers=True) as h:
        group, admin, a, _ = await make_forum(h)
        await admin.send(f"/push {QUIZ}", chat=group, thread=a)
        q1 = await question(group, 1, a)
        if gone == "closed":
            group.close_topic(a)
        else:  # with its messages: the reveal's edit finds no message, its post no thread
            group.delete_topic(a)
        caplog.clear()
        with caplog.at_level(logging.INFO):
            # Q1's time is up: its reveal, then Q2 into the gone topic; the firing returns once
            # that step is done, so the run has ended by then.
            await h.next_timer()
            assert h.attempt_statuses() == [("abandoned",)]
            await h.advance(1.5)  # a question's time more: nothing retries
        if gone == "closed":
            assert group.message(q1.message_id).edited  # the reveal (an edit) still showed
        ended = [
            r for r in caplog.records if "ended" in r.getMessage() and "topic" in r.getMessage()
        ]
        assert len(ended) == 1, [r.getMessage() for r in caplog.records]
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
        refused = [p for p in h.emu.calls("sendMessage") if p.get("message_thread_id") == a]
        # The intro, question 1, then the one refused send (question 2, or the deleted topic's
        # reveal posted instead of the edit): no retry.
        assert len(refused) == 3
        assert all(m.thread_id is None for m in group.bot_messages if m.message_id > q1.message_id)


async def test_a_schedule_runs_in_its_topic_and_a_closed_one_is_told_once(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        assert h.bot is not None
        group, admin, a, _ = await make_forum(h)
        mark = group.mark()
        await admin.send("/schedule next weekdays 08:30", chat=group, thread=a)
        made = await group.next_message(after=mark)
        assert made.thread_id == a and f"in the topic {FSI}Quizzes{PDI}" in made.text
        mark = group.mark()
        await admin.send("/schedules", chat=group)  # asked in General: answered there
        listing = await group.next_message(after=mark)
        assert listing.thread_id is None and f"in the topic {FSI}Quizzes{PDI}" in listing.text
        assert f"https://t.me/c/1234567/{a}" in (listing.html or "")

        (job,) = schedule_jobs(h.bot)
        mark = group.mark()
        await job.run(h.bot.app)
        board = await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=5)
        assert board.thread_id == a

        group.close_topic(a)
        for _ in range(2):  # told once, in General, not at every firing
            await job.run(h.bot.app)
        told = [m for m in group.bot_messages if "could not run" in m.text]
        assert len(told) == 1 and told[0].thread_id is None
        assert "Schedule 1" in told[0].text and "/unschedule 1" in told[0].text
        assert h.schedule_topics_gone() == [(1,)]
        group.reopen_topic(a)
        mark = group.mark()
        await job.run(h.bot.app)
        await group.wait_for(lambda m: "finished" in m.text and m.thread_id == a, after=mark)
        assert h.schedule_topics_gone() == [(0,)]


async def test_a_renamed_topic_is_named_by_its_new_name(tmp_path: Path) -> None:
    """Every later message of a topic replies to the topic's creation, which keeps its FIRST
    name; the bot keeps the names it hears (the topic created, then renamed) instead. An icon
    change, closing and reopening leave the name as it is."""
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        group, admin, a, b = await make_forum(h)
        mark = group.mark()
        await admin.send("/schedule next weekdays 08:30", chat=group, thread=a)
        assert f"in the topic {FSI}Quizzes{PDI}" in (await group.next_message(after=mark)).text
        group.edit_topic(a, name="Exam prep", by=admin)
        group.edit_topic(a, icon_custom_emoji_id="5312536423851630001", by=admin)
        group.close_topic(a, by=admin)
        group.reopen_topic(a, by=admin)
        group.edit_topic(b, name="Algebra")  # by an anonymous admin; no schedule there yet
        mark = group.mark()
        await admin.send("/schedule random daily 19:00", chat=group, thread=b)
        made = await group.next_message(after=mark)
        assert made.thread_id == b and f"in the topic {FSI}Algebra{PDI}" in made.text, made.text

        await h.restart_bot()  # the names are kept in the store
        mark = group.mark()
        await admin.send("/schedules", chat=group)
        listing = await group.next_message(after=mark)
        assert f"in the topic {FSI}Exam prep{PDI}" in listing.text, listing.text
        assert f"in the topic {FSI}Algebra{PDI}" in listing.text
        assert "Quizzes" not in listing.text and "Maths" not in listing.text

        assert h.bot is not None
        (job,) = [j for j in schedule_jobs(h.bot) if j.name == "sched:1"]
        group.close_topic(a)
        await job.run(h.bot.app)
        told = await group.wait_for(lambda m: "could not run" in m.text, timeout=5)
        assert f"its topic {FSI}Exam prep{PDI} is closed" in told.text, told.text


async def test_topic_messages_from_a_forum_the_bot_has_no_record_of_are_taken_quietly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot is in a forum its store knows nothing of (a fresh database): a topic created,
    renamed, given an icon, closed and reopened is no error, and the bot says nothing."""
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        group, admin, _, _ = await make_forum(h)
        await h.stop_bot()
        for path in tmp_path.glob("quizbot.sqlite3*"):  # (a PostgreSQL run keeps its rows)
            path.unlink()
        await h.start_bot()
        shown = len(group.bot_messages)
        with caplog.at_level(logging.INFO):
            topic = group.create_topic("Reading", by=admin)
            group.edit_topic(topic, name="Reading club", by=admin)
            group.edit_topic(topic, icon_custom_emoji_id="5312536423851630001")
            group.close_topic(topic)
            group.reopen_topic(topic)
            mark = group.mark()
            await admin.send("/schedule next daily 07:00", chat=group, thread=topic)
            made = await group.next_message(after=mark)
        assert made.thread_id == topic and f"in the topic {FSI}Reading club{PDI}" in made.text, (
            made.text
        )
        assert len(group.bot_messages) == shown + 1
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


async def test_nobody_answering_stops_the_run_in_its_topic(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=4, clock_timers=True) as h:
        group, admin, a, _ = await make_forum(h)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group, thread=a)
        await h.next_timer()  # Q1's time is up, then a minute passes: Q2's too
        await h.advance(60)
        # The notice, not the results after it ("Nobody answered this time."): with time moved
        # by the test both are there at once, and the newest would match first.
        notice = await group.wait_for(
            lambda m: "Nobody answered the last" in m.text, after=mark, timeout=10
        )
        stopped = await group.wait_for(lambda m: "stopped" in m.text, after=mark, timeout=5)
        assert notice.thread_id == stopped.thread_id == a
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert len(posted) >= 4 and {m.thread_id for m in posted} == {a}


async def test_an_upload_in_a_topic_is_answered_there_and_its_push_plays_there(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=0.5, clock_timers=True) as h:
        group, admin, a, b = await make_forum(h)
        await admin.send_document(
            "ours.gift", GIFT.encode(), caption="/upload", chat=group, thread=b
        )
        summary = await group.wait_for(lambda m: "ours.gift is a sound quiz" in m.text, timeout=30)
        assert summary.thread_id == b
        mark = group.mark()
        await admin.tap(summary, "▶️ Push")  # the button's message is in Maths: the run too
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark, timeout=30)
        await h.next_timer()  # Q1's time is up, then Q2's
        await h.next_timer()
        await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=10)
        posted = [m for m in group.bot_messages if m.message_id >= mark.next_message_id]
        assert q1.thread_id == b and {m.thread_id for m in posted} == {b}
        assert not group.in_topic(a)


async def test_stop_where_no_quiz_runs_says_in_which_topic_one_does(tmp_path: Path) -> None:
    """An admin types /stop in General (or another topic) while the quiz plays in a topic: the
    bot said only "No quiz is running here.", with a quiz running a few taps away. It now
    names the topic, linked, and the run plays on."""
    async with group_bot(tmp_path, seconds=30) as h:
        group, admin, a, b = await make_forum(h)
        group.edit_topic(a, name="Exam prep", by=admin)
        await admin.send(f"/push {QUIZ}", chat=group, thread=a)
        await question(group, 1, a)
        for thread in (None, b):
            mark = group.mark()
            await admin.send("/stop", chat=group, thread=thread)
            said = await group.next_message(after=mark)
            assert said.thread_id == thread
            assert said.text == (
                f"No quiz is running here. One is running in the topic {FSI}Exam prep{PDI}: "
                "/stop there ends it."
            ), said.text
            link = f'<a href="https://t.me/c/1234567/{a}">{FSI}Exam prep{PDI}</a>'
            assert link in (said.html or "")
        assert h.attempt_statuses() == [("active",)]

        mark = group.mark()
        await admin.send(f"/push {OTHER}", chat=group)  # General plays too: named as such
        await question(group, 1, None)
        await admin.send("/stop", chat=group, thread=b)
        said = await group.wait_for(lambda m: "No quiz is running here" in m.text, after=mark)
        assert said.text == (
            "No quiz is running here. Quizzes are running in General and the topic "
            f"{FSI}Exam prep{PDI}: /stop in one of them ends its quiz."
        ), said.text


async def test_a_topic_name_with_a_direction_control_cannot_reorder_the_line(
    tmp_path: Path,
) -> None:
    """Members may create and name topics. A name ending in an unclosed RIGHT-TO-LEFT OVERRIDE
    (U+202E) reversed the rest of every line that named the topic, as a person's name once did:
    a topic's name is isolated like a person's (bot/core/bidi.py)."""
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        group, admin, a, _ = await make_forum(h)
        group.edit_topic(a, name="Drills" + RLO, by=admin)
        mark = group.mark()
        await admin.send("/schedule next weekdays 08:30", chat=group, thread=a)
        made = await group.next_message(after=mark)
        mark = group.mark()
        await admin.send("/schedules", chat=group)
        listing = await group.next_message(after=mark)
        for text in (made.text, listing.text):
            assert RLO not in text and f"in the topic {FSI}Drills{PDI}" in text, text
