"""An uploaded quiz's guide (issue 28, newcomer walk item 7): the one the file names, one an
admin picks from the upload summary's buttons, or none. Before, a GIFT, Aiken or CSV upload
linked the first guide of guides.yaml (an unrelated one) on its intro, every reveal and the
results, and the summary did not say so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.emulator.driver import ChatView, SimUser
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness, running
from tests.e2e.uploads_kit import GOOD_YAML, make_group

AIKEN = (Path(__file__).parents[2] / "examples" / "quiz.aiken.txt").read_bytes()


@pytest.fixture
async def h(tmp_path: Path, transport: str) -> AsyncIterator[Harness]:
    async with running(tmp_path, transport=transport) as harness:
        yield harness


def labels(message: EmuMessage) -> list[str]:
    return [b.text for row in message.buttons for b in row]


async def intro(group: ChatView, admin: SimUser, quiz_id: str) -> str:
    """The group run's intro of `quiz_id`, then the run stopped."""
    mark = group.mark()
    await admin.send(f"/push {quiz_id}", chat=group)
    shown = await group.wait_for(lambda m: "🎯" in m.text, after=mark, timeout=30)
    await admin.send("/stop", chat=group)
    await group.wait_for(lambda m: "⏹" in m.text, after=mark, timeout=30)
    return shown.text


async def test_a_file_without_a_guide_links_none_until_an_admin_picks_one(h: Harness) -> None:
    group, admin, member = await make_group(h)
    guides = list(h.catalog.guides.values())
    mark = group.mark()
    await admin.send_document("week 3.aiken.txt", AIKEN, caption="/upload", chat=group)
    summary = await group.wait_for(lambda m: "is a sound quiz" in m.text, after=mark, timeout=30)
    assert "No guide" in summary.text, summary.text
    assert not any(g.title.get("en") in summary.text for g in guides), summary.text
    for guide in guides:  # one button per guide, beside Push and Schedule
        assert f"📖 {guide.title.get('en')}" in labels(summary)
    assert "📖 Guide" not in await intro(group, admin, "week-3")

    chosen = guides[1]
    refused = await member.tap(summary, f"📖 {chosen.title.get('en')}")
    assert refused is not None and refused.show_alert  # admins only
    await admin.tap(summary, f"📖 {chosen.title.get('en')}")
    picked = await group.wait_for(
        lambda m: m.message_id == summary.message_id and m.edited and "📖 Guide" in m.text
    )
    assert chosen.title.get("en") in picked.text
    assert not any(label.startswith("📖") for label in labels(picked))
    assert f"📖 Guide: {chosen.title.get('en')}" in await intro(group, admin, "week-3")

    await h.restart_bot()  # the choice is the store's, not the worker's memory
    assert f"📖 Guide: {chosen.title.get('en')}" in await intro(group, admin, "week-3")


async def test_a_yaml_file_keeps_the_guide_it_names_and_offers_no_buttons(h: Harness) -> None:
    group, admin, _ = await make_group(h)
    named = h.catalog.guides["gradient-checkpointing"].title.get("en")
    mark = group.mark()
    await admin.send_document("mine.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    summary = await group.wait_for(lambda m: "is a sound quiz" in m.text, after=mark, timeout=30)
    assert f"📖 Guide: {named}" in summary.text, summary.text
    assert not any(label.startswith("📖") for label in labels(summary))
    assert f"📖 Guide: {named}" in await intro(group, admin, "my-quiz")


async def test_the_yaml_example_names_no_guide_and_gets_the_buttons(h: Harness) -> None:
    """examples/quiz.yaml (arithmetic and geography) named gradient-checkpointing (issue 28
    #38); an uploaded YAML may leave `guide:` out and then links to none, as a GIFT file."""
    group, admin, _ = await make_group(h)
    example = Path(__file__).parents[2] / "examples" / "quiz.yaml"
    mark = group.mark()
    await admin.send_document("quiz.yaml", example.read_bytes(), caption="/upload", chat=group)
    summary = await group.wait_for(lambda m: "is a sound quiz" in m.text, after=mark, timeout=30)
    assert "Quiz id: warm-up" in summary.text and "No guide" in summary.text, summary.text
    assert "📖 The training loop" in labels(summary)
    await admin.tap(summary, "📖 The training loop")
    await group.wait_for(
        lambda m: m.message_id == summary.message_id and "📖 Guide: The training loop" in m.text
    )
    await h.restart_bot()
    assert "📖 Guide: The training loop" in await intro(group, admin, "warm-up")


async def test_a_private_upload_offers_the_guides_too(h: Harness) -> None:
    """A file sent privately (/upload, then the group) had the summary's "No guide" and no way
    to pick one: its summary has the guide buttons too, for the admin who sent it."""
    group, admin, member = await make_group(h)
    await admin.send("/start")
    await admin.private.wait_for(lambda m: bool(m.buttons))
    mark = admin.private.mark()
    await admin.send_document("week 3.aiken.txt", AIKEN, caption="/upload")
    ask = await admin.private.next_message(after=mark, timeout=30)
    await admin.tap(ask, ask.buttons[0][0].text)  # the group
    summary = await admin.private.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
    assert "No guide" in summary.text and "📖 The training loop" in labels(summary)
    forged = await member.tap(summary, "📖 The training loop")  # another's chat: refused
    assert forged is not None and forged.text
    await admin.tap(summary, "📖 The training loop")
    picked = await admin.private.wait_for(
        lambda m: m.message_id == summary.message_id and "📖 Guide" in m.text
    )
    assert "The training loop" in picked.text and not picked.buttons
    assert "📖 Guide: The training loop" in await intro(group, admin, "week-3")
