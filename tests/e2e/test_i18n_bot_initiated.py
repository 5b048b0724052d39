"""What the bot sends on its own (a group run's review notice, the daily reminder, an exam's
time-out) speaks the learner's language when they never tapped the picker: their Telegram
language, as every reply to them does, not the bot's default."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group, right_position
from tests.e2e.harness import Harness, answer_current

DAY = 86_400.0


async def say(user: SimUser, text: str) -> EmuMessage:
    mark = user.private.mark()
    await user.send(text)
    return await user.private.next_message(after=mark)


async def play_with_misses(user: SimUser) -> None:
    """The quiz by its deep link (no picker), answering A and a number far off: some misses."""
    mark = user.private.mark()
    await user.send(f"/start {QUIZ}")
    while True:
        question = await user.private.next_message(after=mark)
        if not question.text.startswith(("Question", "Laaj")):
            return  # the score
        answered = await answer_current(user, question, choice="A", typed="99999")
        mark = user.private.mark()
        await user.tap(answered, answered.buttons[0][0].text)


async def test_a_group_miss_notice_follows_the_members_telegram_language(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        lamine = h.emu.user(2202, "Lamine", language_code="fr")
        group.add_member(lamine)
        picker = await say(lamine, "/start")  # he starts the bot, and leaves the picker be
        assert [b.text for row in picker.buttons for b in row][1] == "✓ Français"

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        await lamine.tap(q1, LETTERS[(right_position(q1, quiz, 0) + 1) % 4])
        mark = lamine.private.mark()
        await admin.send("/stop", chat=group)
        notice = await lamine.private.next_message(after=mark)
        assert "rejoint votre file de révision" in notice.text, notice.text


async def test_the_daily_reminder_follows_the_learners_telegram_language(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    awa = harness.emu.user(6201, "Awa", language_code="wo")
    await play_with_misses(awa)
    assert "fàttali" in (await say(awa, "/remind on 08:00")).text
    harness.clock.advance(DAY)
    mark = awa.private.mark()
    assert await harness.bot.reminder_handlers.send_reminder(awa.id)
    nudge = await awa.private.next_message(after=mark)
    assert nudge.text.startswith("⏰ Laaj yi war a xoolaat:"), nudge.text
    assert [b.text for row in nudge.buttons for b in row] == ["🔁 Tàmbali xoolaat bi"]


async def test_an_exam_time_out_follows_the_learners_telegram_language(harness: Harness) -> None:
    h = harness
    user = h.emu.user(6203, "Claire", language_code="fr")
    await say(user, "/start")  # Telegram's Start button; the picker is left untapped
    mark = user.private.mark()
    await user.send(f"/exam {QUIZ}")  # French, from Telegram's language
    choice = await user.private.next_message(after=mark)
    mark = user.private.mark()
    await user.tap(choice, "30\u00a0s par question")
    await user.private.next_message(after=mark)
    await h.stop_bot()
    h.clock.advance(31)
    mark = user.private.mark()
    await h.start_bot()
    note = await user.private.wait_for(lambda m: m.text.startswith("⏰"), after=mark)
    second = await user.private.wait_for(lambda m: "2/" in m.text, after=mark)
    assert note.text.startswith("⏰ Temps écoulé pour la question 1"), note.text
    assert "Examen 2/" in second.text and "pour cette question" in second.text, second.text
