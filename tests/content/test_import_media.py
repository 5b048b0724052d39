"""Pictures a quiz file carries -> content/media/ and `image:` in the written YAML, through the
importer's plan and write on a real content directory, then the checker on what was written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.content import check, load_catalog
from bot.content.formats import (
    DraftOption,
    DraftPicture,
    DraftQuestion,
    DraftQuiz,
    FormatProblem,
    ParseResult,
)
from bot.content.formats.draft import MULTIPLE, NUMBER
from bot.content.importer import ImportFailed, ImportRequest, plan, write
from bot.core.kinds import NumberAnswer
from tests.content.media_kit import jpeg, png

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    shutil.copy(FIXTURES / "valid" / "guides.yaml", root / "guides.yaml")
    return root


def question(qid: str, line: int, **extra: object) -> DraftQuestion:
    options = (DraftOption("Yes", True), DraftOption("No"))
    fields: dict[str, object] = {"explanation": f"Because {qid}.", "line": line, **extra}
    return DraftQuestion(qid, f"Is {qid} right?", options, **fields)  # type: ignore[arg-type]


def imported(
    content: Path, *questions: DraftQuestion, force: bool = False
) -> tuple[list[Path], list[FormatProblem]]:
    quiz = DraftQuiz("pics", "Pictures", "en", questions, "Quiz with pictures.")
    request = ImportRequest(content / "x.xml", "gift", content, guide="demo")
    planned = plan(request, ParseResult([quiz]))
    return write(planned, force=force), planned.problems


def test_pictures_are_written_to_media_and_pass_the_checker(content: Path) -> None:
    diagram = png(40, 30)
    written, _ = imported(
        content,
        question("q1", 3, image=DraftPicture("Diagrams/Step Chain.PNG", diagram, "Four boxes"),
                 tags=("week 1", "optim\nizers")),
        question("q2", 9, explanation_image=DraftPicture("answer.jpeg", jpeg(64, 48), "A row")),
        DraftQuestion("q3", "How many GB?", (), "Eight.", 12, kind=NUMBER,
                      number=NumberAnswer(value=8.0), unit="GB"),
    )  # fmt: skip
    media = content / "media"
    assert sorted(p.name for p in media.iterdir()) == ["pics-answer.jpg", "pics-step-chain.png"]
    assert (media / "pics-step-chain.png").read_bytes() == diagram
    assert media / "pics-step-chain.png" in written
    source = (content / "quizzes" / "pics.yaml").read_text("utf-8")
    assert '      file: "pics-step-chain.png"\n      alt: "Four boxes"' in source
    assert "    # tags: week 1, optim izers\n" in source
    assert '    unit: "GB"' in source
    report = check(content)
    assert not report.errors, [p.format() for p in report.errors]
    quiz = load_catalog(content).quiz("pics")
    assert quiz is not None
    first, second, third = quiz.questions
    assert first.image is not None and first.image.alt.get("en") == "Four boxes"
    assert second.explanation_image is not None and second.image is None
    assert third.unit.get("en") == "GB"


def test_a_picture_the_bot_cannot_send_is_left_out_with_its_line(content: Path) -> None:
    _, problems = imported(
        content,
        question("gif", 4, image=DraftPicture("anim.gif", b"GIF89a" + b"\x00" * 40, "moving")),
        question("tiny", 8, image=DraftPicture("dot.png", png(4, 4), "a dot")),
        question("big", 11, image=DraftPicture("huge.png", png(40, 40, 1_100_000), "big")),
        question("multi", 15, kind=MULTIPLE,
                 image=DraftPicture("m.png", png(40, 40), "m")),
    )  # fmt: skip
    notes = {(p.line, p.skipped): p.message for p in problems}
    assert "not a PNG or JPEG" in notes[(4, False)]
    assert "dot.png left out" in notes[(8, False)]
    assert "at most 1048576" in notes[(11, False)]
    assert "single-choice, true/false and flashcard" in notes[(15, False)]
    assert not (content / "media").exists()
    assert not check(content).errors


def test_the_same_picture_is_written_once_and_a_different_one_gets_its_own_name(
    content: Path,
) -> None:
    a, b = png(40, 30), png(50, 30)
    imported(
        content,
        question("q1", 1, image=DraftPicture("p.png", a, "first")),
        question("q2", 2, image=DraftPicture("p.png", a, "first again")),
        question("q3", 3, image=DraftPicture("p.png", b, "another")),
    )
    assert sorted(p.name for p in (content / "media").iterdir()) == ["pics-p-2.png", "pics-p.png"]
    # Importing again: the same bytes are already there, the quiz file is what would change.
    with pytest.raises(ImportFailed, match=r"pics\.yaml: pass --force"):
        imported(content, question("q1", 1, image=DraftPicture("p.png", a, "first")))
    with pytest.raises(ImportFailed, match=r"pics-p\.png"):
        imported(content, question("q1", 1, image=DraftPicture("p.png", b, "changed")))
