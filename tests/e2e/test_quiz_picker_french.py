"""/quiz in a French group (issue 28, items 23 and 24): French spacing before the colon of each
line, buttons that can be told apart when two quizzes share a title, and an upload's summary
naming its languages in the reader's language ("anglais", not "English")."""

from __future__ import annotations

from pathlib import Path

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.groups_kit import GroupHarness, group_bot
from tests.e2e.uploads_kit import GOOD_YAML

NBSP = "\u00a0"  # before a colon, as the French catalogue writes it ("Langue : Français")


async def say(group: ChatView, admin: SimUser, text: str) -> str:
    mark = group.mark()
    await admin.send(text, chat=group)
    return (await group.next_message(after=mark)).text


async def french_group(h: GroupHarness) -> tuple[ChatView, SimUser]:
    admin = h.emu.user(1001, "Claire", language_code="fr")
    group = h.emu.group(-100500, "Groupe d’étude")
    group.add_member(admin, "creator")
    await h.emu.add_bot_to_group(group, by=admin)
    await group.wait_for(lambda m: "/push" in m.text)  # in French: the creator's language
    return group, admin


async def upload(group: ChatView, admin: SimUser, name: str, text: str) -> str:
    mark = group.mark()
    await admin.send_document(name, text.encode(), caption="/upload", chat=group)
    return (await group.wait_for(lambda m: name in m.text, after=mark, timeout=30)).text


async def test_french_quiz_list_spacing_distinct_buttons_and_language_names(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path) as h:
        group, admin = await french_group(h)
        summary = await upload(group, admin, "ours.yaml", GOOD_YAML)
        assert f"Langues{NBSP}: anglais" in summary, summary
        assert "English" not in summary
        twin = GOOD_YAML.replace("id: my-quiz", "id: my-twin")
        assert "my-twin" in await upload(group, admin, "twin.yaml", twin)

        picker_text = await say(group, admin, "/quiz")
        for quiz in h.catalog:
            assert f"• {quiz.title.get('fr')}{NBSP}: {quiz.id}" in picker_text, picker_text
        assert f"• Our own quiz{NBSP}: my-quiz" in picker_text
        assert f"• Our own quiz{NBSP}: my-twin" in picker_text
        picker = group.last
        assert picker is not None
        labels = [b.text for row in picker.buttons for b in row]
        assert len(labels) == len(set(labels)), labels  # two quizzes titled "Our own quiz"
        assert any("my-quiz" in label for label in labels), labels
        assert any("my-twin" in label for label in labels), labels
        # A title used once keeps its plain label.
        for quiz in h.catalog:
            assert quiz.title.get("fr") in labels, labels

        listing = await say(group, admin, "/quizzes")
        assert f"• Our own quiz{NBSP}: my-quiz" in listing, listing
