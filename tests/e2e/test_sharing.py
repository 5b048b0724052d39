"""Passing a quiz on (issue 27): the bot added to a group straight into a quiz by a startgroup
link, and a quiz shared from any chat through inline mode, all through the emulator."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from bot.tg import callbacks as cb
from tests.e2e.groups_kit import QUIZ, GroupHarness, group_bot, short_catalog
from tests.e2e.harness import answer_current
from tests.e2e.uploads_kit import GIFT

BOT = "quizbot_test_bot"
CATALOG = short_catalog()


def group_runs(h: GroupHarness) -> list[tuple[int, str]]:
    return h.rows("SELECT chat_id, quiz_id FROM attempts WHERE kind = 'group'")


async def added_via_link(
    h: GroupHarness, payload: str, chat_id: int = -100700
) -> tuple[ChatView, SimUser, EmuMessage]:
    """An admin adds the bot with `?startgroup=<payload>`: the card it posts for them."""
    admin = h.emu.user(1001, "Ada", language_code="en")
    group = h.emu.group(chat_id, f"Study group {chat_id}", type="supergroup")
    group.add_member(admin, "creator")
    await h.emu.add_bot_via_link(group, payload, by=admin)
    card = await group.wait_for(lambda m: any("Push now" in b.text for r in m.buttons for b in r))
    return group, admin, card


async def test_an_admin_who_adds_the_bot_by_link_gets_the_card_and_can_push(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin, card = await added_via_link(h, QUIZ)
        assert CATALOG.quizzes[QUIZ].title.get("en") in card.text
        assert [b.text for b in card.buttons[0]] == ["▶️ Push now", "🗓 Schedule"]
        await admin.tap(card, "🗓 Schedule")
        await group.wait_for(lambda m: f"/schedule {QUIZ}" in m.text)
        await admin.tap(card, "▶️ Push now")
        await group.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        assert group_runs(h) == [(group.id, QUIZ)]


async def test_an_unknown_quiz_in_the_link_gets_the_closest_one(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        _, _, card = await added_via_link(h, "gradient-acumulation")
        assert "I don't know the quiz gradient-acumulation. The closest one I have:" in card.text
        assert card.buttons[0][0].callback_data == cb.encode(cb.Setting(-100700, "push", QUIZ))


async def test_a_member_cannot_start_it_nor_forge_a_push_from_here_or_another_group(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, _, card = await added_via_link(h, QUIZ)
        bob = h.emu.user(2002, "Bob", language_code="en")
        group.add_member(bob)
        mark = group.mark()
        await bob.send(f"/start@{BOT} {QUIZ}", chat=group)
        note = await group.next_message(after=mark)
        assert "A group admin can start" in note.text and not note.buttons

        refusal = await bob.tap(card, "▶️ Push now")
        assert refusal is not None and "only the group's admins" in (refusal.text or "")

        # The card's data replayed in another group, by that group's own admin.
        other = h.emu.group(-100800, "Other group")
        other_admin = h.emu.user(3003, "Cheikh", language_code="en")
        other.add_member(other_admin, "creator")
        await h.emu.add_bot_to_group(other, by=other_admin)
        await other.wait_for(lambda m: "/push" in m.text)
        forged = card.buttons[0][0].callback_data
        assert forged is not None
        host = await other_admin.send("/help", chat=other)
        shown = await other.wait_for(lambda m: m.message_id > host.message_id)
        expired = await other_admin.tap(shown, callback_data=forged)
        assert expired is not None and "expired" in (expired.text or "")
        assert group_runs(h) == []


async def test_the_private_card_links_to_a_group_and_shares_only_with_inline_mode(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        awa = h.emu.user(2001, "Awa", language_code="en")
        card = await quiz_card(awa)
        urls = [b.url for row in card.buttons for b in row if b.url]
        assert urls == [f"https://t.me/{BOT}?startgroup={QUIZ}"]
        assert not [b for row in card.buttons for b in row if b.text == "📤 Share"]

        h.emu.supports_inline_queries = True  # /setinline; the bot reads getMe at start
        await h.restart_bot()
        card = await quiz_card(awa)
        share = card.button("📤 Share")
        assert share.switch_inline_query == QUIZ

        # The end-of-quiz screen too.
        mark = awa.private.mark()
        await awa.tap(card, "▶️ Start")
        for _ in range(len(CATALOG.quizzes[QUIZ])):
            question = await awa.private.next_message(after=mark)
            explanation = await answer_current(awa, question)
            mark = awa.private.mark()
            await awa.tap(explanation, explanation.buttons[0][0].text)
        result = await awa.private.next_message(after=mark)
        assert "Quiz finished" in result.text
        assert result.button("📤 Share").switch_inline_query == QUIZ


async def quiz_card(user: SimUser) -> EmuMessage:
    """The private card of QUIZ, from /quizzes (the list is edited into the card)."""
    mark = user.private.mark()
    await user.send("/quizzes")
    listing = await user.private.next_message(after=mark)
    title = CATALOG.quizzes[QUIZ].title.get("en")
    label = next(b.text for r in listing.buttons for b in r if title in b.text)
    await user.tap(listing, label)
    return await user.private.wait_for(
        lambda m: m.message_id == listing.message_id and "▶️ Start" in str(m.buttons)
    )


async def inline_bot(h: GroupHarness) -> None:
    h.emu.supports_inline_queries = True
    await h.restart_bot()


async def test_inline_lists_quizzes_in_the_askers_language(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        fanta = h.emu.user(2005, "Fanta", language_code="fr")
        answer = await fanta.inline("gradient")
        french = CATALOG.quizzes[QUIZ].title.get("fr")
        assert french != CATALOG.quizzes[QUIZ].title.get("en")
        assert french in answer.titles
        assert "question" in str(answer.result(QUIZ)["description"])  # "débutant · 2 questions"
        empty = await fanta.inline("")
        assert 0 < len(empty.results) <= 20
        assert set(empty.titles) <= {q.title.get("fr") for q in CATALOG}


async def test_inline_never_offers_a_groups_uploaded_quiz(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        group, admin, _ = await added_via_link(h, QUIZ)
        await admin.send_document("ours.gift", GIFT.encode(), caption="/upload", chat=group)
        await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
        for words in ("our-own-quiz", "Our own quiz", ""):
            answer = await admin.inline(words)
            assert "our-own-quiz" not in [r["id"] for r in answer.results]
            assert "Our own quiz" not in answer.titles


async def test_a_huge_or_hostile_query_is_answered(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        awa = h.emu.user(2001, "Awa", language_code="en")
        for words in ("x" * 10_240, "\x00\u202e<b>&amp;" * 500, "gradient " * 1200):
            answer = await awa.inline(words)
            assert len(answer.results) <= 20


async def test_the_posted_card_carries_the_two_deep_links(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        group, _, _ = await added_via_link(h, QUIZ)
        awa = h.emu.user(2001, "Awa", language_code="en")
        group.add_member(awa)
        answer = await awa.inline(QUIZ, chat_type="supergroup")
        assert answer.results[0]["id"] == QUIZ  # the id Share types comes first
        posted = await awa.post_inline(answer, QUIZ, chat=group)
        assert posted.via_bot_id == h.emu.bot["id"]
        assert CATALOG.quizzes[QUIZ].title.get("en") in posted.text
        assert [[(b.text, b.url) for b in row] for row in posted.buttons] == [
            [("▶️ Take it", f"https://t.me/{BOT}?start={QUIZ}")],
            [("👥 Play in a group", f"https://t.me/{BOT}?startgroup={QUIZ}")],
        ]


async def test_an_empty_query_lists_the_most_played_first(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        last = list(CATALOG)[-1]
        assert next(iter(CATALOG)).id != last.id
        for user_id in (2001, 2002):  # two starts of the last listed quiz: the most played
            user = h.emu.user(user_id, "Awa", language_code="en")
            mark = user.private.mark()
            await user.send(f"/start {last.id}")
            await user.private.next_message(after=mark)
        answer = await h.emu.user(2003, "Bob", language_code="en").inline("")
        assert answer.results[0]["id"] == last.id
        assert len(answer.results) == min(20, len(list(CATALOG)))


async def test_a_hostile_start_payload_in_a_group_is_answered_plainly(tmp_path: Path) -> None:
    async with group_bot(tmp_path) as h:
        group, admin, _ = await added_via_link(h, QUIZ)
        for payload in ("<b>&amp;", "x" * 3000, "Gradient-Accumulation"):
            mark = group.mark()
            await admin.send(f"/start@{BOT} {payload}", chat=group)
            reply = await group.next_message(after=mark)
            assert "Push now" in str(reply.buttons) or "I don't know that quiz" in reply.text
        assert "The closest one I have" in reply.text  # the id in other letter cases
        assert group_runs(h) == []


async def test_a_start_with_a_quiz_typed_in_a_forum_topic_is_answered_and_pushed_there(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        admin = h.emu.user(1001, "Ada", language_code="en")
        forum = h.emu.group(-1001234567, "Study forum", type="supergroup", forum=True)
        forum.add_member(admin, "creator")
        await h.emu.add_bot_to_group(forum, by=admin)
        await forum.wait_for(lambda m: "/push" in m.text)
        topic = forum.create_topic("Quizzes", by=admin)
        await admin.send(f"/start@{BOT} {QUIZ}", chat=forum, thread=topic)
        card = await forum.wait_for(lambda m: "Push now" in str(m.buttons))
        assert card.thread_id == topic
        await admin.tap(card, "▶️ Push now")
        first = await forum.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        assert first.thread_id == topic


async def test_a_card_posted_from_a_topic_lands_there_and_its_group_link_plays_there(
    tmp_path: Path,
) -> None:
    """An inline result chosen in a forum topic is posted in that topic (Telegram puts it
    where it was typed). Its buttons are links, so the bot hears of them only through the
    `/start@bot <quiz>` the group link sends: sent in that topic, the quiz plays there."""
    async with group_bot(tmp_path) as h:
        await inline_bot(h)
        admin = h.emu.user(1001, "Ada", language_code="en")
        forum = h.emu.group(-1001234567, "Study forum", type="supergroup", forum=True)
        forum.add_member(admin, "creator")
        await h.emu.add_bot_to_group(forum, by=admin)
        await forum.wait_for(lambda m: "/push" in m.text)
        topic = forum.create_topic("Quizzes", by=admin)
        answer = await admin.inline(QUIZ, chat_type="supergroup")
        posted = await admin.post_inline(answer, QUIZ, chat=forum, thread=topic)
        assert posted.thread_id == topic and posted.via_bot_id == h.emu.bot["id"]
        with pytest.raises(ValueError, match="no open topic"):
            await admin.post_inline(answer, QUIZ, chat=forum, thread=topic + 999)
        link = posted.buttons[1][0].url
        assert link == f"https://t.me/{BOT}?startgroup={QUIZ}"
        payload = link.partition("startgroup=")[2]
        await admin.send(f"/start@{BOT} {payload}", chat=forum, thread=topic)
        card = await forum.wait_for(lambda m: "Push now" in str(m.buttons))
        assert card.thread_id == topic
        await admin.tap(card, "▶️ Push now")
        first = await forum.wait_for(lambda m: "Question 1/2" in m.text, timeout=10)
        assert first.thread_id == topic
        assert group_runs(h) == [(forum.id, QUIZ)]
        general = [m for m in forum.bot_messages if m.thread_id is None]
        assert not any("Question" in m.text for m in general)
