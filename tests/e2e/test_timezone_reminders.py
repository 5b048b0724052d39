"""A learner's own time zone (/timezone in private) and /remind in it, through the emulator:
valid and unknown zones (with the groups' suggestion), the reminder armed at the learner's local
time and re-armed when the zone changes, the reminder's button starting the review for its
owner only, forged zone buttons refused, and /remind's errors in English and French.

Reminder moments are read from the armed job (PTB's `Job.next_t`) and the reminder is fired by
running that job (`Job.run`): no wall-clock waits.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from telegram.ext import Job

from bot.core.markup import plain
from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness
from tests.e2e.progress_kit import QUIZ, take_quiz

DAY = 86_400.0
NNBSP = "\u202f"


async def say(user: SimUser, text: str) -> EmuMessage:
    chat = user.private
    mark = chat.mark()
    await user.send(text)
    return await chat.next_message(after=mark)


def reminder_job(h: Harness, user_id: int) -> Job:  # type: ignore[type-arg]
    assert h.bot is not None and h.bot.app.job_queue is not None
    (job,) = h.bot.app.job_queue.get_jobs_by_name(f"remind:{user_id}")
    return job


def local_fire_time(job: Job, zone: str) -> tuple[int, int]:  # type: ignore[type-arg]
    assert job.next_t is not None
    moment: datetime = job.next_t.astimezone(ZoneInfo(zone))
    return moment.hour, moment.minute


def labels(message: EmuMessage) -> list[str]:
    return [b.text for row in message.buttons for b in row]


async def test_timezone_shows_the_default_then_sets_a_valid_zone(harness: Harness) -> None:
    user = harness.emu.user(6101, "Awa", language_code="en")
    shown = await say(user, "/timezone")
    assert shown.text.startswith("🌍 Your time zone: UTC (it is ")
    assert "not chosen one yet" in shown.text
    assert labels(shown) == [
        "Africa/Dakar", "Europe/Paris", "Europe/London", "America/New_York", "✅ UTC",
    ]  # fmt: skip

    done = await say(user, "/timezone Europe/Paris")
    assert done.text.startswith("🌍 Time zone set to Europe/Paris (it is ")
    assert harness.learner_timezone(6101) == [("Europe/Paris",)]
    shown = await say(user, "/timezone")
    assert "Your time zone: Europe/Paris" in shown.text and "not chosen" not in shown.text
    assert "✅ Europe/Paris" in labels(shown)

    # A button sets a zone too, editing the /timezone message in place.
    mark = user.private.mark()
    await user.tap(shown, "Africa/Dakar")
    edited = await user.private.wait_for(
        lambda m: m.message_id == shown.message_id and m.edited, after=mark
    )
    assert edited.text.startswith("🌍 Time zone set to Africa/Dakar") and not edited.buttons
    assert harness.learner_timezone(6101) == [("Africa/Dakar",)]


async def test_an_unknown_zone_gets_a_suggestion_and_changes_nothing(harness: Harness) -> None:
    user = harness.emu.user(6102, "Claire", language_code="fr")
    await say(user, "/start")
    suggested = await say(user, "/timezone europe/paris")
    assert suggested.text == (
        f"Fuseau horaire inconnu\u00a0: europe/paris. Vouliez-vous dire Europe/Paris{NNBSP}?"
    )
    nothing = await say(user, "/timezone Mars/Olympus")
    assert nothing.text.startswith("Fuseau horaire inconnu") and "Africa/Dakar" in nothing.text
    assert "Africa/Dakar" in labels(nothing)  # no suggestion: the common zones as buttons
    assert harness.learner_timezone(6102) == [(None,)]

    # The suggestion is a button that sets it; a forged zone in the same data is refused.
    assert labels(suggested) == ["Europe/Paris"]
    data = suggested.buttons[0][0].callback_data
    assert data == f"tzs:{user.id}:Europe/Paris"
    refused = await user.tap(suggested, callback_data=f"tzs:{user.id}:Mars/Olympus")
    assert refused is not None and refused.text.startswith(
        "Fuseau horaire inconnu\u00a0: Mars/Olympus."
    )
    intruder = harness.emu.user(6110, "Intruder", language_code="en")
    assert (await intruder.tap(suggested, callback_data=data)) is not None
    assert harness.rows("SELECT timezone FROM users WHERE timezone IS NOT NULL") == []
    mark = user.private.mark()
    await user.tap(suggested, "Europe/Paris")
    done = await user.private.wait_for(
        lambda m: m.message_id == suggested.message_id and m.edited, after=mark
    )
    assert done.text.startswith("🌍 Fuseau horaire réglé sur Europe/Paris (il y est ")
    assert harness.learner_timezone(6102) == [("Europe/Paris",)]


async def test_the_reminder_fires_at_the_learners_local_time_and_follows_the_zone(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    user = harness.emu.user(6103, "Moussa", language_code="en")
    chat = user.private
    await take_quiz(user, chat, quiz, miss={0})
    await say(user, "/timezone Europe/Paris")
    on = await say(user, "/remind on 18:30")
    assert on.text.startswith(f"⏰ Daily reminder on, at 6:30{NNBSP}PM (Europe/Paris)")
    assert local_fire_time(reminder_job(harness, user.id), "Europe/Paris") == (18, 30)
    assert harness.reminder_zones() == [("18:30", "Europe/Paris")]
    current = await say(user, "/remind")
    assert f"on, at 6:30{NNBSP}PM (Europe/Paris)" in current.text

    # A new zone keeps the local time: 18:30 in New York now, one job still.
    moved = await say(user, "/timezone America/New_York")
    assert f"stays at 6:30{NNBSP}PM, now in America/New_York" in moved.text
    assert local_fire_time(reminder_job(harness, user.id), "America/New_York") == (18, 30)
    assert harness.reminder_zones() == [("18:30", "America/New_York")]

    # Nothing due today: the job runs and says nothing.
    mark = chat.mark()
    await reminder_job(harness, user.id).run(harness.bot.app)
    # The next day the miss is due: the same job sends the reminder with its button.
    harness.clock.advance(DAY)
    await reminder_job(harness, user.id).run(harness.bot.app)
    nudge = await chat.next_message(after=mark)
    assert nudge.text.startswith("⏰ 1 question is due for review.")
    assert "🧠 The shakiest one: you'd remember it ~77% today." in nudge.text  # FSRS, a day on
    assert labels(nudge) == ["🔁 Start the review"]

    # After a restart the job is armed again, in the learner's zone.
    await harness.restart_bot()
    assert local_fire_time(reminder_job(harness, user.id), "America/New_York") == (18, 30)


async def test_the_reminders_button_starts_the_review_for_its_owner_only(
    harness: Harness,
) -> None:
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    owner = harness.emu.user(6104, "Fatou", language_code="en")
    intruder = harness.emu.user(6105, "Intruder", language_code="en")
    await take_quiz(owner, owner.private, quiz, miss={0})
    await take_quiz(intruder, intruder.private, quiz, miss={1})
    await say(owner, "/remind on 08:00")
    harness.clock.advance(DAY)
    mark = owner.private.mark()
    assert await harness.bot.reminder_handlers.send_reminder(owner.id)
    nudge = await owner.private.next_message(after=mark)
    data = nudge.buttons[0][0].callback_data
    assert data == f"rmr:{owner.id}"

    def state() -> tuple[object, ...]:
        return (
            harness.rows("SELECT * FROM review_items ORDER BY id"),
            len(owner.private.messages),
            len(intruder.private.messages),
        )

    before = state()
    # Another user's tap on the owner's reminder, and the owner's data replayed in their chat.
    for message in (nudge, intruder.private.bot_messages[-1]):
        refused = await intruder.tap(message, callback_data=data)
        assert refused is not None and refused.text == (
            "This reminder is not yours. /review starts your own review."
        )
    assert state() == before and owner.private.message(nudge.message_id).buttons

    # The owner's tap serves the first due question, as /review does, and the button goes.
    mark = owner.private.mark()
    await owner.tap(nudge, "🔁 Start the review")
    card = await owner.private.next_message(after=mark)
    assert plain(quiz.questions[0].prompt.get("en")) in card.text and card.buttons
    assert not owner.private.message(nudge.message_id).buttons


async def test_a_suggested_zone_is_one_the_button_then_sets(harness: Harness) -> None:
    """'/timezone Factory' or 'est5edt' suggested a zoneinfo name the setter refuses, and the
    refusal said "This button is not yours": now only accepted zones are suggested, and a
    refused zone is named as unknown."""
    user = harness.emu.user(6111, "Moussa", language_code="en")
    for typed in ("Factory", "est5edt", "zulu"):
        reply = await say(user, f"/timezone {typed}")
        assert reply.text.startswith(f"Unknown time zone: {typed}.")
        if len(labels(reply)) != 1:  # no suggestion: the common zones, all accepted
            assert labels(reply)[0] == "Africa/Dakar"
            continue
        (suggestion,) = labels(reply)
        mark = user.private.mark()
        await user.tap(reply, suggestion)
        done = await user.private.wait_for(
            lambda m, r=reply: m.message_id == r.message_id and m.edited, after=mark
        )
        assert done.text.startswith(f"🌍 Time zone set to {suggestion}")
        assert harness.learner_timezone(6111) == [(suggestion,)]
    refused = await user.tap(reply, callback_data=f"tzs:{user.id}:Factory")
    assert refused is not None and refused.text.startswith("Unknown time zone: Factory.")
    assert "not yours" not in refused.text


async def test_a_zone_button_works_for_its_owner_only(harness: Harness) -> None:
    owner = harness.emu.user(6106, "Ibou", language_code="en")
    intruder = harness.emu.user(6107, "Intruder", language_code="en")
    shown = await say(owner, "/timezone")
    own = await say(intruder, "/timezone")
    paris = shown.buttons[0][1].callback_data
    assert paris == f"tz:{owner.id}:1"
    for message, data in ((shown, paris), (own, paris)):
        refused = await intruder.tap(message, callback_data=data)
        assert refused is not None
        assert refused.text == "This button is not yours. /timezone shows your own."
    stale = await intruder.tap(own, callback_data=f"tz:{intruder.id}:99")  # never offered
    assert stale is not None and stale.text == "This button has expired."
    assert harness.rows("SELECT id, timezone FROM users WHERE timezone IS NOT NULL") == []


async def test_remind_says_what_is_wrong_and_changes_nothing(harness: Harness) -> None:
    user = harness.emu.user(6108, "Ada", language_code="en")
    for typed in ("25:00", "7:75", "seven", "24h"):
        reply = await say(user, f"/remind on {typed}")
        assert reply.text.startswith(f"I can't read the time {typed}: write it as HH:MM")
    for typed in ("24:00", "7:75", "25h"):  # a time alone, as '/remind 21:05' is read
        reply = await say(user, f"/remind {typed}")
        assert reply.text.startswith(f"I can't read the time {typed}: write it as HH:MM")
    garbage = await say(user, "/remind sometimes")
    assert garbage.text.startswith("I did not understand “sometimes”.")
    assert "Your daily reminder is off." in garbage.text and "/remind on [HH:MM]" in garbage.text
    assert "Times are in your time zone, UTC" in garbage.text
    assert harness.reminder_count() == [(0,)]

    # 7h30 is read as 07:30 (as /schedule reads it); /remind HH:MM alone means "on".
    assert f"at 7:30{NNBSP}AM (UTC)" in (await say(user, "/remind on 7h30")).text
    assert f"at 7:00{NNBSP}AM (UTC)" in (await say(user, "/remind on 7h")).text  # a whole hour
    assert f"at 9:05{NNBSP}PM (UTC)" in (await say(user, "/remind 21:05")).text
    assert f"at 6:00{NNBSP}PM (UTC)" in (await say(user, "/remind on")).text  # the default
    assert harness.reminder_times() == [("18:00",)]
    assert (await say(user, "/remind off")).text == "Daily reminder off."


async def test_french_times_and_errors(harness: Harness) -> None:
    user: SimUser = harness.emu.user(6109, "Claire", language_code="fr")
    chat: ChatView = user.private
    await say(user, "/start")
    refused = await say(user, "/remind on 25:00")
    assert refused.text.startswith("Je ne comprends pas l’heure 25:00")
    await say(user, "/timezone Africa/Dakar")
    on = await say(user, "/remind on 7h30")
    assert on.text.startswith("⏰ Rappel quotidien activé, à 07:30 (Africa/Dakar)")
    assert chat.last is not None and chat.last.message_id == on.message_id


async def test_the_streak_note_counts_days_in_the_learners_zone(harness: Harness) -> None:
    """A quiz at 18:00 in New York, the reminder at 20:00 there: in the learner's zone they were
    active today (no note); counted in UTC it would already be tomorrow, and nag them."""
    quiz = harness.catalog.quiz(QUIZ)
    assert quiz is not None and harness.bot is not None
    harness.clock.advance(28_000)  # 2026-09-21 18:00 in New York (22:00 UTC)
    local = harness.emu.user(6111, "Kiné", language_code="en")
    await say(local, "/timezone America/New_York")
    await take_quiz(local, local.private, quiz, miss=set())
    default = harness.emu.user(6112, "Modou", language_code="en")
    await take_quiz(default, default.private, quiz, miss=set())  # the bot's zone: UTC
    harness.clock.advance(2 * 3600)  # 20:00 in New York, 00:00 UTC the next day
    shown = len(local.private.messages)
    assert not await harness.bot.reminder_handlers.send_reminder(local.id)
    mark = default.private.mark()
    assert await harness.bot.reminder_handlers.send_reminder(default.id)
    note = await default.private.next_message(after=mark)
    assert note.text.startswith("🔥 Your streak: 1 day. One quiz")
    assert len(local.private.messages) == shown


async def test_an_offset_typed_as_utc_plus_one_suggests_a_zone_at_that_offset(
    harness: Harness,
) -> None:
    """People type their offset: 'UTC+1' suggested UTC (an hour off) and 'GMT-5' suggested
    Etc/GMT-5, which is UTC+5 (IANA's Etc names have POSIX's inverted sign), ten hours off;
    a tap on either set the reminder at the wrong hour."""
    user = harness.emu.user(6112, "Claire", language_code="fr")
    await say(user, "/start")
    noon = datetime(2026, 1, 15, 12, 0, tzinfo=ZoneInfo("UTC"))
    for typed, hours in (("UTC+1", 1), ("GMT-5", -5), ("utc +01:00", 1), ("UTC−3", -3)):
        reply = await say(user, f"/timezone {typed}")
        assert reply.text.startswith(f"Fuseau horaire inconnu\u00a0: {typed}.")
        (suggested,) = [b for row in reply.buttons for b in row]
        assert suggested.callback_data is not None
        zone = suggested.callback_data.split(":", 2)[2]
        offset = noon.astimezone(ZoneInfo(zone)).utcoffset()
        assert offset is not None and offset.total_seconds() == hours * 3600, (typed, zone)
        assert f"UTC{hours:+03d}:00" in suggested.text  # the label says which offset it is
        mark = user.private.mark()
        await user.tap(reply, suggested.text)
        await user.private.wait_for(
            lambda m, r=reply: m.message_id == r.message_id and m.edited, after=mark
        )
        assert harness.learner_timezone(6112) == [(zone,)]
    # half hours have no Etc zone: no suggestion (not UTC), the common zones instead
    india = await say(user, "/timezone UTC+5:30")
    assert labels(india)[0] == "Africa/Dakar"
