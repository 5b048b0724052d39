"""An upload never replaces another quiz of the group silently (issue 25, item 17): a file whose
quiz id the group already has is asked about ("Replace …?"), with buttons only the admin who
sent it can use, in the chat it was sent from; nothing is stored before they choose. Ids and
titles come from the file (CSV's title column, GIFT's category, YAML's id) or from its name."""

from __future__ import annotations

from pathlib import Path

from bot.core.bidi import FSI, PDI
from bot.emulator.driver import ChatView
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import GroupHarness, group_bot, make_group

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
AIKEN = (
    "What is 3 + 3?\nA. Six\nB. Seven\nANSWER: A\n\nWhat is 2 × 5?\nA. Ten\nB. Twelve\nANSWER: A\n"
)


def plain(message: EmuMessage) -> str:
    """The text without the isolates around titles and file names (bot/core/bidi.py)."""
    return message.text.replace(FSI, "").replace(PDI, "")


def stored(h: GroupHarness) -> list[tuple[str, int]]:
    return [(str(q), int(v)) for q, v in h.rows(
        "SELECT quiz_id, version FROM uploaded_quizzes ORDER BY quiz_id, version")]  # fmt: skip


async def sent(chat: ChatView, name: str, timeout: float = 30) -> EmuMessage:
    return await chat.wait_for(lambda m: name in m.text or "Replace" in m.text, timeout=timeout)


async def test_the_aiken_and_csv_examples_are_two_quizzes_with_their_own_ids(
    tmp_path: Path,
) -> None:
    """Both were "quiz" (the file's stem), so the second silently became version 2 of the
    first: the CSV now carries its title (and so its id), and neither replaces the other."""
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        for name in ("quiz.aiken.txt", "quiz.csv"):
            mark = group.mark()
            data = (EXAMPLES / name).read_bytes()
            await admin.send_document(name, data, caption="/upload", chat=group)
            shown = await group.wait_for(lambda m, n=name: n in m.text, after=mark, timeout=30)
            assert "is a sound quiz" in shown.text and "New version" not in shown.text
        csv_summary = group.last
        assert csv_summary is not None and "Title: Sums and weeks" in csv_summary.text
        assert stored(h) == [("quiz", 1), ("sums-and-weeks", 1)]


async def test_a_file_with_the_id_of_a_groups_quiz_asks_the_admin_who_sent_it(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        co_admin = h.emu.user(1002, "Binta", language_code="en")
        member = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(co_admin, "administrator")
        group.add_member(member)
        data = (EXAMPLES / "quiz.aiken.txt").read_bytes()
        await admin.send_document("quiz.aiken.txt", data, caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        assert stored(h) == [("quiz", 1)]

        mark = group.mark()
        await admin.send_document("quiz.txt", AIKEN.encode(), caption="/upload", chat=group)
        ask = await group.next_message(after=mark, timeout=30)
        assert "Replace “quiz”" in plain(ask) and "2 questions" in ask.text, ask.text
        assert [b.text for row in ask.buttons for b in row] == [
            "♻️ Replace",
            "➕ Keep both (quiz-2)",
            "✖️ Cancel",
        ]
        assert stored(h) == [("quiz", 1)]  # nothing before the choice

        # A member, and another admin: the choice is the sender's.
        refused = await member.tap(ask, "♻️ Replace")
        assert refused is not None and refused.show_alert
        refused = await co_admin.tap(ask, "♻️ Replace")
        assert refused is not None and "admin who sent" in (refused.text or "")
        assert stored(h) == [("quiz", 1)]

        mark = group.mark()
        await admin.tap(ask, "➕ Keep both (quiz-2)")
        kept = await group.wait_for(lambda m: "is a sound quiz" in m.text, after=mark, timeout=30)
        assert "Quiz id: quiz-2" in kept.text and "New version" not in kept.text
        assert stored(h) == [("quiz", 1), ("quiz-2", 1)]
        again = await admin.tap(ask, "♻️ Replace")  # the choice was made: the buttons are spent
        assert again is not None and "expired" in (again.text or "")
        assert stored(h) == [("quiz", 1), ("quiz-2", 1)]

        mark = group.mark()
        await admin.send_document("quiz.txt", AIKEN.encode(), caption="/upload", chat=group)
        ask = await group.next_message(after=mark, timeout=30)
        mark = group.mark()
        await admin.tap(ask, "♻️ Replace")
        replaced = await group.wait_for(lambda m: "New version 2" in m.text, after=mark, timeout=30)
        assert "Quiz id: quiz" in replaced.text
        assert stored(h) == [("quiz", 1), ("quiz", 2), ("quiz-2", 1)]

        mark = group.mark()
        await admin.send_document("quiz.txt", AIKEN.encode(), caption="/upload", chat=group)
        ask = await group.next_message(after=mark, timeout=30)
        mark = group.mark()
        await admin.tap(ask, "✖️ Cancel")
        cancelled = await group.next_message(after=mark, timeout=30)
        assert "Nothing was changed" in cancelled.text
        assert stored(h) == [("quiz", 1), ("quiz", 2), ("quiz-2", 1)]


async def test_the_replace_buttons_of_one_group_do_nothing_in_another(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        other, _ = await make_group(h, chat_id=-100600, admin_id=1001)
        data = (EXAMPLES / "quiz.aiken.txt").read_bytes()
        await admin.send_document("quiz.aiken.txt", data, caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        mark = group.mark()
        await admin.send_document("quiz.txt", AIKEN.encode(), caption="/upload", chat=group)
        ask = await group.next_message(after=mark, timeout=30)
        replace = ask.button("♻️ Replace").callback_data
        assert replace is not None
        # the same data tapped in the other group (forged), where the admin is an admin too
        forged = await admin.tap(other.last, callback_data=replace)  # type: ignore[arg-type]
        assert forged is not None and "expired" in (forged.text or "")
        forged_there = replace.replace(str(group.id), str(other.id))
        forged = await admin.tap(other.last, callback_data=forged_there)  # type: ignore[arg-type]
        assert forged is not None and "expired" in (forged.text or "")
        assert stored(h) == [("quiz", 1)]


async def test_a_private_upload_asks_before_replacing_too(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await make_group(h)
        data = (EXAMPLES / "quiz.aiken.txt").read_bytes()
        await admin.send_document("quiz.aiken.txt", data, caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        await admin.send("/start")
        await admin.private.wait_for(lambda m: bool(m.buttons))
        mark = admin.private.mark()
        await admin.send_document("quiz.txt", AIKEN.encode(), caption="/upload")
        choose = await admin.private.next_message(after=mark, timeout=30)
        mark = admin.private.mark()
        await admin.tap(choose, group.title)
        ask = await admin.private.next_message(after=mark, timeout=30)
        assert "Replace “quiz”" in plain(ask), ask.text
        assert stored(h) == [("quiz", 1)]
        mark = admin.private.mark()
        await admin.tap(ask, "♻️ Replace")
        done = await admin.private.wait_for(lambda m: "New version 2" in m.text, after=mark,
                                            timeout=30)  # fmt: skip
        assert group.title in done.text
        assert stored(h) == [("quiz", 1), ("quiz", 2)]
