"""Pictures referenced by quizzes: where they may live, what they must be, and their identity.

A question or explanation names a file under the content directory's `media/` folder. The
checks run on every load (they are cheap and the start-up cache does not see image bytes):

- the name is relative, without `..`, and the resolved file (symlinks followed) stays inside
  `media/`, so a quiz file cannot make the bot upload `/etc/passwd` or a key beside the content;
- PNG or JPEG by magic bytes (the extension proves nothing), at most MAX_IMAGE_BYTES;
- width and height read from the PNG IHDR chunk or the JPEG SOF segment (no image library
  needed for that), within what Telegram accepts for a photo.

The SHA-256 of the bytes goes into the catalogue: with the file's name it is the key under which
Telegram's `file_id` is remembered, so an edited picture is uploaded again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.content.problems import N_, Msg, Problems
from bot.content.schema import ImageSource, ImageTranslation
from bot.content.sources import Content, Parsed
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core.models import MediaFile

MEDIA_DIR = "media"
# Telegram takes photos up to 10 MB, but every learner downloads the picture on a phone: a
# diagram needs far less. 1 MB keeps a quiz light and an upload quick.
MAX_IMAGE_BYTES = 1024 * 1024
MIN_SIDE = 16  # pixels: anything smaller is no readable picture
MAX_SIDES = 10_000  # Telegram: width + height at most 10,000
MAX_RATIO = 20  # Telegram: the longer side at most 20 times the shorter
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"
IMAGE_FIELDS = ("image", "explanation_image")
# The kinds whose chat flows send pictures (select-all toggles and typed numbers do not yet);
# a flashcard's `image` is its front's picture, its `explanation_image` its back's.
PICTURED_KINDS = ("single", "true_false", "flashcard")
# JPEG start-of-frame markers (C4 = huffman tables, C8 = reserved, CC = arithmetic coding
# conditioning are not frames).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


@dataclass(frozen=True, slots=True)
class ImageFacts:
    format: str  # "png" | "jpeg"
    width: int
    height: int


def image_facts(data: bytes) -> ImageFacts | str:
    """The format and size read from the header, or what is wrong with the bytes."""
    if data.startswith(PNG_MAGIC):
        if len(data) < 24 or data[12:16] != b"IHDR":
            return Msg(N_("a PNG without its IHDR header: the file is damaged"))
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        return ImageFacts("png", width, height)
    if data.startswith(JPEG_MAGIC):
        size = _jpeg_size(data)
        if size is None:
            return Msg(N_("a JPEG without a frame header (SOF): the file is damaged"))
        return ImageFacts("jpeg", *size)
    return Msg(N_("not a PNG or JPEG file (judged by its first bytes, not its name)"))


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the first SOF segment, walking the segments from the start."""
    i, n = 2, len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image, or the scan began before any frame
            return None
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if length < 2:
            return None
        if marker in _SOF:
            if i + 9 > n:
                return None
            height = int.from_bytes(data[i + 5 : i + 7], "big")
            width = int.from_bytes(data[i + 7 : i + 9], "big")
            return width, height
        i += 2 + length
    return None


def size_problem(facts: ImageFacts) -> str | None:
    width, height = facts.width, facts.height
    if min(width, height) < MIN_SIDE:
        return Msg(N_("{width}x{height} pixels: each side needs at least {most}"), width=width,
                   height=height, most=MIN_SIDE)  # fmt: skip
    if width + height > MAX_SIDES:
        return Msg(N_("{width}x{height} pixels: Telegram takes width + height up to {most}"),
                   width=width, height=height, most=MAX_SIDES)  # fmt: skip
    if max(width, height) > MAX_RATIO * min(width, height):
        return Msg(N_("{width}x{height} pixels: Telegram takes a side up to {most} times the "
                      "other"), width=width, height=height, most=MAX_RATIO)  # fmt: skip
    return None


def name_problem(name: str) -> str | None:
    """What is wrong with a media name as written, before touching the disk."""
    if not name or name != name.strip():
        return Msg(N_("empty name or spaces around it"))
    if "\\" in name or name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return Msg(N_("'{name}' must be a path relative to content/{folder}/, written with /"),
                   name=name, folder=MEDIA_DIR)  # fmt: skip
    if any(part in ("..", ".", "") for part in name.split("/")):
        return Msg(N_("'{name}' may not use '.' or '..': name a file inside content/{folder}/"),
                   name=name, folder=MEDIA_DIR)  # fmt: skip
    return None


def read_media(root: Path, name: str) -> tuple[MediaFile | None, str | None]:
    """The checked file, or None and the reason (never raises for bad content)."""
    if (problem := name_problem(name)) is not None:
        return None, problem
    folder = root / MEDIA_DIR
    path = folder / name
    try:
        real, inside = path.resolve(), folder.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        return None, Msg(N_("cannot resolve content/{folder}/{name}: {reason}"), folder=MEDIA_DIR,
                         name=name, reason=str(exc))  # fmt: skip
    if not real.is_relative_to(inside):
        return None, Msg(N_("content/{folder}/{name} leads outside content/{folder}/ (a symlink?)"),
                         folder=MEDIA_DIR, name=name)  # fmt: skip
    if not real.is_file():
        return None, Msg(N_("file not found: content/{folder}/{name}"), folder=MEDIA_DIR, name=name)
    try:
        size = real.stat().st_size
        if size > MAX_IMAGE_BYTES:
            return None, _too_big(size)
        with real.open("rb") as handle:
            data = handle.read(MAX_IMAGE_BYTES + 1)
    except OSError as exc:
        return None, Msg(N_("cannot read content/{folder}/{name}: {reason}"), folder=MEDIA_DIR,
                         name=name, reason=str(exc))  # fmt: skip
    if len(data) > MAX_IMAGE_BYTES:  # grew since the stat
        return None, _too_big(len(data))
    facts = image_facts(data)
    if isinstance(facts, str):
        return None, Msg(N_("content/{folder}/{name}: {problem}"), folder=MEDIA_DIR, name=name,
                         problem=facts)  # fmt: skip
    if (problem := size_problem(facts)) is not None:
        return None, Msg(N_("content/{folder}/{name}: {problem}"), folder=MEDIA_DIR, name=name,
                         problem=problem)  # fmt: skip
    digest = hashlib.sha256(data).hexdigest()
    return MediaFile(name, str(real), digest, facts.width, facts.height), None


def _too_big(size: int) -> str:
    return Msg(N_("{size} bytes: a picture may have at most {most} (1 MB); shrink it"),
               size=f"{size:,}", most=f"{MAX_IMAGE_BYTES:,}")  # fmt: skip


def check_media(content: Content, sink: Problems) -> dict[str, MediaFile]:
    """Every picture the quizzes name, checked; name -> file for those that pass."""
    good: dict[str, MediaFile] = {}
    bad: dict[str, str] = {}

    def check(parsed: Parsed[Any], at: KeyPath, name: str) -> None:
        if name not in good and name not in bad:
            found, problem = read_media(content.root, name)
            if found is not None:
                good[name] = found
            else:
                bad[name] = problem or "unusable"
        if name in bad:
            where = (*at, "file")
            sink.error(parsed.path, parsed.doc.line(where), key_str(where), bad[name])

    for files in content.quizzes:
        source = files.source
        for qid, question in source.model.questions.items():
            for field in IMAGE_FIELDS:
                image: ImageSource | None = getattr(question, field)
                if image is None:
                    continue
                if question.kind not in PICTURED_KINDS:
                    at: KeyPath = ("questions", qid, field)
                    kinds = ", ".join(PICTURED_KINDS[:-1]) + " and " + PICTURED_KINDS[-1]
                    said = Msg(N_("pictures go with {kinds} questions only (not yet {kind})"),
                               kinds=kinds, kind=question.kind)  # fmt: skip
                    sink.error(source.path, source.doc.line(at), key_str(at), said)
                    continue
                check(source, ("questions", qid, field), image.file)
        for parsed in files.translations.values():
            for qid, mine in parsed.model.questions.items():
                for field in IMAGE_FIELDS:
                    theirs: ImageTranslation | None = getattr(mine, field)
                    if theirs is None:
                        continue
                    at = ("questions", qid, field)
                    english = source.model.questions.get(qid)
                    if english is not None and getattr(english, field) is None:
                        where = key_str(at)
                        sink.error(
                            parsed.path,
                            parsed.doc.line(at),
                            where,
                            Msg(
                                N_("the English source has no {field} here: add it there first"),
                                field=field,
                            ),
                        )
                    elif theirs.file is not None:
                        check(parsed, at, theirs.file)
    return good
