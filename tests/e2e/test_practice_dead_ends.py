"""/practice without dead ends (newcomer walk items 29 and 31): the chooser offers only the
levels that have quizzes among the chosen guides, and a finished set ends with buttons to
another set and to the quiz list, in the learner's language."""

from __future__ import annotations

from bot.core.models import Level
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness
from tests.e2e.test_practice import play_set


def labels(message: EmuMessage) -> list[str]:
    return [b.text for row in message.buttons for b in row]


async def test_levels_offered_are_those_with_quizzes(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3101, "Claire", language_code="fr")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ Français")
    mark = chat.mark()
    await user.send("/practice")
    chooser = await chat.next_message(after=mark)
    levels = {q.level for q in h.catalog}
    names = {Level.BEGINNER: "débutant", Level.INTERMEDIATE: "intermédiaire"}
    names[Level.ADVANCED] = "avancé"
    for level, name in names.items():  # no guide ticked: every level that has a quiz
        assert (name in labels(chooser)) == (level in levels)
    # One guide ticked whose quizzes are all of one level: only that level (and "any") is left.
    guide = next(
        g
        for g in h.catalog.guides.values()
        if len({q.level for q in h.catalog if q.guide == g}) == 1
    )
    (only,) = {q.level for q in h.catalog if q.guide == guide}
    await user.tap(chooser, guide.title.get("fr"))
    chooser = await chat.wait_for(
        lambda m: m.message_id == chooser.message_id and f"✓ {guide.title.get('fr')}" in labels(m)
    )
    offered = [name for level, name in names.items() if name in labels(chooser)]
    assert offered == [names[only]]
    assert "✓ tout niveau" in labels(chooser)


async def test_practice_summary_ends_with_buttons(harness: Harness) -> None:
    h = harness
    user = h.emu.user(3102, "Awa", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    mark = chat.mark()
    await user.send("/practice")
    chooser = await chat.next_message(after=mark)
    await user.tap(chooser, "5 questions")
    chooser = await chat.wait_for(
        lambda m: m.message_id == chooser.message_id and "✓ 5 questions" in labels(m)
    )
    done = await play_set(h, user, chooser, miss={1})
    assert "Practice done: 4/5" in done.text
    assert labels(done) == ["🔁 Another set", "📚 Other quizzes"]

    mark = chat.mark()
    await user.tap(done, "🔁 Another set")
    again = await chat.next_message(after=mark)
    assert again.message_id != done.message_id  # the summary stays as it was
    assert "Practice" in again.text and "▶️ Start" in labels(again)
    (kept,) = [m for m in chat.messages if m.message_id == done.message_id]
    assert "Practice done: 4/5" in kept.text

    mark = chat.mark()
    await user.tap(done, "📚 Other quizzes")
    listed = await chat.next_message(after=mark)
    assert any(q.title.get("en") in labels(listed) for q in h.catalog)
