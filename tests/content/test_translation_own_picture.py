"""A translation's own picture (`image: {file: …fr.png}` in `<quiz>.fr.yaml`: a diagram with
French labels) through a translator's round trip: `export Q --format F --lang fr`, then
`import … --lang fr --id Q --force`. Moodle XML and QTI carry the picture's bytes, so the French
picture comes back (the same file when its bytes are unchanged, a new one when the translator
put another in); GIFT, CSV and Aiken have no place for a picture, so the import keeps the one the
file it replaces names. Either way the French learner must not get the English diagram (nor
lose the alt text, which Moodle may carry empty)."""

from __future__ import annotations

import base64
import io
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from bot.cli.content import main
from bot.content import check, format_report
from tests.content.media_kit import png

SHIPPED = Path(__file__).resolve().parents[2] / "content"
QUIZ = "gradient-checkpointing"
FRENCH = "sqrt-n-checkpoints.fr.png"
FORMATS = [("gift", "gift"), ("csv", "csv"), ("aiken", "aiken"), ("moodle", "xml"), ("qti", "zip")]


def _content_with_a_french_picture(tmp_path: Path) -> Path:
    """The shipped content, its `sqrt-n` diagram given a French picture of its own."""
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    (content / "media" / FRENCH).write_bytes(png(64, 48))
    target = content / "quizzes" / f"{QUIZ}.fr.yaml"
    text = target.read_text(encoding="utf-8")
    # sqrt-n is the only question with a picture: its `image:` is the only one in the file.
    assert text.count("    image:\n") == 1
    target.write_text(text.replace("    image:\n", f"    image:\n      file: {FRENCH}\n"), "utf-8")
    report = check(content)
    assert report.errors == [], format_report(report)
    return content


def _round_trip(
    content: Path,
    exported: Path,
    fmt: str,
    capsys: pytest.CaptureFixture[str],
    edit: Callable[[Path], None] | None = None,
) -> None:
    """Export the French text, let `edit` change the file (a translator's work), import it."""
    args = ["export", QUIZ, "--format", fmt, "--lang", "fr", "--content", str(content)]
    assert main([*args, "--out", str(exported)]) == 0
    if edit is not None:
        edit(exported)
    status = main(["import", str(exported), "--format", fmt, "--lang", "fr", "--id", QUIZ,
                   "--force", "--out", str(content), "--max-mb", "5"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out


def _sqrt_n_image(content: Path) -> dict[str, str]:
    quiz = yaml.safe_load((content / "quizzes" / f"{QUIZ}.fr.yaml").read_text(encoding="utf-8"))
    image: dict[str, str] = quiz["questions"]["sqrt-n"]["image"]
    return image


@pytest.mark.parametrize(("fmt", "ext"), FORMATS)
def test_a_translations_own_picture_survives_the_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str, ext: str
) -> None:
    content = _content_with_a_french_picture(tmp_path)
    before = _sqrt_n_image(content)
    media_before = {p.name: p.read_bytes() for p in (content / "media").iterdir()}
    english = (content / "quizzes" / f"{QUIZ}.yaml").read_bytes()

    _round_trip(content, tmp_path / f"{QUIZ}.fr.{ext}", fmt, capsys)

    assert _sqrt_n_image(content) == before  # the file reference and its alt text
    # The French picture is the same file, unchanged; no copy of it was written beside it.
    assert {p.name: p.read_bytes() for p in (content / "media").iterdir()} == media_before
    assert (content / "quizzes" / f"{QUIZ}.yaml").read_bytes() == english
    report = check(content)
    assert report.errors == [], format_report(report)


def _swap_in_moodle(path: Path, old: bytes, new: bytes) -> None:
    text = path.read_text(encoding="utf-8")
    was = base64.b64encode(old).decode()
    assert text.count(was) == 1
    path.write_text(text.replace(was, base64.b64encode(new).decode()), encoding="utf-8")


def _swap_in_qti(path: Path, old: bytes, new: bytes) -> None:
    with zipfile.ZipFile(path) as package:
        members = {name: package.read(name) for name in package.namelist()}
    assert list(members.values()).count(old) == 1
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        for name, data in members.items():
            package.writestr(name, new if data == old else data)
    path.write_bytes(buffer.getvalue())


@pytest.mark.parametrize(("fmt", "ext", "swap"), [("moodle", "xml", _swap_in_moodle),
                                                  ("qti", "zip", _swap_in_qti)])  # fmt: skip
def test_a_new_picture_put_in_the_file_becomes_the_translations_own(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    ext: str,
    swap: Callable[[Path, bytes, bytes], None],
) -> None:
    """The translator replaced the French diagram in Moodle (or the QTI package): the new one is
    written under media/ and the French file names it; the old French picture is left on disk
    (another quiz may name it) and the English source is untouched."""
    content = _content_with_a_french_picture(tmp_path)
    old, new = (content / "media" / FRENCH).read_bytes(), png(80, 40)
    english = (content / "quizzes" / f"{QUIZ}.yaml").read_bytes()

    _round_trip(content, tmp_path / f"{QUIZ}.fr.{ext}", fmt, capsys, lambda p: swap(p, old, new))

    image = _sqrt_n_image(content)
    assert image["file"] != FRENCH
    assert (content / "media" / image["file"]).read_bytes() == new
    assert image["alt"].startswith("Une chaîne de 16 couches")
    assert (content / "media" / FRENCH).read_bytes() == old
    assert (content / "quizzes" / f"{QUIZ}.yaml").read_bytes() == english
    report = check(content)
    assert report.errors == [], format_report(report)


@pytest.mark.parametrize(("fmt", "ext", "swap"), [("moodle", "xml", _swap_in_moodle),
                                                  ("qti", "zip", _swap_in_qti)])  # fmt: skip
def test_a_new_picture_the_bot_cannot_send_is_named_and_the_old_one_kept(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    ext: str,
    swap: Callable[[Path, bytes, bytes], None],
) -> None:
    """An 8x8 picture is too small for Telegram: the import says so at the question's line and
    the French file keeps naming its own picture, as GIFT's import would."""
    content = _content_with_a_french_picture(tmp_path)
    old = (content / "media" / FRENCH).read_bytes()
    media_before = sorted(p.name for p in (content / "media").iterdir())
    exported = tmp_path / f"{QUIZ}.fr.{ext}"
    args = ["export", QUIZ, "--format", fmt, "--lang", "fr", "--content", str(content)]
    assert main([*args, "--out", str(exported)]) == 0
    swap(exported, old, png(8, 8))
    status = main(["import", str(exported), "--format", fmt, "--lang", "fr", "--id", QUIZ,
                   "--force", "--out", str(content), "--max-mb", "5"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0, out
    assert "sqrt-n: picture" in out and "each side needs at least 16" in out, out
    assert _sqrt_n_image(content)["file"] == FRENCH
    assert sorted(p.name for p in (content / "media").iterdir()) == media_before


def test_a_picture_carried_without_alt_text_keeps_the_old_alt_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An LMS that drops the alt text (an `<img alt="">` in Moodle XML): the picture comes back
    with the alt text the replaced file had, as GIFT's import keeps it."""
    content = _content_with_a_french_picture(tmp_path)
    before = _sqrt_n_image(content)

    def blank_alt(path: Path) -> None:
        text, n = re.subn(r'alt="[^"]*"', 'alt=""', path.read_text(encoding="utf-8"))
        assert n == 1
        path.write_text(text, encoding="utf-8")

    _round_trip(content, tmp_path / f"{QUIZ}.fr.xml", "moodle", capsys, blank_alt)

    assert _sqrt_n_image(content) == before
