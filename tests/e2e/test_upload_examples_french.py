"""A French-speaking teacher's uploads (issue 28, Tests): every example file under examples/,
then a broken file, sent by an admin whose Telegram is in French. Each summary is in French,
and the broken file's every problem comes back in French, with its line, in one message."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.harness import Harness, running
from tests.e2e.uploads_kit import BROKEN, EXPECTED, group_with_admin

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("quiz.*"))
# English words of the checker, the importer and the summary: none may reach a French admin.
ENGLISH = ("is a sound quiz", "Title:", "Quiz id:", "Languages:", "warning", "Line ",
           "no explanation", "missing required field", "names no option", "No guide",
           "questions.", "question left out")  # fmt: skip


@pytest.fixture
async def h(tmp_path: Path, transport: str) -> AsyncIterator[Harness]:
    async with running(tmp_path, transport=transport) as harness:
        yield harness


async def test_every_example_and_a_broken_file_answer_a_french_admin_in_french(
    h: Harness,
) -> None:
    group, admin = await group_with_admin(h, "fr")
    for example in EXAMPLES:
        mark = group.mark()
        await admin.send_document(example.name, example.read_bytes(), caption="/upload",
                                  chat=group)  # fmt: skip
        shown = await group.wait_for(lambda m, n=example.name: n in m.text, after=mark, timeout=30)
        assert f"{example.name} est un quiz valide." in shown.text, shown.text
        assert "Titre\u00a0:" in shown.text and "Identifiant du quiz\u00a0:" in shown.text
        for english in ENGLISH:
            assert english not in shown.text, (english, shown.text)
        if example.name == "quiz.aiken.txt":  # Aiken has no explanations: said, by line
            assert "Ligne 1\u00a0: " in shown.text and "Ligne 7\u00a0: " in shown.text
        # No unrelated guide: the file names none, and the guides are offered in French.
        assert "Aucun guide" in shown.text, shown.text
        assert any(b.text.startswith("📖 ") for row in shown.buttons for b in row)

    mark = group.mark()
    await admin.send_document("broken.yaml", BROKEN.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "broken.yaml" in m.text, after=mark, timeout=30)
    assert "broken.yaml\u00a0: ce quiz ne peut pas être utilisé" in shown.text, shown.text
    for line in EXPECTED["fr"]:
        assert line in shown.text, shown.text
    for english in ENGLISH:
        assert english not in shown.text, (english, shown.text)
    later = [m.text for m in group.messages[group.messages.index(shown) + 1 :]]
    assert not any("broken.yaml" in text for text in later)  # one message holds them all
