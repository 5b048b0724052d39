"""/practice without dead ends (newcomer walk items 29 and 31): the chooser offers only the
levels that have quizzes among the chosen guides, and a finished set ends with buttons to
another set and to the quiz list, in the learner's language."""

from __future__ import annotations

from bot.core.models import Level
from bot.emulator.state import EmuMessage
from tests.e2e.harness import Harness
from tests.e2e.practice_kit import LETTERS, play_set, right_letter, shown_question


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


async def test_an_answered_practice_card_carries_report(harness: Harness) -> None:
    """Newcomer walk item 29: answered /practice cards had no ⚠️ Report, unlike every other
    answered card. The report names the card's own question (found from the set, server-side);
    a card of someone else's set, or one not answered yet, is refused and nothing is stored."""
    h = harness
    user = h.emu.user(3105, "Awa", language_code="en")
    chat = user.private
    await user.send("/start")
    await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
    mark = chat.mark()
    await user.send("/practice")
    chooser = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.tap(chooser, "▶️ Start")
    shown = await chat.next_message(after=mark)
    quiz, question = shown_question(h, shown.text)
    ((set_id,),) = h.rows("SELECT max(id) FROM practice_sets WHERE user_id = 3105")
    other = h.emu.user(3106, "Modou", language_code="en")
    await other.send("/start")
    picker = await other.private.wait_for(lambda m: bool(m.buttons))
    early = await user.tap(shown, callback_data=f"psr:{set_id}:0")  # not answered yet
    assert early is not None and early.show_alert
    await user.tap(shown, LETTERS[right_letter(h, shown)])
    explained = await chat.wait_for(
        lambda m: m.message_id == shown.message_id and "📖" in m.text and bool(m.buttons)
    )
    assert labels(explained) == ["⚠️ Report"]
    forged = await other.tap(picker, callback_data=f"psr:{set_id}:0")  # someone else's set
    assert forged is not None and forged.show_alert
    await user.tap(explained, "⚠️ Report")
    reasons = await chat.wait_for(
        lambda m: m.message_id == shown.message_id and "⬅️ Back" in labels(m)
    )
    mark = chat.mark()
    await user.tap(reasons, "The answer key looks wrong")
    await chat.next_message(after=mark)  # the invitation to add a sentence
    assert h.rows("SELECT user_id, quiz_id, question_id, reason FROM problem_reports") == [
        (3105, quiz.id, question.id, "key")
    ]
    back = await chat.wait_for(
        lambda m: m.message_id == shown.message_id and labels(m) == ["⚠️ Report"]
    )
    assert back.buttons
