"""Study groups: settings, time zones, schedules (fired through JobQueue), removal, supergroup
migration, and many groups pushed at once under Telegram's flood limits."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.emulator import FloodLimits
from bot.i18n import translator
from tests.e2e.groups_kit import group_bot, make_group, schedule_jobs


async def test_settings_are_for_admins_and_change_the_group(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        member = h.emu.user(2001, "Bintou")
        group.add_member(member)
        mark = group.mark()
        await admin.send("/settings", chat=group)
        panel = await group.next_message(after=mark)
        refused = await member.tap(panel, "Français")
        assert refused is not None and "admins" in (refused.text or "")
        forged = await member.tap(panel, callback_data="set:-100999:lang:fr")
        assert forged is not None and "expired" in (forged.text or "")
        await admin.tap(panel, "Français")
        assert h.group_languages() == [("fr",)]
        panel = await group.wait_for(lambda m: m.message_id == panel.message_id and m.edited)
        ten = translator("fr").seconds(10)
        assert ten == "10\u00a0s"  # French: a no-break space before the unit
        await admin.tap(panel, ten)
        await group.wait_for(
            lambda m: (
                m.message_id == panel.message_id
                and f"✓ {ten}" in [b.text for row in m.buttons for b in row]
            )
        )
        # Unchanged ("message is not modified" from Telegram): still answered, no error.
        await admin.tap(panel, callback_data=f"set:{group.id}:shuffle:on")
        assert h.rows("SELECT seconds_per_question, shuffle FROM groups") == [(10, 1)]

        for bad in (
            "/timezone Mars/Base",
            "/timezone",
            "/schedule",
            "/schedule nope daily 08:00",
            "/schedule next someday 08:00",
            "/schedule next daily 25:00",
            "/unschedule x",
        ):
            mark = group.mark()
            await admin.send(bad, chat=group)
            reply = await group.next_message(after=mark)
            assert "/" in reply.text and "Traceback" not in reply.text, (bad, reply.text)
        mark = group.mark()
        await admin.send("/timezone Africa/Dakar", chat=group)
        await group.next_message(after=mark)
        assert h.group_timezones() == [("Africa/Dakar",)]
        assert h.schedule_count() == [(0,)]


async def test_a_schedule_fires_walks_the_catalogue_survives_migration_and_removal(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=0.5, questions=1) as h:
        assert h.bot is not None
        group, admin = await make_group(h)
        member = h.emu.user(2001, "Bintou")
        group.add_member(member)
        mark = group.mark()
        await member.send("/schedule next weekdays 08:30", chat=group)
        assert "admins" in (await group.next_message(after=mark)).text
        mark = group.mark()
        await admin.send("/schedule next weekdays 08:30", chat=group)
        listing = await group.next_message(after=mark)
        expected = "✅ Scheduled:\n1. the next quiz in order: Monday to Friday at 8:30\u202fAM"
        assert expected in listing.text
        assert h.schedules() == [("next", "0,1,2,3,4", "08:30")]
        (job,) = schedule_jobs(h.bot)
        assert job.next_t is not None and job.next_t.weekday() < 5
        assert (job.next_t.hour, job.next_t.minute) == (8, 30)

        order = [quiz for quiz in h.catalog]
        for quiz in order:  # "next" plays each quiz once, in catalogue order
            mark = group.mark()
            await job.run(h.bot.app)
            intro = await group.next_message(after=mark)
            assert quiz.title.get("en") in intro.text
            await group.wait_for(lambda m: "finished" in m.text, after=mark, timeout=5)
        played = [q for (q,) in h.rows("SELECT quiz_id FROM attempts ORDER BY id")]
        assert played == [quiz.id for quiz in order]

        new_id = await h.emu.migrate_to_supergroup(group, by=admin)
        supergroup = h.emu.chat(new_id)
        mark = supergroup.mark()
        await admin.send("/schedules", chat=supergroup)
        assert "8:30\u202fAM" in (await supergroup.next_message(after=mark)).text
        assert h.rows("SELECT chat_id FROM schedules") == [(new_id,)]
        assert h.group_chats() == [(new_id,)]
        assert {c for (c,) in h.rows("SELECT chat_id FROM attempts")} == {new_id}
        (job,) = schedule_jobs(h.bot)
        mark = supergroup.mark()
        await job.run(h.bot.app)  # plays in the supergroup: history came along for "next"
        intro = await supergroup.next_message(after=mark)
        assert order[0].title.get("en") in intro.text
        await supergroup.wait_for(lambda m: "finished" in m.text, after=mark, timeout=5)

        await h.emu.remove_bot_from_group(supergroup, by=admin)
        for _ in range(50):
            if not schedule_jobs(h.bot):
                break
            await asyncio.sleep(0.05)
        assert schedule_jobs(h.bot) == []
        assert h.schedule_count() == [(0,)]

        await h.restart_bot()  # nothing comes back for a group the bot left
        assert schedule_jobs(h.bot) == []


async def test_unschedule_and_restore_at_start_up(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        assert h.bot is not None
        group, admin = await make_group(h)
        for args in ("random daily 07:00", "gradient-accumulation mon,wed 18:15"):
            mark = group.mark()
            await admin.send(f"/schedule {args}", chat=group)
            await group.next_message(after=mark)
        await h.restart_bot()
        assert sorted(j.name for j in schedule_jobs(h.bot)) == ["sched:1", "sched:2"]
        mark = group.mark()
        await admin.send("/unschedule 1", chat=group)
        listing = await group.next_message(after=mark)
        title = h.catalog.quizzes["gradient-accumulation"].title.get("en")
        next_one = "🗑 Removed:\n1. the next quiz in order: every day at 7:00\u202fAM"
        assert next_one not in listing.text
        assert "🗑 Removed:\n1. a random quiz: every day at 7:00\u202fAM" in listing.text
        assert f"1. {title}: Monday and Wednesday at 6:15\u202fPM" in listing.text
        await asyncio.sleep(0.05)
        assert [j.name for j in schedule_jobs(h.bot)] == ["sched:2"]


async def test_many_groups_due_at_once_all_play_within_flood_limits(tmp_path: Path) -> None:
    groups_count = 36
    async with group_bot(
        tmp_path, seconds=1.0, flood=FloodLimits(), rate_limit=True, questions=1
    ) as h:
        assert h.bot is not None
        groups = []
        every_day_at_nine = ["next", "daily", "09:00"]
        for i in range(groups_count):
            group, admin = await make_group(h, chat_id=-200000 - i, admin_id=5000 + i)
            groups.append(group)
            await h.bot.group_schedules.add(group.id, every_day_at_nine, admin.id)
        await h.bot.runner.reschedule()
        jobs = schedule_jobs(h.bot)
        assert len(jobs) == groups_count
        await asyncio.gather(*(job.run(h.bot.app) for job in jobs))
        for group in groups:
            await group.wait_for(lambda m: "finished" in m.text, timeout=30)
            assert any("Question 1/1" in m.text for m in group.bot_messages)
        assert h.rows("SELECT count(*) FROM attempts WHERE status = 'finished'") == [
            (groups_count,)
        ]
        # The limiter paces sends at the wire: Telegram's limits (enforced by the emulator)
        # were never broken, so no push waited out a 429.
        assert h.emu.stats.flood_errors == 0
