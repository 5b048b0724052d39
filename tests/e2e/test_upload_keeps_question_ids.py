"""A group's quiz replaced by a corrected file keeps its questions' identity (Aiken, GIFT
without ::ids::, a CSV without ids: formats whose question ids are only positions).

Answers, item analysis, /top, review cards and problem reports all key on question ids. The
corrected file fixes one question's wording and puts a new question at the top: before, the
rebuilt quiz numbered its questions q1, q2, q3 again, so the new question took q1, and a
member's review card of the question they missed showed another question. Each question of
the new file is now matched to the old version's (as `quizbot content import` does for Aiken):
a match keeps its id, a new question gets an id the quiz never used, and the ids are stored
with the file, so a restart rebuilds the same quiz."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import LETTERS, GroupHarness, group_bot, make_group

OLD = [("What is 3 + 3?", ["Six", "Seven"]), ("What is 2 × 5?", ["Ten", "Twelve"])]
NEW = [
    ("What colour is a clear sky?", ["Blue", "Green"]),  # inserted at the top
    ("What is 3 + 3?", ["Six", "Seven"]),
    ("How much is 2 × 5?", ["Ten", "Twelve"]),  # the wording fixed
]
MISSED_BEFORE, MISSED_AFTER = "What is 2 × 5?", "How much is 2 × 5?"


def aiken(questions: list[tuple[str, list[str]]]) -> str:
    return "\n".join(
        f"{prompt}\n" + "".join(f"{LETTERS[i]}. {o}\n" for i, o in enumerate(options))
        + "ANSWER: A\n"
        for prompt, options in questions
    )  # fmt: skip


def gift(questions: list[tuple[str, list[str]]]) -> str:
    blocks = [
        f"{prompt} {{\n  ={options[0]}\n" + "".join(f"  ~{o}\n" for o in options[1:]) + "}\n"
        for prompt, options in questions
    ]
    return "$CATEGORY: Our sums\n\n" + "\n".join(blocks)


def csv(questions: list[tuple[str, list[str]]]) -> str:
    rows = ["title,prompt,A,B,answer,explanation"]
    for index, (prompt, options) in enumerate(questions):
        title = "Our sums" if index == 0 else ""
        rows.append(f"{title},{prompt},{options[0]},{options[1]},A,Because.")
    return "\n".join(rows) + "\n"


FORMATS = {
    "aiken": ("sums.txt", "sums", aiken),
    "gift": ("sums.gift", "our-sums", gift),
    "csv": ("sums.csv", "our-sums", csv),
}


def letter_of(message: EmuMessage, text: str) -> str:
    for line in message.text.splitlines():
        if line[:2] in {f"{c}." for c in LETTERS} and line[3:].strip() == text:
            return line[0]
    raise AssertionError(f"{text!r} not in:\n{message.text}")


async def upload(
    h: GroupHarness, group: ChatView, admin: SimUser, name: str, text: str, *, privately: bool
) -> EmuMessage:
    """Send the file (in the group, or privately then choose the group) and answer "Replace"
    if asked; the summary the bot answers with."""
    chat = admin.private if privately else group
    mark = chat.mark()
    if privately:
        await admin.send_document(name, text.encode(), caption="/upload")
        choose = await chat.next_message(after=mark, timeout=30)
        mark = chat.mark()
        await admin.tap(choose, group.title)
    else:
        await admin.send_document(name, text.encode(), caption="/upload", chat=group)
    shown = await chat.wait_for(
        lambda m: "Replace" in m.text or "is a sound quiz" in m.text, after=mark, timeout=30
    )
    if "is a sound quiz" in shown.text:
        return shown
    mark = chat.mark()
    await admin.tap(shown, "♻️ Replace")
    return await chat.wait_for(lambda m: "is a sound quiz" in m.text, after=mark, timeout=30)


async def review_card(member: SimUser) -> str:
    mark = member.private.mark()
    await member.send("/review")
    card = await member.private.next_message(after=mark, timeout=30)
    return card.text


@pytest.mark.parametrize(("fmt", "privately"), [("aiken", False), ("gift", False),
                                                ("csv", False), ("aiken", True)])  # fmt: skip
async def test_a_corrected_file_keeps_the_ids_of_the_questions_it_keeps(
    tmp_path: Path, fmt: str, privately: bool
) -> None:
    name, typed, write = FORMATS[fmt]
    async with group_bot(tmp_path, seconds=2.0) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(awa)
        for user in (awa, admin):
            await user.send("/start")
            picker = await user.private.wait_for(lambda m: bool(m.buttons))
            await user.tap(picker, "✓ English")
        first = await upload(h, group, admin, name, write(OLD), privately=privately)
        assert f"Quiz id: {typed}" in first.text, first.text

        # Awa plays: right on 3 + 3, wrong on 2 × 5.
        mark = group.mark()
        await admin.send(f"/push {typed}", chat=group)
        for number in (1, 2):
            shown = await group.wait_for(
                lambda m, n=number: f"Question {n}/2" in m.text, after=mark, timeout=30
            )
            wrong = MISSED_BEFORE in shown.text
            await awa.tap(shown, letter_of(shown, "Twelve" if wrong else "Six"))
        await group.wait_for(lambda m: "Quiz finished" in m.text, after=mark, timeout=30)
        await awa.private.wait_for(lambda m: "review queue" in m.text, timeout=30)
        h.clock.advance(86_400)
        assert MISSED_BEFORE in await review_card(awa)

        second = await upload(h, group, admin, name, write(NEW), privately=privately)
        assert "New version 2" in second.text, second.text
        for line in ("• 1 question unchanged", "• 1 question changed", "• 1 question added",
                     "• 0 questions removed"):  # fmt: skip
            assert line in second.text, second.text

        # Her card is still the question she missed, as now worded; not the new first question.
        card = await review_card(awa)
        assert MISSED_AFTER in card and "3 + 3" not in card, card

        # Item analysis: her wrong answer stays with 2 × 5 (now third), her right one with 3 + 3.
        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        stats = (await group.wait_for(lambda m: "Group statistics" in m.text, after=mark)).text
        lines = stats.splitlines()
        assert lines[lines.index(f"3. {MISSED_AFTER}") + 1].strip() == "0% right, of 1 answer"
        assert lines[lines.index("2. What is 3 + 3?") + 1].strip() == "100% right, of 1 answer"
        assert "What colour" not in stats  # the new question has no answers

        await h.restart_bot()
        card = await review_card(awa)
        assert MISSED_AFTER in card and "3 + 3" not in card, card


async def test_a_removed_question_leaves_the_review_queue_and_its_answers_stay(
    tmp_path: Path,
) -> None:
    """The corrected file drops the question a member missed: she is no longer asked it (as
    when a whole quiz is deleted), and the run she played keeps its answers."""
    async with group_bot(tmp_path, seconds=2.0) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(awa)
        await awa.send("/start")
        picker = await awa.private.wait_for(lambda m: bool(m.buttons))
        await awa.tap(picker, "✓ English")
        await upload(h, group, admin, "sums.txt", aiken(OLD), privately=False)
        # She misses the first question of the file, 3 + 3, and gets 2 × 5 right.
        mark = group.mark()
        await admin.send("/push sums", chat=group)
        for number in (1, 2):
            shown = await group.wait_for(
                lambda m, n=number: f"Question {n}/2" in m.text, after=mark, timeout=30
            )
            await awa.tap(
                shown, letter_of(shown, "Ten" if MISSED_BEFORE in shown.text else "Seven")
            )
        await group.wait_for(lambda m: "Quiz finished" in m.text, after=mark, timeout=30)
        await awa.private.wait_for(lambda m: "review queue" in m.text, timeout=30)
        h.clock.advance(86_400)
        missed = "What is 3 + 3?"
        assert missed in await review_card(awa)

        # The corrected file drops it: 2 × 5 is its first question now.
        second = await upload(h, group, admin, "sums.txt", aiken(OLD[1:]), privately=False)
        assert "• 1 question removed" in second.text, second.text
        card = await review_card(awa)
        assert missed not in card and "Review ·" not in card, card
        assert h.rows(
            "SELECT count(*) FROM answers an JOIN attempts a ON a.id = an.attempt_id"
            " WHERE a.quiz_id = ? AND an.user_id = ?",
            f"g{abs(group.id)}-sums",
            awa.id,
        ) == [(2,)]


async def test_an_option_inserted_in_a_kept_question_leaves_past_answers_their_option(
    tmp_path: Path,
) -> None:
    """The corrected file adds an option above the others of 2 × 5 (its options are lettered
    by position): a member's wrong answer "Twelve", stored as option b, became "Ten", the right
    one, in /groupstats' "most chosen wrong answer". Options are matched by their text too."""
    async with group_bot(tmp_path, seconds=2.0) as h:
        group, admin = await make_group(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(awa)
        await upload(h, group, admin, "sums.txt", aiken(OLD), privately=False)
        mark = group.mark()
        await admin.send("/push sums", chat=group)
        for number in (1, 2):
            shown = await group.wait_for(
                lambda m, n=number: f"Question {n}/2" in m.text, after=mark, timeout=30
            )
            wrong = MISSED_BEFORE in shown.text
            await awa.tap(shown, letter_of(shown, "Twelve" if wrong else "Six"))
        await group.wait_for(lambda m: "Quiz finished" in m.text, after=mark, timeout=30)

        corrected = (
            "What is 3 + 3?\nA. Six\nB. Seven\nANSWER: A\n\n"
            f"{MISSED_BEFORE}\nA. Eleven\nB. Ten\nC. Twelve\nANSWER: B\n"
        )
        second = await upload(h, group, admin, "sums.txt", corrected, privately=False)
        assert "• 1 question changed" in second.text, second.text
        for restarted in (False, True):
            if restarted:
                await h.restart_bot()
            mark = group.mark()
            await admin.send("/groupstats", chat=group)
            stats = await group.wait_for(lambda m: "Group statistics" in m.text, after=mark)
            assert "most chosen wrong answer: Twelve (1)" in stats.text, stats.text
