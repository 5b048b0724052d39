"""The untrusted-zip reader on real archives: bombs, lies, traversal and damage refused."""

from __future__ import annotations

import io
import struct
import zipfile

import pytest

from bot.content.formats.safe_zip import SafeZip, ZipLimits, ZipRefused


def archive(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return out.getvalue()


def lying(data: bytes, name: str, declared: int) -> bytes:
    """`data` with `name`'s inflated size in the central directory (and local header) set to
    `declared`: what a crafted bomb does to pass a check of the headers alone."""
    raw = bytearray(data)
    encoded = name.encode()
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = raw.find(signature)
        while at >= 0:
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if raw[name_at : name_at + len(encoded)] == encoded:
                struct.pack_into("<I", raw, at + offset, declared)
            at = raw.find(signature, at + 4)
    return bytes(raw)


def test_members_are_read_within_the_caps() -> None:
    safe = SafeZip(archive({"imsmanifest.xml": b"<manifest/>", "media/a.png": b"\x89PNG"}))
    assert safe.names() == ["imsmanifest.xml", "media/a.png"]
    assert safe.read("imsmanifest.xml") == b"<manifest/>"
    assert safe.size("media/a.png") == 4
    with pytest.raises(KeyError):
        safe.read("absent")


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ({"../evil.txt": b"x"}, "unsafe member name"),
        ({"/etc/passwd": b"x"}, "unsafe member name"),
        ({"a/../../evil": b"x"}, "unsafe member name"),
        ({"C:/Windows/x": b"x"}, "unsafe member name"),
        ({"dir\\x.txt": b"x"}, "unsafe member name"),
    ],
)
def test_traversal_names_are_refused(members: dict[str, bytes], words: str) -> None:
    with pytest.raises(ZipRefused) as refused:
        SafeZip(archive(members))
    assert words in refused.value.message


def test_a_zip_bomb_is_refused_from_the_central_directory_at_once() -> None:
    bomb = archive({"collection.anki2": b"\x00" * 20_000_000})
    assert len(bomb) < 100_000
    with pytest.raises(ZipRefused) as refused:
        SafeZip(bomb, ZipLimits.for_input(256 * 1024))
    assert "inflates to 20000000 bytes" in refused.value.message


def test_a_high_ratio_member_is_refused_as_a_bomb() -> None:
    bomb = archive({"a.xml": b"\x00" * 5_000_000})
    with pytest.raises(ZipRefused) as refused:
        SafeZip(bomb)
    assert "zip bomb" in refused.value.message


def test_the_total_is_bounded_across_members() -> None:
    members = {f"m{i}.txt": bytes(range(256)) * 4096 for i in range(5)}  # 1 MiB each
    with pytest.raises(ZipRefused) as refused:
        SafeZip(archive(members, zipfile.ZIP_STORED), ZipLimits(max_total_bytes=4 * 1024 * 1024))
    assert "the archive inflates to 5242880 bytes" in refused.value.message


def test_too_many_members_are_refused() -> None:
    with pytest.raises(ZipRefused) as refused:
        SafeZip(archive({f"{i}.txt": b"" for i in range(11)}), ZipLimits(max_members=10))
    assert "11 members; at most 10" in refused.value.message


def test_a_member_that_inflates_past_its_declared_size_stops_at_the_cap() -> None:
    data = lying(archive({"big.xml": b"<a>" + b"x" * 300_000 + b"</a>"}), "big.xml", 1000)
    safe = SafeZip(data)
    assert safe.size("big.xml") == 1000
    with pytest.raises(ZipRefused) as refused:
        safe.read("big.xml")
    assert "past the size its header declares" in refused.value.message or "damaged" in (
        refused.value.message
    )


@pytest.mark.parametrize(
    "data", [b"", b"not a zip at all", archive({"a.txt": b"hello"})[:-30], b"PK\x03\x04" * 10]
)
def test_damaged_archives_are_refused(data: bytes) -> None:
    with pytest.raises(ZipRefused) as refused:
        SafeZip(data)
    assert "not a zip archive" in refused.value.message


def test_a_damaged_member_is_refused_when_read() -> None:
    data = bytearray(archive({"a.txt": b"hello world " * 100}))
    at = data.find(b"PK\x03\x04") + 30 + len("a.txt")
    data[at : at + 8] = b"\xff" * 8  # garbage in the deflate stream
    safe = SafeZip(bytes(data))
    with pytest.raises(ZipRefused) as refused:
        safe.read("a.txt")
    assert "damaged" in refused.value.message


def test_duplicate_and_encrypted_members_are_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        zf.writestr("a.txt", b"1")
        with pytest.warns(UserWarning):
            zf.writestr("a.txt", b"2")
    with pytest.raises(ZipRefused) as refused:
        SafeZip(out.getvalue())
    assert "a.txt twice" in refused.value.message
    data = bytearray(archive({"b.txt": b"x"}))
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        data[at + offset] |= 0x1  # the "encrypted" flag bit
    with pytest.raises(ZipRefused) as refused:
        SafeZip(bytes(data))
    assert "encrypted member" in refused.value.message
