"""A group's own quiz deleted (/deletequiz) while a schedule plays it: the schedule goes with
it, and the admins are told, rather than /schedules promising a next run that never comes."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot, schedule_jobs
from tests.e2e.uploads_kit import GOOD_YAML, make_group


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
