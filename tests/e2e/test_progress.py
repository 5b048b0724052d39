"""Progress through the emulator: missed questions come back in /review when due (a controllable
clock) on the days FSRS schedules; /stats; reminders; a restart keeps it all."""

from __future__ import annotations

from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler

from bot.core.markup import plain
from tests.e2e.harness import Harness, answered
from tests.e2e.progress_kit import (
    DAY,
    LETTERS,
    QUIZ,
    is_card,
    question_in,
    review_once,
    right_letter,
    rows,
    take_quiz,
)


def fsrs_days(ratings: list[Rating]) -> list[int]:
    """The intervals the fsrs package itself gives a new card rated `ratings` in turn, each on
    its due day (UTC days, as the learner's zone is here): the oracle the bot must follow."""
    fsrs = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    day = datetime(2026, 1, 1, tzinfo=UTC)
    card, gaps = Card(1, due=day), []
    for rating in ratings:
        card, _ = fsrs.review_card(card, rating, day)
        gaps.append((card.due - day).days)
        day = card.due
    return gaps


async def test_missed_questions_come_back_on_fsrs_due_days(harness: Harness) -> None:
    """A learner misses two questions, then answers them right on each due day over simulated
    months: every due date is the one FSRS gives, the card predicts the recall, and a question
    answered right stays in the queue further and further out (FSRS never 'masters' one)."""
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3001, "Fatou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={1, 4})

    mark = chat.mark()
    await user.send("/review")
    empty = await chat.next_message(after=mark)
    assert "No reviews due" in empty.text and "next one" in empty.text
    assert [b.text for row in empty.buttons for b in row] == ["🎯 Practise my mistakes now"]

    rounds = 5
    expected = fsrs_days([Rating.Again] + [Rating.Good] * rounds)  # the miss, then right
    assert expected == sorted(expected) and expected[-1] > 30  # spaced further and further
    harness.clock.advance(DAY)
    served: list[set[int]] = []
    for round_number in range(rounds):
        mark = chat.mark()
        await user.send("/review")
        card = await chat.wait_for(lambda m: "Review" in m.text and is_card(m), after=mark)
        assert "You'd remember this ~" in card.text  # FSRS's predicted recall, today
        seen = {await review_once(user, chat, quiz), await review_once(user, chat, quiz)}
        served.append(seen)
        done = await chat.wait_for(lambda m: "Review done" in m.text, after=mark)
        assert "2 of 2 questions right" in done.text and "Next review:" in done.text
        # Due when the learner's day (UTC here) begins, FSRS's interval from today.
        (due,) = {d for (d,) in harness.due_dates()}
        today = harness.clock.now - harness.clock.now % DAY
        assert due == today + expected[round_number + 1] * DAY
        harness.clock.now = due - 1  # one second early: nothing yet
        mark = chat.mark()
        await user.send("/review")
        assert "No reviews due" in (await chat.next_message(after=mark)).text
        harness.clock.advance(1 + 3600 * round_number)
    assert served == [{1, 4}] * rounds
    assert rows(harness, "SELECT count(*) FROM review_items") == [(2,)]
    assert harness.review_log_tally() == [(10, 10)]
    # Every rating is logged for the optimiser: the two misses (Again), then ten Goods, timed.
    ratings = rows(harness, "SELECT rating, elapsed_ms IS NOT NULL FROM review_ratings")
    assert sorted(ratings) == [(1, 0)] * 2 + [(3, 1)] * 10


async def test_a_wrong_review_comes_back_the_next_day_and_survives_a_restart(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3002, "Ibou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={2})
    harness.clock.advance(DAY)
    await user.send("/review")
    assert await review_once(user, chat, quiz) == 2
    today = harness.clock.now - harness.clock.now % DAY
    assert harness.due_dates() == [(today + 2 * DAY,)]
    harness.clock.advance(3 * DAY)
    await harness.restart_bot()
    mark = chat.mark()
    await user.send("/review")
    await chat.next_message(after=mark)
    assert await review_once(user, chat, quiz, right=False) == 2
    today = harness.clock.now - harness.clock.now % DAY
    assert harness.due_dates() == [(today + DAY,)]  # Again
    # A forged or replayed review button changes nothing.
    (item_id,) = rows(harness, "SELECT id FROM review_items")[0]
    stale = await user.tap(chat.last, callback_data=f"rva:1:0:{item_id}:0123:0")
    assert stale is not None and "over" in (stale.text or "")


async def test_stats_show_scores_accuracy_and_streak(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3003, "Awa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0, 1})
    harness.clock.advance(DAY)
    await take_quiz(user, chat, quiz, miss={0, 1, 2, 3}, first=False)
    mark = chat.mark()
    await user.send("/stats")
    stats = await chat.next_message(after=mark)
    assert "Quizzes taken: 1" in stats.text
    total = len(quiz)
    assert f"best {total - 2}/{total}, last {total - 4}/{total}" in stats.text
    assert "Streak: 2 days" in stats.text
    right = 2 * total - 6
    assert f"{round(100 * right / (2 * total))}% of {2 * total} answers" in stats.text
    assert quiz.guide.url.get("en") in stats.html
    # Missed again today: all four are due tomorrow, none now.
    assert "Reviews due now: 0 (in your queue: 4)" in stats.text
    tomorrow = harness.clock.now - harness.clock.now % DAY + DAY
    assert f"Next review: {datetime.fromtimestamp(tomorrow, UTC):%b} " in stats.text
    # FSRS predicts full recall on the day of a miss (no day has elapsed since).
    assert "🧠 You'd remember your queue ~100% today (FSRS's prediction)." in stats.text


async def test_a_review_answer_is_timed_from_its_card(harness: Harness) -> None:
    """The round times each card from when it was shown to the tap: what rates Hard or Easy
    against the question's median, and what the rating log keeps for the optimiser."""
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None
    user = harness.emu.user(3005, "Ndeye", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={2})
    harness.clock.advance(DAY)
    await user.send("/review")
    card = await chat.wait_for(lambda m: "Review" in m.text and is_card(m))
    # A day after a first miss FSRS predicts ~77 % recall: (1 + 0.98 · 1 / 0.212) ** -0.1542.
    assert "🧠 You'd remember this ~77% today." in card.text
    harness.clock.advance(7.25)  # seconds spent on the card
    pos = right_letter(card, quiz, question_in(card, quiz))
    mark = chat.mark()
    await user.tap(card, LETTERS[pos])
    await answered(chat, card, mark)
    logged = rows(harness, "SELECT rating, elapsed_ms FROM review_ratings ORDER BY reviewed_at")
    assert logged == [(1, None), (3, 7250)]  # the quiz's miss, then Good (no median yet)


async def test_reminders_are_opt_in_sent_only_when_due_and_restored(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    user = harness.emu.user(3004, "Moussa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={5})
    mark = chat.mark()
    await user.send("/remind on 07:30")
    assert "7:30\u202fAM (UTC)" in (await chat.next_message(after=mark)).text
    jobs = harness.bot.app.job_queue
    assert jobs is not None and len(jobs.get_jobs_by_name("remind:3004")) == 1
    assert not await harness.bot.reminder_handlers.send_reminder(3004)  # nothing due yet
    harness.clock.advance(DAY)
    mark = chat.mark()
    assert await harness.bot.reminder_handlers.send_reminder(3004)
    nudge = await chat.next_message(after=mark)
    assert "1 question is due" in nudge.text
    mark = chat.mark()
    await user.tap(nudge, "🔁 Start the review")  # the reminder's button serves the question
    card = await chat.next_message(after=mark)
    assert plain(quiz.questions[5].prompt.get("en")) in card.text and card.buttons
    assert not chat.message(nudge.message_id).buttons  # a used button goes

    bot = await harness.restart_bot()
    assert bot.app.job_queue is not None
    assert len(bot.app.job_queue.get_jobs_by_name("remind:3004")) == 1
    mark = chat.mark()
    await user.send("/remind off")
    assert "off" in (await chat.next_message(after=mark)).text
    assert harness.reminder_count() == [(0,)]
    mark = chat.mark()
    await user.send("/remind sometimes")
    assert "/remind on" in (await chat.next_message(after=mark)).text


async def test_the_reminder_shows_the_streak_and_a_note_before_it_breaks(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    user = harness.emu.user(3005, "Fatou", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss=set())  # nothing to review, a streak of one day
    assert not await harness.bot.reminder_handlers.send_reminder(3005)  # done today: silent
    harness.clock.advance(DAY)  # nothing done yet today: the streak breaks tonight
    mark = chat.mark()
    assert await harness.bot.reminder_handlers.send_reminder(3005)
    note = await chat.next_message(after=mark)
    assert note.text == (
        "🔥 Your streak: 1 day. One quiz, /practice or /review today keeps it going."
    )
    harness.clock.advance(DAY)  # broken: no streak to save, nothing due, no message
    assert not await harness.bot.reminder_handlers.send_reminder(3005)


async def test_a_practice_answer_keeps_the_streak(harness: Harness) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    user = harness.emu.user(3006, "Ousmane", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss=set())
    harness.clock.advance(DAY)
    mark = chat.mark()
    await user.send("/practice")
    chooser = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(chooser, "▶️ Start")
    question = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(question, "A")
    await chat.wait_for(lambda m: "Practice 2/" in m.text, after=mark)  # the answer is stored
    assert not await harness.bot.reminder_handlers.send_reminder(3006)  # active today: silent
    stats_mark = chat.mark()
    await user.send("/stats")
    stats = await chat.wait_for(lambda m: "Your progress" in m.text, after=stats_mark)
    assert "Streak: 2 days" in stats.text
