"""Pictures in content: the checker on real files (where they live, what they are, their alt
text in every declared language), and what the catalogue carries for the sender."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from bot.content import check, load_catalog
from bot.content.media import MAX_IMAGE_BYTES, image_facts
from tests.content.media_kit import jpeg, png

FIXTURES = Path(__file__).parent / "fixtures"


IMAGE_EN = """    image:
      file: {file}
      alt: "Two boxes: the gradients, then the weights."
"""
IMAGE_FR = """    image:
      alt: "Deux boîtes : les gradients, puis les poids."
"""


def content(
    tmp_path: Path,
    file: str = "step.png",
    data: bytes | None = None,
    fr: str | None = IMAGE_FR,
) -> Path:
    """The valid fixture with a picture on q1 (English alt text, and French unless `fr` is None)."""
    root = tmp_path / "content"
    shutil.copytree(FIXTURES / "valid", root)
    source = root / "quizzes" / "demo.yaml"
    text = source.read_text(encoding="utf-8")
    text = text.replace("    answer: b\n", "    answer: b\n" + IMAGE_EN.format(file=file), 1)
    source.write_text(text, encoding="utf-8")
    if fr is not None:
        french = root / "quizzes" / "demo.fr.yaml"
        text = french.read_text(encoding="utf-8")
        marker = '      b: "`optimizer.step()`"\n'
        french.write_text(text.replace(marker, marker + fr, 1), encoding="utf-8")
    (root / "media").mkdir()
    if data is not None:
        (root / "media" / "step.png").write_bytes(data)
    return root


def errors(root: Path) -> list[tuple[str, str, str]]:
    report = check(root)
    return [
        (p.file.relative_to(root).as_posix(), p.key, p.message)
        for p in report.problems
        if p.severity.value == "error"
    ]


def test_a_checked_picture_reaches_the_catalogue(tmp_path: Path) -> None:
    data = png(40, 30)
    root = content(tmp_path, data=data)
    assert errors(root) == []
    question = load_catalog(root).quizzes["demo"].questions[0]
    assert question.image is not None and question.explanation_image is None
    picture = question.image.file("fr")  # French names no file of its own: the shared one
    assert (picture.name, picture.width, picture.height) == ("step.png", 40, 30)
    assert picture.sha256 == hashlib.sha256(data).hexdigest()
    assert Path(picture.path).read_bytes() == data
    assert question.image.alt.get("fr").startswith("Deux boîtes")
    assert question.image.alt.get("wo").startswith("Two boxes")  # undeclared: English


def test_a_language_may_name_its_own_picture(tmp_path: Path) -> None:
    own = IMAGE_FR + "      file: sub/step.fr.jpg\n"
    root = content(tmp_path, data=png(40, 30), fr=own)
    (root / "media" / "sub").mkdir()
    (root / "media" / "sub" / "step.fr.jpg").write_bytes(jpeg(640, 480))
    assert errors(root) == []
    image = load_catalog(root).quizzes["demo"].questions[0].image
    assert image is not None
    assert image.file("fr").name == "sub/step.fr.jpg" and image.file("fr").width == 640
    assert image.file("en").name == "step.png"


def test_missing_file(tmp_path: Path) -> None:
    root = content(tmp_path, file="nowhere.png", data=png(40, 30))
    assert errors(root) == [
        (
            "quizzes/demo.yaml",
            "questions.q1.image.file",
            "file not found: content/media/nowhere.png",
        )
    ]


@pytest.mark.parametrize("name", ["../guides.yaml", "sub/../../guides.yaml", "./step.png"])
def test_no_way_out_of_the_media_folder(tmp_path: Path, name: str) -> None:
    root = content(tmp_path, file=name, data=png(40, 30))
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and "'.' or '..'" in message


def test_no_absolute_path(tmp_path: Path) -> None:
    root = content(tmp_path, file="/etc/passwd", data=png(40, 30))
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and "relative to content/media/" in message


def test_no_symlink_out(tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(png(40, 30))
    root = content(tmp_path)
    os.symlink(secret, root / "media" / "step.png")
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and "leads outside content/media/" in message


def test_a_symlink_inside_the_folder_is_fine(tmp_path: Path) -> None:
    root = content(tmp_path)
    (root / "media" / "real.png").write_bytes(png(40, 30))
    os.symlink(root / "media" / "real.png", root / "media" / "step.png")
    assert errors(root) == []


def test_format_by_magic_bytes_not_by_name(tmp_path: Path) -> None:
    gif = b"GIF89a" + b"\x00" * 64
    root = content(tmp_path, data=gif)
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and "not a PNG or JPEG" in message
    # A JPEG named .png is a JPEG: accepted.
    (root / "media" / "step.png").write_bytes(jpeg(300, 200))
    assert errors(root) == []


def test_too_big(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30, padding=MAX_IMAGE_BYTES))
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and "at most 1,048,576 (1 MB)" in message


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (png(1, 1), "at least 16"),
        (png(9000, 2000), "width + height up to 10000"),
        (png(2100, 100), "20 times"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 30, "IHDR"),
        (b"\xff\xd8\xff\xe0\x00\x04ab\xff\xda", "SOF"),
    ],
)
def test_sizes_read_from_the_header(tmp_path: Path, data: bytes, words: str) -> None:
    root = content(tmp_path, data=data)
    ((_, key, message),) = errors(root)
    assert key == "questions.q1.image.file" and words in message


def test_header_sizes() -> None:
    assert image_facts(png(123, 45)) == image_facts(png(123, 45))
    facts = image_facts(jpeg(1280, 720))
    assert not isinstance(facts, str) and (facts.format, facts.width, facts.height) == (
        "jpeg",
        1280,
        720,
    )


def test_alt_text_in_every_declared_language(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30), fr=None)
    assert errors(root) == [
        ("quizzes/demo.fr.yaml", "questions.q1.image.alt", "missing fr translation "
         "(fr is declared complete in demo.yaml)"),
    ]  # fmt: skip


def test_alt_text_is_required_in_the_source(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30))
    source = root / "quizzes" / "demo.yaml"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace('      alt: "Two boxes', '      note: "Two boxes'))
    keys = [key for _, key, _ in errors(root)]
    assert "questions.q1.image.alt" in keys


def test_a_translation_cannot_add_a_picture(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30))
    french = root / "quizzes" / "demo.fr.yaml"
    text = french.read_text(encoding="utf-8")
    extra = '    explanation_image:\n      alt: "Rien"\n'
    french.write_text(text.replace('    explanation: "Adam', extra + '    explanation: "Adam'))
    assert errors(root) == [
        ("quizzes/demo.fr.yaml", "questions.q2.explanation_image",
         "the English source has no explanation_image here: add it there first"),
    ]  # fmt: skip


def test_a_picture_changed_after_a_cached_check_is_checked_again(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30))
    cache_dir = tmp_path / "cache"
    load_catalog(root, cache_dir)
    (root / "media" / "step.png").write_bytes(b"not a picture at all")
    from bot.content import ContentError

    with pytest.raises(ContentError, match="not a PNG or JPEG"):
        load_catalog(root, cache_dir)


def test_only_kinds_whose_chat_shows_pictures(tmp_path: Path) -> None:
    root = content(tmp_path, data=png(40, 30))
    source = root / "quizzes" / "demo.yaml"
    text = source.read_text(encoding="utf-8")
    # q1 becomes select-all: its toggles cannot carry a picture yet.
    text = text.replace(
        "    answer: b\n    image:", "    kind: multiple\n    answer: [b]\n    image:", 1
    )
    text = text.replace(
        '      a: "`optimizer.zero_grad()`"',
        '      a: "`optimizer.zero_grad()`"\n      c: "`loss.backward()`"',
        1,
    )
    source.write_text(text, encoding="utf-8")
    keys = [(key, message) for _, key, message in errors(root)]
    assert (
        "questions.q1.image",
        "pictures go with single, true_false and flashcard questions only (not yet multiple)",
    ) in keys
