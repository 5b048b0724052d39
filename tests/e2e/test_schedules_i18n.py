"""Schedules in every language: French and Wolof words accepted, the list localized with quiz
titles and the next run, confirmations, duplicates, unknown numbers and time zones; popups in
the tapper's language; /remind's time errors."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import GroupHarness, group_bot, make_group

QUIZ = "gradient-accumulation"


async def say(group: ChatView, admin: SimUser, text: str) -> str:
    mark = group.mark()
    await admin.send(text, chat=group)
    return (await group.next_message(after=mark)).text


async def french_group(h: GroupHarness) -> tuple[ChatView, SimUser]:
    group, admin = await make_group(h)
    mark = group.mark()
    await admin.send("/settings", chat=group)
    panel = await group.next_message(after=mark)
    await admin.tap(panel, "Français")
    return group, admin


async def test_french_words_localized_list_confirmations_and_refusals(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await french_group(h)
        h.clock.now = 1_796_108_400.0  # Tuesday 1 December 2026, 08:00 in Paris (07:00 UTC)
        assert "Europe/Paris" in await say(group, admin, "/timezone europe/paris")
        assert h.group_timezones() == [("UTC",)]  # a suggestion, no change
        await say(group, admin, "/timezone Europe/Paris")

        text = await say(group, admin, "/schedule suivant lun,MER 18h30")
        title = h.catalog.quizzes[QUIZ].title.get("fr")
        assert "✅ Programmé\u00a0:" in text
        assert "1. le quiz suivant dans l’ordre\u00a0: lundi et mercredi à 18:30" in text
        assert "prochaine partie\u00a0: mar. 1er déc. à 18:30" not in text  # Tuesday: not chosen
        assert "prochaine partie\u00a0: mer. 2 déc. à 18:30" in text
        assert h.schedules() == [("next", "0,2", "18:30")]

        again = await say(group, admin, "/schedule next mon,wed 18:30")  # English always works
        assert "La programmation n°\u00a01 fait déjà exactement cela" in again
        assert h.schedule_count() == [(1,)]

        text = await say(group, admin, f"/schedule {QUIZ} quotidien 19:00")
        assert f"2. {title}\u00a0: tous les jours à 19:00" in text
        assert "prochaine partie\u00a0: mar. 1er déc. à 19:00" in text

        listing = await say(group, admin, "/schedules")
        assert "🗓" in listing and "(Europe/Paris)" in listing
        assert "1. le quiz suivant dans l’ordre\u00a0: lundi et mercredi à 18:30" in listing
        assert f"2. {title}\u00a0: tous les jours à 19:00" in listing
        assert QUIZ not in listing

        missing = await say(group, admin, "/unschedule 7")
        assert missing.startswith("Il n’y a pas de programmation 7.")
        assert "Utilisation" not in missing
        removed = await say(group, admin, "/unschedule 1")
        assert removed.startswith("🗑 Supprimé\u00a0:\n1. le quiz suivant dans l’ordre")
        assert h.rows("SELECT quiz FROM schedules") == [(QUIZ,)]

        bad = await say(group, admin, "/schedule suivant someday 18:30")
        assert "Jours non reconnus\u00a0: someday." in bad
        # "semaine" read as "weekly"; "weekend" is "week-end" in French (issue 28 #30, U13)
        assert "<quiz|suivant|hasard> <quotidien|ouvrés|week-end|jours>" in bad


async def test_french_day_keywords_and_the_earlier_spellings(tmp_path: Path) -> None:
    """`ouvrés` (Monday to Friday) and `week-end` are the French keywords; `semaine` and
    `weekend`, which groups typed before, still work."""
    async with group_bot(tmp_path) as h:
        group, admin = await french_group(h)
        for typed, stored in (
            ("ouvrés", "0,1,2,3,4"),
            ("semaine", "0,1,2,3,4"),
            ("week-end", "5,6"),
            ("weekend", "5,6"),
        ):
            await say(group, admin, "/unschedule 1")
            await say(group, admin, f"/schedule suivant {typed} 08:00")
            assert h.rows("SELECT days FROM schedules") == [(stored,)], typed


async def test_wolof_day_names_with_and_without_diacritics(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        for typed, stored in (
            ("altine,àllarba", "0,2"),
            ("Talaata,Alxames", "1,3"),
            ("ajjuma,gaawu,dibeer", "4,5,6"),
            ("bés-bu-nekk", "0,1,2,3,4,5,6"),
            ("altine-àjjuma", "0,1,2,3,4"),  # Monday to Friday (issue 28 #30)
            ("ayu-bés", "0,1,2,3,4"),  # the earlier keyword, which reads as "week"
        ):
            await say(group, admin, f"/schedule bi-ci-topp {typed} 08:00")
            assert h.rows("SELECT days FROM schedules ORDER BY id DESC LIMIT 1") == [(stored,)]
            assert h.rows("SELECT quiz FROM schedules ORDER BY id DESC LIMIT 1") == [("next",)]


async def test_a_settings_refusal_is_in_the_tappers_language(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await french_group(h)
        awa = h.emu.user(2002, "Awa", language_code="wo")
        group.add_member(awa)
        mark = group.mark()
        await admin.send("/settings", chat=group)
        panel = await group.next_message(after=mark)
        refused = await awa.tap(panel, "Wolof")
        assert refused is not None
        assert refused.text == "Baal ma, saytukati mbooloo mi rekk a ko mën a def."
        assert h.group_languages() == [("fr",)]


async def test_remind_says_what_is_wrong_with_a_time(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        user = h.emu.user(3001, "Claire", language_code="fr")
        chat = user.private
        for typed in ("25:00", "7:60", "sept"):
            mark = chat.mark()
            await user.send(f"/remind on {typed}")
            reply = (await chat.next_message(after=mark)).text
            assert reply.startswith(f"Je ne comprends pas l’heure {typed}"), reply
        mark = chat.mark()
        await user.send("/remind on 7h30")
        assert "07:30" in (await chat.next_message(after=mark)).text
        assert h.reminder_times() == [("07:30",)]


async def test_a_schedules_time_is_written_as_the_groups_language_writes_a_time(
    tmp_path: Path,
) -> None:
    """English says "6:30 PM" in /schedule, /schedules and /unschedule, as /remind and the
    dashboard's schedules do; French keeps "18:30". What the admin typed is only parsed."""
    nnbsp = "\u202f"
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        h.clock.now = 1_796_108_400.0  # Tuesday 1 December 2026, 07:00 UTC
        text = await say(group, admin, "/schedule next weekdays 18:30")
        assert f"1. the next quiz in order: Monday to Friday at 6:30{nnbsp}PM" in text
        assert f"next run: Tue, Dec 1 at 6:30{nnbsp}PM" in text
        assert h.schedules() == [("next", "0,1,2,3,4", "18:30")]  # stored as typed
        listing = await say(group, admin, "/schedules")
        assert f"Monday to Friday at 6:30{nnbsp}PM" in listing and "18:30" not in listing
        removed = await say(group, admin, "/unschedule 1")
        assert f"Monday to Friday at 6:30{nnbsp}PM" in removed
