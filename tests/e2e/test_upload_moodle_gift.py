"""A teacher's question bank exported from Moodle 4.x as GIFT (every question `[html]`, its
answers in `<p dir="ltr" ...>`), uploaded to a group and pushed: the members read text and
`code`, never the editor's tags or `&amp;`."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.groups_kit import group_bot, make_group

EXPORT = Path(__file__).resolve().parents[1] / "content" / "fixtures" / "formats"


async def test_a_moodle_gift_export_reaches_the_group_as_text(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        group, admin = await make_group(h)
        data = (EXPORT / "moodle-4-export.gift").read_bytes()
        await admin.send_document("bank.gift", data, caption="/upload", chat=group)
        summary = await group.wait_for(lambda m: "bank.gift is a sound quiz" in m.text, timeout=30)
        assert "3 questions" in summary.text
        await admin.tap(summary, "▶️ Push")
        # A group run asks the two choice questions (number questions are for private chats).
        await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=30)
        text = "\n".join(m.text for m in group.messages if "Question " in m.text)
        assert "What does optimizer.step() do & when?" in text, text
        assert "It updates the weights" in text and "The loss diverges" in text, text
        for tag in ("<p", "dir=", "&amp;", "<strong>", "@@PLUGINFILE@@"):
            assert tag not in text, (tag, text)
