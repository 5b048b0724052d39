"""Issue 29: every route to a Wolof question says the translation awaits a native speaker's
review (the quiz card did; a deep link, a group run and review, practice and exam cards did
not), and the Wolof interface says so of itself."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from bot.i18n import translator
from tests.e2e.groups_kit import group_bot
from tests.e2e.harness import Harness
from tests.e2e.progress_kit import QUIZ, take_quiz

WO = translator("wo")
NOTICE = WO._("⚠️ This translation has not yet been reviewed by a native speaker.")
UI_NOTICE = WO._(
    "This interface has not yet been reviewed by a native speaker of your language; "
    "some wording may read oddly."
)


def is_card(message: EmuMessage) -> bool:
    return bool(message.buttons) and message.buttons[0][0].text == "A"


async def in_wolof(user: SimUser) -> None:
    """An English learner switches the interface to Wolof with /language."""
    mark = user.private.mark()
    await user.send("/language")
    picker = await user.private.next_message(after=mark)
    [wolof] = [b.text for row in picker.buttons for b in row if "Wolof" in b.text]
    await user.tap(picker, wolof)
    await user.private.wait_for(lambda m: UI_NOTICE in m.text, after=mark)


async def test_the_wolof_welcome_says_the_interface_is_unreviewed(harness: Harness) -> None:
    user = harness.emu.user(7001, "Awa", language_code="wo")
    await user.send("/start")
    picker = await user.private.wait_for(lambda m: bool(m.buttons))
    await user.tap(picker, next(b.text for row in picker.buttons for b in row if "✓" in b.text))
    welcome = await user.private.wait_for(lambda m: "👋" in m.text)
    assert UI_NOTICE in welcome.text
    french = harness.emu.user(7002, "Claire", language_code="fr")
    await french.send("/start")
    picker = await french.private.wait_for(lambda m: bool(m.buttons))
    await french.tap(picker, next(b.text for row in picker.buttons for b in row if "✓" in b.text))
    welcome = await french.private.wait_for(lambda m: "👋" in m.text)
    assert "relue" not in welcome.text


async def test_a_deep_link_to_a_wolof_quiz_shows_the_notice(harness: Harness) -> None:
    user = harness.emu.user(7003, "Moussa", language_code="wo")
    await user.send(f"/start {QUIZ}")
    first = await user.private.wait_for(is_card)
    assert NOTICE in first.text
    french = harness.emu.user(7004, "Claire", language_code="fr")
    await french.send(f"/start {QUIZ}")
    first = await french.private.wait_for(is_card)
    assert "relue" not in first.text and "⚠️" not in first.text.split("\n")[1]


async def test_a_wolof_group_run_shows_the_notice(tmp_path: Path) -> None:
    async with group_bot(tmp_path, seconds=1.0) as h:
        admin = h.emu.user(7005, "Ada", language_code="wo")
        group = h.emu.group(-100929, "Mbooloo")
        group.add_member(admin, "creator")
        await h.emu.add_bot_to_group(group, by=admin)
        await group.wait_for(lambda m: "/push" in m.text)
        mark = group.mark()
        await admin.send(f"/push {QUIZ}", chat=group)
        first = await group.wait_for(lambda m: "1/2" in m.text, after=mark)
        assert NOTICE in first.text


async def _wolof_learner_with_misses(h: Harness, user_id: int) -> tuple[SimUser, ChatView]:
    quiz = h.catalog.quiz(QUIZ)
    assert quiz is not None
    user = h.emu.user(user_id, "Ibou", language_code="en")
    await take_quiz(user, user.private, quiz, miss={0, 1})
    await in_wolof(user)
    return user, user.private


async def test_a_wolof_review_card_shows_the_notice(harness: Harness) -> None:
    harness.clock.advance(2 * 86_400)  # the missed questions are due
    user, chat = await _wolof_learner_with_misses(harness, 7006)
    harness.clock.advance(2 * 86_400)
    mark = chat.mark()
    await user.send("/review")
    card = await chat.wait_for(is_card, after=mark)
    assert NOTICE in card.text


async def test_wolof_exam_and_practice_cards_show_the_notice(harness: Harness) -> None:
    user, chat = await _wolof_learner_with_misses(harness, 7007)
    mark = chat.mark()
    await user.send(f"/exam {QUIZ}")
    choice = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(choice, choice.buttons[0][0].text)
    card = await chat.wait_for(is_card, after=mark)
    assert NOTICE in card.text
    mark = chat.mark()
    await user.send("/stop")
    await chat.next_message(after=mark)
    mark = chat.mark()
    await user.send("/practice")
    start = WO._("▶️ Start")
    chooser = await chat.wait_for(
        lambda m: start in [b.text for row in m.buttons for b in row], after=mark
    )
    mark = chat.mark()
    await user.tap(chooser, start)
    card = await chat.wait_for(is_card, after=mark)
    assert NOTICE in card.text
