"""Users' documents: the update carries them, getFile gives a path, the path downloads the bytes."""

from __future__ import annotations

import struct
import zlib
from collections.abc import AsyncIterator

import httpx
import pytest
import telegram
from emu_support import TOKEN, fast_request
from telegram.error import BadRequest

from bot.emulator import Emulator

GIFT = b"::q1:: 2+2? {=4 ~5}\n"


@pytest.fixture
async def files_bot(emu: Emulator) -> AsyncIterator[telegram.Bot]:
    bot = telegram.Bot(
        TOKEN,
        base_url=emu.base_url,
        base_file_url=emu.base_file_url,
        request=fast_request(),
        get_updates_request=fast_request(),
    )
    async with bot:
        yield bot


async def test_a_document_with_a_command_caption_reaches_the_bot_and_downloads(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100, "Study")
    group.add_member(awa, "administrator")
    await emu.add_bot_to_group(group, by=awa)
    seen = len(await files_bot.get_updates())
    await awa.send_document("quiz.gift", GIFT, caption="/upload", chat=group)
    (update,) = (await files_bot.get_updates())[seen:]
    message = update.message
    assert message is not None and message.document is not None
    assert message.caption == "/upload" and message.text is None
    assert [e.type for e in message.caption_entities] == ["bot_command"]
    assert (message.document.file_name, message.document.file_size) == ("quiz.gift", len(GIFT))
    assert message.api_kwargs == {} and message.document.api_kwargs == {}
    file = await files_bot.get_file(message.document.file_id)
    assert file.file_size == len(GIFT)
    assert file.file_path is not None and file.file_path.startswith(emu.base_file_url)
    assert bytes(await file.download_as_bytearray()) == GIFT
    assert emu.stats.requests["download"] == 1


async def test_privacy_mode_hides_a_document_without_a_command_until_a_reply_names_it(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100, "Study")
    group.add_member(awa, "administrator")
    await emu.add_bot_to_group(group, by=awa)
    seen = len(await files_bot.get_updates())
    sent = await awa.send_document("quiz.txt", b"What?\nA. x\nB. y\nANSWER: A\n", chat=group)
    await awa.send("/upload", chat=group, reply_to=sent)
    (update,) = (await files_bot.get_updates())[seen:]  # only the command
    message = update.message
    assert message is not None and message.text == "/upload"
    replied = message.reply_to_message
    assert replied is not None and replied.document is not None
    assert replied.document.file_name == "quiz.txt"
    file = await files_bot.get_file(replied.document.file_id)
    assert (await file.download_as_bytearray()).startswith(b"What?")


async def test_anonymous_admin_sends_a_file_for_the_group(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    group = emu.group(-100, "Study")
    group.add_member(awa, "creator")
    await emu.add_bot_to_group(group, by=awa)
    seen = len(await files_bot.get_updates())
    await group.send_document_as_anonymous_admin("q.csv", b"a,b\n", caption="/upload")
    message = (await files_bot.get_updates())[seen:][0].message
    assert message is not None and message.sender_chat is not None
    assert message.sender_chat.id == group.id and message.document is not None
    assert "[file q.csv] /upload" in group.transcript()


async def test_get_file_refuses_unknown_ids_and_downloads_need_the_token(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    with pytest.raises(BadRequest, match=r"(?i)invalid file_id"):
        await files_bot.get_file("BQAC-nothing")
    awa = emu.user(1001, "Awa")
    sent = await awa.send_document("big.yaml", b"x" * 10, file_size=10**9)
    assert sent.document is not None and sent.document["file_size"] == 10**9  # a claimed size
    file = await files_bot.get_file(sent.document["file_id"])
    assert file.file_size == 10  # getFile tells the truth
    assert file.file_path is not None
    async with httpx.AsyncClient() as http:
        assert (await http.get(file.file_path)).content == b"x" * 10
        wrong = await http.get(file.file_path.replace(TOKEN, "999:other"))
        assert wrong.status_code == 401
        unknown = await http.get(file.file_path + "-nothing")
        assert unknown.status_code == 404
    assert emu.file_bytes(sent.document["file_id"]) == b"x" * 10


async def test_a_document_in_a_private_chat_round_trips_through_ptb(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send_document("quiz.yaml", b"id: q\n", caption="for my group")
    message = (await files_bot.get_updates())[-1].message
    assert message is not None and message.caption == "for my group"
    assert message.caption_entities == ()
    assert message.document is not None and message.document.mime_type == "text/plain"


def _png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


async def test_a_photo_uploads_once_then_goes_by_file_id_and_its_caption_is_edited(
    emu: Emulator, files_bot: telegram.Bot
) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    data = _png(2000, 1000)
    first = await files_bot.send_photo(
        1001,
        telegram.InputFile(data, filename="chain.png"),
        caption="<b>Question 1</b>",
        parse_mode="HTML",
    )
    assert [(p.width, p.height) for p in first.photo] == [(90, 45), (1280, 640)]
    assert first.caption == "Question 1" and first.caption_entities[0].type == "bold"
    largest = first.photo[-1].file_id
    (upload,) = emu.calls("sendPhoto")
    assert not isinstance(upload["photo"], str)  # the bytes went up
    again = await files_bot.send_photo(1001, largest, caption="again")
    assert emu.calls("sendPhoto")[-1]["photo"] == largest  # a file_id string, no upload
    assert [p.file_id for p in again.photo] == [p.file_id for p in first.photo]
    file = await files_bot.get_file(largest)
    assert file.file_path is not None and "/photos/" in file.file_path
    assert bytes(await file.download_as_bytearray()) == data
    shown = awa.private.message(first.message_id)
    assert shown.photo is not None and awa.private.transcript().count("[photo: chain.png]") == 2
    # The caption is edited with editMessageCaption; editMessageText refuses a photo.
    with pytest.raises(BadRequest, match="no text in the message"):
        await files_bot.edit_message_text("x", chat_id=1001, message_id=first.message_id)
    await files_bot.edit_message_caption(1001, first.message_id, caption="answered")
    assert awa.private.message(first.message_id).text == "answered"
    text = await files_bot.send_message(1001, "plain")
    with pytest.raises(BadRequest, match="no caption in the message"):
        await files_bot.edit_message_caption(1001, text.message_id, caption="x")


async def test_photo_refusals(emu: Emulator, files_bot: telegram.Bot) -> None:
    awa = emu.user(1001, "Awa")
    await awa.send("/start")
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await files_bot.send_photo(1001, "AgACnothing")
    with pytest.raises(BadRequest, match=r"(?i)image_process_failed"):
        await files_bot.send_photo(1001, telegram.InputFile(b"GIF89a....", filename="x.png"))
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await files_bot.send_photo(
            1001, telegram.InputFile(_png(20, 20), filename="x.png"), caption="x" * 1025
        )
    sent = await files_bot.send_photo(1001, telegram.InputFile(_png(20, 20), filename="x.png"))
    emu.expire_file(sent.photo[-1].file_id)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await files_bot.send_photo(1001, sent.photo[-1].file_id)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await files_bot.send_photo(1001, sent.photo[0].file_id)  # every size of it
