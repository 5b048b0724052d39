"""An Anki package (.apkg, .colpkg) opened without trusting it: which collection it holds, that
collection's bytes, and its media files by name.

The layouts, from Anki's own reader and writer (rslib/src/import_export/package/meta.rs,
media.rs, colpkg/export.rs and proto/anki/import_export.proto in github.com/ankitects/anki):

- legacy (Anki 2.0 and 2.1 before 2.1.50): `collection.anki2` or `collection.anki21` (SQLite,
  zip-deflated), a `media` member holding a JSON map {"0": "picture.png", ...}, and each media
  file stored as the member named by its number;
- latest (2.1.50 on): a `meta` member (protobuf `PackageMetadata`, version 3), the collection as
  `collection.anki21b` compressed with zstd, a dummy `collection.anki2` that tells old versions
  to update (never read when `anki21b` is there), `media` as a zstd-compressed protobuf
  `MediaEntries` list (the file at list position i is member "i"), and each media file
  zstd-compressed too.

Every size is bounded before anything is inflated (`safe_zip`), and zstd output is bounded while
it is produced: a frame that claims or inflates past its cap is refused, never buffered.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field

import zstandard

from bot.content.formats import protobuf_wire
from bot.content.formats.safe_zip import SafeZip, ZipLimits, ZipRefused
from bot.content.problems import N_, Msg

LEGACY_1, LEGACY_2, LATEST = 1, 2, 3  # PackageMetadata.Version
COLLECTIONS = {LEGACY_1: "collection.anki2", LEGACY_2: "collection.anki21",
               LATEST: "collection.anki21b"}  # fmt: skip
# zstd's window is the memory a frame may make a decoder hold: Anki writes small ones.
_MAX_WINDOW = 1 << 26
_CHUNK = 64 * 1024


class PackageRefused(ValueError):
    """The package cannot be read; `message` is a `problems.Msg` a chat can translate."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(slots=True)
class Package:
    """A checked package: its collection's SQLite bytes, and its media members by file name."""

    version: int
    collection: bytes = field(repr=False)
    media: dict[str, str] = field(default_factory=dict)  # file name -> zip member
    media_unread: bool = False  # the media list was there but could not be decoded
    _zip: SafeZip | None = field(default=None, repr=False)

    def media_file(self, name: str, most: int) -> bytes | None:
        """A media file's bytes, None when the package lacks it; `PackageRefused` when it is
        damaged or larger than `most` bytes."""
        member = self.media.get(name)
        if member is None or self._zip is None or member not in self._zip.names():
            return None
        if self._zip.size(member) > most + 1024:  # zstd adds a few bytes to what it cannot shrink
            raise PackageRefused(media_too_big(name, most))
        try:
            data = self._zip.read(member)
        except ZipRefused as exc:
            raise PackageRefused(exc.message) from None
        data = bounded_zstd(data, most) if self.version == LATEST else data
        if len(data) > most:
            raise PackageRefused(media_too_big(name, most))
        return data


def media_too_big(name: str, most: int) -> str:
    return Msg(N_("{name} is larger than {most} bytes"), name=name, most=most)


def open_package(data: bytes, max_collection_bytes: int, zip_limits: ZipLimits) -> Package:
    """The package's collection and media map; `PackageRefused` (or safe_zip's `ZipRefused`,
    turned into it) when it is no Anki package or breaks a bound."""
    try:
        archive = SafeZip(data, zip_limits)
    except ZipRefused as exc:
        raise PackageRefused(exc.message) from None
    names = set(archive.names())
    version = _version(archive, names)
    member = COLLECTIONS[version]
    if member not in names:
        raise PackageRefused(
            Msg(N_("no Anki collection in this file (collection.anki21b, collection.anki21 "
                   "or collection.anki2): is it an .apkg or .colpkg?"))
        )  # fmt: skip
    try:
        raw = archive.read(member)
    except ZipRefused as exc:
        raise PackageRefused(exc.message) from None
    collection = bounded_zstd(raw, max_collection_bytes) if version == LATEST else raw
    if len(collection) > max_collection_bytes:
        raise PackageRefused(too_big_collection(len(collection), max_collection_bytes))
    package = Package(version, collection, _zip=archive)
    if "media" in names:
        _read_media_map(package, archive)
    return package


def too_big_collection(size: int, most: int) -> str:
    return Msg(N_("the Anki collection is {size} bytes; at most {most} are read"),
               size=size, most=most)  # fmt: skip


def _version(archive: SafeZip, names: set[str]) -> int:
    """Anki's rule (meta.rs): the `meta` member's version, else anki21 if present, else anki2."""
    if "meta" not in names:
        return LEGACY_2 if COLLECTIONS[LEGACY_2] in names else LEGACY_1
    try:
        fields = protobuf_wire.fields(archive.read("meta"))
        version = next((v for n, v in fields if n == 1 and isinstance(v, int)), 0)
    except (ZipRefused, protobuf_wire.NotProtobuf):
        version = 0
    if version not in COLLECTIONS:
        raise PackageRefused(
            Msg(N_("this Anki package's version ({version}) is unknown: export it again with "
                   "'Support older Anki versions' ticked"), version=version)
        )  # fmt: skip
    return version


def _read_media_map(package: Package, archive: SafeZip) -> None:
    """name -> member from the JSON map (legacy) or the protobuf list (latest); an unreadable
    list leaves the media out (`media_unread`), never the notes."""
    try:
        raw = archive.read("media")
        if package.version == LATEST:
            package.media = _entries(bounded_zstd(raw, 8 * 1024 * 1024))
        else:
            mapping = json.loads(raw.decode("utf-8"))
            if not isinstance(mapping, dict):
                raise ValueError("not a map")
            package.media = {str(name): str(member) for member, name in mapping.items()}
    except (ZipRefused, PackageRefused, protobuf_wire.NotProtobuf, ValueError, RecursionError):
        package.media, package.media_unread = {}, True


def _entries(data: bytes) -> dict[str, str]:
    """MediaEntries { repeated MediaEntry entries = 1 } with MediaEntry { string name = 1;
    uint32 size = 2; bytes sha1 = 3; optional uint32 legacy_zip_filename = 255 }."""
    found: dict[str, str] = {}
    index = 0
    for number, value in protobuf_wire.fields(data):
        if number != 1 or not isinstance(value, bytes):
            continue
        entry = protobuf_wire.fields(value)
        name = next((v for n, v in entry if n == 1 and isinstance(v, bytes)), b"")
        legacy = next((v for n, v in entry if n == 255 and isinstance(v, int)), None)
        found[name.decode("utf-8")] = str(index if legacy is None else legacy)
        index += 1
    return found


def bounded_zstd(data: bytes, most: int) -> bytes:
    """`data` decompressed, refused as soon as it passes `most` bytes (a zstd bomb)."""
    decompressor = zstandard.ZstdDecompressor(max_window_size=_MAX_WINDOW)
    out = bytearray()
    try:
        with decompressor.stream_reader(io.BytesIO(data), read_across_frames=True) as reader:
            while chunk := reader.read(_CHUNK):
                out += chunk
                if len(out) > most:
                    raise PackageRefused(
                        Msg(N_("a compressed part of the package inflates past {most} bytes"),
                            most=most)
                    )  # fmt: skip
    except zstandard.ZstdError:
        raise PackageRefused(Msg(N_("a compressed part of the package is damaged"))) from None
    return bytes(out)
