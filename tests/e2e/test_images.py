"""Questions with pictures through the emulator (issue 17): a captioned photo edited in place, a
long question as photo + text, an explanation's picture, private and group runs; the picture is
uploaded once and sent by its stored file_id afterwards (also after a restart), and a file_id
Telegram no longer knows is replaced without losing the question."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.emulator import Emulator
from bot.emulator.params import Upload
from bot.emulator.state import EmuMessage
from tests.e2e.groups_kit import GroupHarness, make_group
from tests.e2e.harness import TOKEN, Harness, answered
from tests.e2e.images_kit import PICTURE, QUIZ, catalog
from tests.reliability.support import bot_at, buttons, handler_errors, start_quiz


def stored_ids(h: Harness) -> list[tuple[str, str]]:
    return [(str(p), str(f)) for p, f in h.rows("SELECT path, file_id FROM media_file_ids")]


async def stored_soon(h: Harness, expected: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The stored file_ids once they equal `expected` (the bot stores them after Telegram's
    answer, which the emulator's chat shows first), or what is there after 5 s."""
    for _ in range(100):
        if (found := stored_ids(h)) == expected:
            return found
        await asyncio.sleep(0.05)
    return stored_ids(h)


def sent_photos(emu: Emulator) -> list[object]:
    """What each sendPhoto carried: an Upload (the bytes) or a file_id string."""
    return [call["photo"] for call in emu.calls("sendPhoto")]


async def test_a_pictured_question_is_one_captioned_photo_edited_in_place(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path)) as h:
        user = h.emu.user(8101, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        assert question.photo is not None and question.photo_name == PICTURE
        assert question.text.startswith("Question 1/2") and buttons(question) == list("ABCD")
        (upload,) = sent_photos(h.emu)
        assert isinstance(upload, Upload) and upload.data.startswith(b"\x89PNG")
        mark = user.private.mark()
        await user.tap(question, "A")
        shown = await answered(user.private, question, mark)
        # One message: the photo's caption now carries the verdict, the why and Next.
        assert user.private.mark().next_message_id == mark.next_message_id
        assert shown.photo is not None and "About √N checkpoints are kept" in shown.text
        assert buttons(shown)[0] == "Next ▶️" and len(h.emu.calls("editMessageCaption")) == 1
        stored = [(PICTURE, question.photo[-1]["file_id"])]
        assert await stored_soon(h, stored) == stored


async def test_the_picture_is_sent_again_by_file_id_also_after_a_restart(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path)) as h:
        first = await start_quiz(h.emu.user(8201, "Awa"), QUIZ, total=2)
        assert first.photo is not None
        file_id = first.photo[-1]["file_id"]
        assert await stored_soon(h, [(PICTURE, file_id)]) == [(PICTURE, file_id)]
        second = await start_quiz(h.emu.user(8202, "Bob"), QUIZ, total=2)
        assert second.photo is not None
        await h.restart_bot()
        third = await start_quiz(h.emu.user(8203, "Cheikh"), QUIZ, total=2)
        assert third.photo is not None and third.text.startswith("Question 1/2")
        uploaded, *again = sent_photos(h.emu)
        assert isinstance(uploaded, Upload)
        assert again == [file_id, file_id]  # file_id strings: no upload after the first
        assert stored_ids(h) == [(PICTURE, file_id)]


async def test_a_file_id_telegram_refuses_is_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with bot_at(tmp_path, catalog=catalog(tmp_path)) as h:
        first = await start_quiz(h.emu.user(8301, "Awa"), QUIZ, total=2)
        assert first.photo is not None
        stale = first.photo[-1]["file_id"]
        assert await stored_soon(h, [(PICTURE, stale)]) == [(PICTURE, stale)]
        h.emu.expire_file(stale)  # e.g. a database restored under another bot
        user = h.emu.user(8302, "Bob")
        question = await start_quiz(user, QUIZ, total=2)
        assert question.photo is not None and buttons(question) == list("ABCD")
        fresh = question.photo[-1]["file_id"]
        assert fresh != stale
        assert sent_photos(h.emu)[1:] == [stale, sent_photos(h.emu)[2]]
        assert isinstance(sent_photos(h.emu)[2], Upload)
        assert await stored_soon(h, [(PICTURE, fresh)]) == [(PICTURE, fresh)]
        assert handler_errors(caplog) == []
        assert not [r for r in caplog.records if r.exc_info]  # no traceback in the log
        # The next learner gets the fresh one by file_id.
        await start_quiz(h.emu.user(8303, "Cheikh"), QUIZ, total=2)
        assert sent_photos(h.emu)[-1] == fresh


async def test_a_question_too_long_for_a_caption_is_photo_then_text(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path, long_prompt=True)) as h:
        user = h.emu.user(8401, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        assert question.photo is None and "Think about which" in question.text
        photo = user.private.message(question.message_id - 1)
        assert photo.photo is not None and photo.text == "" and not photo.buttons
        mark = user.private.mark()
        await user.tap(question, "C")
        shown = await answered(user.private, question, mark)
        assert shown.message_id == question.message_id and "✅" in shown.text
        assert h.emu.calls("editMessageCaption") == []
        assert user.private.message(photo.message_id) == photo  # the photo is left as it was


async def test_an_explanation_picture_follows_with_the_explanation(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path, explained=True)) as h:
        user = h.emu.user(8501, "Awa", language_code="fr")
        await user.send("/start")
        picker = await user.private.wait_for(lambda m: bool(m.buttons))
        await user.tap(picker, "✓ Français")
        mark = user.private.mark()
        await user.send(f"/start {QUIZ}")
        first = await user.private.wait_for(lambda m: "1/2" in m.text, after=mark)
        await user.tap(first, "C")
        done = await answered(user.private, first, mark)
        mark = user.private.mark()
        await user.tap(done, buttons(done)[0])
        second = await user.private.wait_for(lambda m: "2/2" in m.text, after=mark)
        assert second.photo is None  # trade-off has no picture of its own
        mark = user.private.mark()
        await user.tap(second, "B")
        why = await user.private.wait_for(lambda m: m.photo is not None, after=mark)
        # The explanation is the photo's caption, with the way on; the question keeps its marks.
        assert "On échange du calcul contre de la mémoire" in why.text and "📖" in why.text
        assert buttons(why)[0] == "🏁 Voir mon score"
        marked = user.private.message(second.message_id)
        assert marked.edited and not marked.buttons and "✅" in marked.text


async def test_group_run_with_a_picture(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(
            emu, tmp_path / "quizbot.sqlite3", catalog(tmp_path, explained=True), seconds=1.0
        )
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            member = h.emu.user(8602, "Bob", language_code="en")
            group.add_member(member)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            question = await group.wait_for(lambda m: m.photo is not None, after=mark)
            assert question.text.startswith("Question 1/2") and buttons(question) == list("ABCD")
            await member.tap(question, "C")

            def revealed(m: EmuMessage) -> bool:
                return m.message_id == question.message_id and "✅" in m.text

            reveal = await group.wait_for(revealed, after=mark, timeout=10)
            assert reveal.photo is not None and not reveal.buttons
            assert "About √N checkpoints are kept" in reveal.text
            assert h.emu.calls("editMessageText") == [] or all(
                int(c["message_id"]) != question.message_id for c in h.emu.calls("editMessageText")
            )
            # Question 2 (no picture) is text; its explanation's picture follows its reveal.
            second = await group.wait_for(lambda m: "Question 2/2" in m.text, after=mark)
            assert second.photo is None
            picture = await group.wait_for(
                lambda m: m.photo is not None and m.message_id > second.message_id,
                after=mark,
                timeout=10,
            )
            assert picture.text == "" and not picture.buttons
            await group.wait_for(lambda m: "🏁" in m.text, after=mark, timeout=10)
            uploaded, again = sent_photos(h.emu)
            assert isinstance(uploaded, Upload) and isinstance(again, str)  # same file: its id
        finally:
            await h.stop_bot()


async def test_an_explanation_too_long_for_the_caption_follows_it(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path, long_why=True)) as h:
        user = h.emu.user(8701, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        assert question.photo is not None and buttons(question) == list("ABCD")
        mark = user.private.mark()
        await user.tap(question, "C")
        why = await user.private.next_message(after=mark)
        assert "Think about which" in why.text and buttons(why)[0] == "Next ▶️"
        marked = user.private.message(question.message_id)
        # The caption keeps the question, its options marked; the buttons moved to the why.
        assert marked.photo is not None and marked.edited and not marked.buttons
        assert "✅" in marked.text and "Think about which" not in marked.text


@pytest.mark.parametrize("name", ["long-prompt", "long-why"])
async def test_group_photo_then_text_and_a_reveal_too_long_for_a_caption(
    tmp_path: Path, name: str
) -> None:
    options = {"long_prompt": name == "long-prompt", "long_why": name == "long-why"}
    async with Emulator(token=TOKEN, flood=None) as emu:
        here = tmp_path / name
        h = GroupHarness(emu, here / "q.sqlite3", catalog(here, **options), seconds=1.0)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            photo = await group.wait_for(lambda m: m.photo is not None, after=mark)
            question = await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
            await admin.tap(question, "C")

            def reveal(m: EmuMessage) -> bool:
                return "✅" in m.text and "Question 1/2" in m.text

            shown = await group.wait_for(reveal, after=mark, timeout=10)
            assert "Think about which" in shown.text and shown.photo is None
            if name == "long-prompt":  # the question was text under an uncaptioned photo
                assert photo.text == "" and question.photo is None
                assert shown.message_id == question.message_id  # edited in place
            else:  # a captioned photo: too long a reveal follows it, the buttons go
                assert question.message_id == photo.message_id
                assert shown.message_id > photo.message_id
                assert not group.message(photo.message_id).buttons
            await group.wait_for(lambda m: "🏁" in m.text, after=mark, timeout=10)
        finally:
            await h.stop_bot()


def letter_of(message: EmuMessage, option: str) -> str:
    for line in message.text.splitlines():
        if line[1:3] == ". " and line[3:].strip() == option:
            return line[0]
    raise AssertionError(f"{option!r} not in:\n{message.text}")


async def test_a_review_card_carries_the_picture_too(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path)) as h:
        user = h.emu.user(8801, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        right = letter_of(question, "On the order of √N")
        mark = user.private.mark()
        await user.tap(question, "ABCD"[("ABCD".index(right) + 1) % 4])  # missed
        await answered(user.private, question, mark)
        mark = user.private.mark()
        await user.send("/review")
        offer = await user.private.next_message(after=mark)
        mark = user.private.mark()
        await user.tap(offer, "🎯 Practise my mistakes now")
        card = await user.private.next_message(after=mark)
        assert card.photo is not None and card.photo_name == PICTURE
        assert "On the order of √N" in card.text and len(card.buttons[0]) == 4
        assert isinstance(sent_photos(h.emu)[-1], str)  # the stored file_id, no upload
        mark = user.private.mark()
        await user.tap(card, letter_of(card, "On the order of √N"))
        done = await answered(user.private, card, mark)
        assert done.photo is not None and "About √N checkpoints are kept" in done.text


async def test_an_exam_question_carries_the_picture(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=catalog(tmp_path)) as h:
        user = h.emu.user(8901, "Awa", language_code="en")
        chat = user.private
        await user.send("/start")
        await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
        mark = chat.mark()
        await user.send(f"/exam {QUIZ}")
        choice = await chat.next_message(after=mark)
        mark = chat.mark()
        await user.tap(choice, "30 s per question")
        shown = await chat.next_message(after=mark)
        pictured = "On the order of √N" in shown.text
        if not pictured:  # exams may ask in another order: answer on to the pictured one
            mark = chat.mark()
            await user.tap(shown, "A")
            shown = await chat.next_message(after=mark)
        assert shown.photo is not None and "Exam" in shown.text and "⏱" in shown.text
        mark = chat.mark()
        await user.tap(shown, "A")
        edited = await chat.wait_for(
            lambda m: m.message_id == shown.message_id and m.edited, after=mark
        )
        assert edited.photo is not None and not edited.buttons  # saved, the caption says so


async def test_a_picture_that_cannot_be_sent_gives_way_to_its_alt_text(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pictures = catalog(tmp_path)
    async with bot_at(tmp_path, catalog=pictures) as h:
        # The file was damaged after the bot loaded (and checked) it: Telegram refuses the bytes.
        (tmp_path / "content" / "media" / PICTURE).write_bytes(b"no longer a picture")
        user = h.emu.user(9001, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        assert question.photo is None and buttons(question) == list("ABCD")
        assert question.text.startswith("🖼 A chain of 16 layers after the input x")
        assert "Question 1/2" in question.text
        assert handler_errors(caplog) == [] and stored_ids(h) == []


async def test_a_group_question_whose_picture_failed_is_revealed_in_place(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(emu, tmp_path / "q.sqlite3", catalog(tmp_path), seconds=1.0)
        await h.start_bot()
        try:
            (tmp_path / "content" / "media" / PICTURE).write_bytes(b"no longer a picture")
            group, admin = await make_group(h)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            question = await group.wait_for(lambda m: "Question 1/2" in m.text, after=mark)
            assert question.photo is None and question.text.startswith("🖼 A chain of 16")

            def revealed(m: EmuMessage) -> bool:
                return m.message_id == question.message_id and "✅" in m.text

            shown = await group.wait_for(revealed, after=mark, timeout=10)
            assert not shown.buttons
        finally:
            await h.stop_bot()
