"""A group's own quiz deleted (/deletequiz) while a schedule plays it: the schedule goes with
it, and the admins are told, rather than /schedules promising a next run that never comes."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot, schedule_jobs
from tests.e2e.uploads_kit import GOOD_YAML, group_with_admin, make_group


async def test_deleting_a_scheduled_quiz_removes_its_schedules_and_says_so(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        assert h.bot is not None
        group, admin, _ = await make_group(h)
        await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
        await group.wait_for(lambda m: "ours.yaml is a sound quiz" in m.text, timeout=30)
        for args in ("my-quiz daily 08:32", "next weekdays 18:00", "my-quiz sat 10:00"):
            mark = group.mark()
            await admin.send(f"/schedule {args}", chat=group)
            await group.next_message(after=mark)
        mark = group.mark()
        await admin.send("/deletequiz my-quiz", chat=group)
        ask = await group.next_message(after=mark)
        mark = group.mark()
        await admin.tap(ask, "🗑 Delete")
        said = await group.wait_for(lambda m: "was deleted" in m.text, after=mark)
        assert "Its 2 schedules were removed too." in said.text, said.text

        mark = group.mark()
        await admin.send("/schedules", chat=group)
        listed = await group.next_message(after=mark)
        assert "my-quiz" not in listed.text and "Our own quiz" not in listed.text, listed.text
        assert "1. the next quiz in order" in listed.text, listed.text
        assert h.schedules() == [("next", "0,1,2,3,4", "18:00")]
        assert [job.name for job in schedule_jobs(h.bot)] == ["sched:2"]


async def test_the_deletion_names_the_quiz_by_its_title_in_the_groups_language(
    tmp_path: Path,
) -> None:
    """The confirmation asked about “Our own quiz” (my-quiz), and the answer said "The quiz
    my-quiz was deleted": the id an admin typed, not the quiz they know."""
    async with group_bot(tmp_path) as h:
        group, admin = await group_with_admin(h, "fr")
        await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
        await group.wait_for(lambda m: "ours.yaml" in m.text and bool(m.buttons), timeout=30)
        mark = group.mark()
        await admin.send("/deletequiz my-quiz", chat=group)
        ask = await group.next_message(after=mark)
        assert "«\u202fOur own quiz\u202f» (my-quiz)" in ask.text, ask.text
        mark = group.mark()
        await admin.tap(ask, "🗑 Supprimer")
        said = await group.wait_for(lambda m: "supprimé" in m.text, after=mark)
        done = "Le quiz «\u202fOur own quiz\u202f» a été supprimé de ce groupe."
        assert said.text == done, said.text
