"""Every screen, private and in groups, run with pseudo catalogues: no visible UI word unmarked.

This is the test that makes English-in-a-French-chat impossible to miss: a msgid that pybabel
did not extract, a label typed into the code, or an English word from a library would all show
up here unmarked. Content (quiz YAML), numbers, emoji, names and language names are allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.zones import COMMON_ZONES
from bot.emulator import EmuMessage
from bot.emulator.driver import ChatView, SimUser
from bot.i18n import translator
from tests.e2e.groups_kit import GroupHarness, group_bot
from tests.e2e.harness import answered
from tests.e2e.i18n_kit import Seen, walk_private_flow
from tests.e2e.uploads_kit import BROKEN
from tests.i18n.pseudo import content_strings, language_names, unmarked_words, write_pseudo_locales

DAY = 86_400.0
QUIZ = "gradient-accumulation"
NAMES = {"Ndèye", "Ada", "Awa", "Ibou", "Groupe", "Studio"}
# The time zones /timezone offers as buttons are IANA identifiers, typed as they are, like
# command names: not UI text.
ZONE_WORDS = {word for zone in COMMON_ZONES for word in re.split(r"[/_]", zone)}


@pytest.fixture
def pseudo_locales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = write_pseudo_locales(tmp_path / "pseudo-locales")
    monkeypatch.setenv("QUIZBOT_LOCALES_DIR", str(root))
    translator.cache_clear()
    yield root
    monkeypatch.delenv("QUIZBOT_LOCALES_DIR")
    translator.cache_clear()


async def reply(
    chat: ChatView, user: SimUser, text: str, where: ChatView | None = None
) -> EmuMessage:
    mark = chat.mark()
    await user.send(text, chat=where)
    return await chat.next_message(after=mark)


async def walk_progress(h: GroupHarness, user: SimUser, seen: Seen) -> None:
    """/stats; /review with nothing due and its offer to practise, a practice round (card,
    answered card, Next, /stop, a stale tap); /remind in all forms; the reminder; a review round
    to its summary; refused taps."""
    chat = user.private
    await reply(chat, user, "/stats")
    offer = await reply(chat, user, "/review")
    mark = chat.mark()
    await user.tap(offer, offer.buttons[0][0].text)  # practise my mistakes now
    practice = await chat.next_message(after=mark)
    mark = chat.mark()
    seen.popup((await user.tap(practice, "A")).text)
    done = await answered(chat, practice, mark)
    mark = chat.mark()
    await user.tap(done, done.buttons[0][0].text)  # Next
    following = await chat.next_message(after=mark)
    await reply(chat, user, "/stop")
    seen.popup((await user.tap(following, callback_data=data(following, "A"))).text)  # over
    seen.popup((await user.tap(offer, callback_data=f"rvp:{user.id + 1}")).text)  # not yours
    for command in (
        "/timezone",
        "/timezone europe/paris",
        "/timezone Mars/Olympus",
        "/timezone Europe/Paris",
        "/remind",
        "/remind on 25:00",
        "/remind sometimes",
        "/remind on 07:30",
        "/timezone",
        "/timezone Africa/Dakar",
    ):
        await reply(chat, user, command)
    h.clock.advance(DAY)
    assert h.bot is not None
    assert await h.bot.reminder_handlers.send_reminder(user.id)
    card = await reply(chat, user, "/review")
    while True:
        assert card.buttons, card.text
        mark = chat.mark()
        seen.popup((await user.tap(card, "A")).text)
        done = await answered(chat, card, mark)
        seen.popup((await user.tap(card, callback_data=data(card, "B"))).text)  # answered
        mark = chat.mark()
        await user.tap(done, done.buttons[0][0].text)  # Next, or the summary
        card = await chat.next_message(after=mark)
        if not card.buttons or card.buttons[0][0].text != "A":
            break  # the summary
    seen.popup((await user.tap(card, callback_data="rva:1:9:1:0123:0")).text)  # a closed round
    for command in ("/remind off", "/remind off", "/stats"):
        await reply(chat, user, command)


def data(message: EmuMessage, text: str) -> str:
    """The callback data of a button, to tap it again once the message no longer shows it."""
    found = message.button(text).callback_data
    assert found is not None
    return found


async def walk_group(h: GroupHarness, admin: SimUser, member: SimUser, seen: Seen) -> ChatView:
    group = h.emu.group(-100777, "Groupe")
    group.add_member(admin, "creator")
    group.add_member(member, "member")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)
    for who, command in (
        (admin, "/help"),
        (member, f"/push {QUIZ}"),  # refused
        (admin, "/stop"),  # nothing running
        (admin, "/groupstats"),  # nothing yet
        (admin, "/push no-such-quiz"),
        (admin, "/schedule"),
        (admin, "/schedule nonsense someday 25:99"),
        (admin, "/schedule next mon,wed 25:99"),
        (admin, "/schedules"),
        (admin, "/timezone europe/paris"),
        (admin, "/timezone Mars/Olympus"),
        (admin, "/timezone"),
        (admin, "/timezone Europe/Paris"),
        (admin, f"/schedule {QUIZ} lun,mer 18:30"),
        (admin, "/schedule next daily 07:00"),
        (admin, "/schedule random weekends 09:00"),
        (admin, "/schedule next daily 07:00"),  # duplicate
        (admin, "/schedules"),
        (admin, "/unschedule 7"),
        (admin, "/unschedule x"),
        (admin, "/unschedule 3"),
        (admin, "/stats"),  # private-only: a pointer to the private chat
        (admin, "/deletequiz"),  # its usage
        (admin, "/settings"),
    ):
        await reply(group, who, command, group)
    panel = group.last
    assert panel is not None and panel.buttons
    seen.popup((await member.tap(panel, callback_data=panel.buttons[0][0].callback_data)).text)
    mark = group.mark()
    seen.popup((await admin.tap(panel, callback_data=panel.buttons[2][1].callback_data)).text)
    await group.wait_for(lambda m: m.edited, after=mark)
    picker = await reply(group, admin, "/quiz", group)
    assert picker.buttons
    mark = group.mark()
    await admin.tap(picker, callback_data=picker.buttons[0][0].callback_data)
    await group.next_message(after=mark)  # intro
    for index in range(2):
        question = await group.wait_for(lambda m, i=index: f"{i + 1}/2" in m.text)
        seen.popup((await member.tap(question, "A")).text)
        seen.popup((await member.tap(question, "B")).text)
    await group.wait_for(lambda m: "🏁" in m.text, timeout=8)
    mark = group.mark()
    await admin.send(f"/push {QUIZ}", chat=group)
    await group.wait_for(lambda m: "1/2" in m.text, after=mark)
    await reply(group, admin, "/push " + QUIZ, group)  # already running
    mark = group.mark()
    await admin.send("/stop", chat=group)
    await group.wait_for(lambda m: "⏹" in m.text, after=mark)
    await reply(group, admin, "/groupstats", group)
    seen.popup((await member.tap(panel, callback_data="g:999:0:0")).text)  # a stale answer
    await walk_uploads(group, admin, member, seen)
    return group


# An uploaded quiz's own words are content, as the shipped quizzes' are.
UPLOAD_GIFT = (
    "$CATEGORY: Ndèye\n\n::sum:: How much is 2 + 2? {\n=Four #Two and two make four.\n~Five\n}\n"
)
UPLOAD_CONTENT = ["How much is 2 + 2?", "Four", "Five", "Two and two make four.", "nos.gift",
                  "broken.yaml", "ndeye", "Ndèye", "sum", "capital", "my-quiz"]  # fmt: skip


async def walk_uploads(group: ChatView, admin: SimUser, member: SimUser, seen: Seen) -> None:
    """/upload without a file; a sound GIFT file (its summary, its guide buttons, a member's
    refused tap, an admin's pick); a broken YAML file (every problem in one message)."""
    await reply(group, admin, "/upload", group)
    mark = group.mark()
    await admin.send_document("nos.gift", UPLOAD_GIFT.encode(), caption="/upload", chat=group)
    summary = await group.wait_for(lambda m: "nos.gift" in m.text, after=mark, timeout=30)
    guide = next(b for row in summary.buttons for b in row if b.text.startswith("📖"))
    seen.popup((await member.tap(summary, guide.text)).text)  # admins only
    await admin.tap(summary, guide.text)
    await group.wait_for(lambda m: m.message_id == summary.message_id and m.edited, after=mark)
    mark = group.mark()
    await admin.send_document("broken.yaml", BROKEN.encode(), caption="/upload", chat=group)
    await group.wait_for(lambda m: "broken.yaml" in m.text, after=mark, timeout=30)


async def test_every_screen_is_marked_in_the_pseudo_locale(
    tmp_path: Path, pseudo_locales: Path
) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        user = h.emu.user(4101, "Ndèye", language_code="fr")
        seen = Seen()
        await walk_private_flow(h, user, "fr", seen)
        await walk_progress(h, user, seen)
        await reply(user.private, user, "/top")  # group-only: it works in a group
        admin = h.emu.user(5001, "Ada", language_code="fr")
        group = await walk_group(h, admin, user, seen)
        for message in [*user.private.bot_messages, *group.bot_messages]:
            seen.message(message)

        content = [*content_strings(h.catalog), *UPLOAD_CONTENT]
        allowed = NAMES | language_names() | ZONE_WORDS
        leaks = {
            text: words for text in seen.texts if (words := unmarked_words(text, content, allowed))
        }
    assert len(seen.texts) > 120  # the walk did reach every screen
    assert leaks == {}
