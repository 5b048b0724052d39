"""An untrusted zip (a QTI content package, an Anki deck) opened without trusting its headers.

A zip's central directory says how many members it has and how big each is once inflated; a
zip bomb lies there or compresses a gigabyte of zeros into a few KB. So, before any member is
inflated: the member count, each declared size, their total, and the compression ratio are
bounded; names that are absolute, hold `..`, a drive, a backslash or NUL are refused (nothing is
ever extracted to disk, but a format must not be tempted to); encrypted and duplicate members
are refused. Then `read` inflates in chunks and stops at the member's declared size and at the
remaining total budget, so a header that lies still cannot make it inflate more than the caps.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass

from bot.content.problems import N_, Msg

_CHUNK = 64 * 1024
_MEMBER_CAP = 16 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ZipLimits:
    max_members: int = 2_000
    max_total_bytes: int = 32 * 1024 * 1024  # inflated, all members together
    max_member_bytes: int = _MEMBER_CAP  # inflated, one member
    max_ratio: int = 100  # inflated / compressed, for members above `ratio_floor`
    ratio_floor: int = 1024 * 1024

    @classmethod
    def for_input(cls, max_bytes: int) -> ZipLimits:
        """Caps that scale with what a format accepts as input (`draft.Limits.max_bytes`): an
        upload of 256 KB may inflate to 8 MB, a 1 MB file on the command line to 32 MB."""
        total = 32 * max_bytes
        return cls(max_total_bytes=total, max_member_bytes=min(total, _MEMBER_CAP))


class ZipRefused(ValueError):
    """The archive is refused; `message` is a `problems.Msg` a chat can translate."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _bad_name(name: str) -> bool:
    parts = name.split("/")
    return (
        not name
        or name.startswith("/")
        or "\\" in name
        or "\x00" in name
        or (len(name) > 1 and name[1] == ":")
        or any(part in ("..", ".") for part in parts)
    )


class SafeZip:
    """The members of a checked archive, read with `read` under the caps (no extraction)."""

    def __init__(self, data: bytes, limits: ZipLimits | None = None) -> None:
        self.limits = limits or ZipLimits()
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
            raise ZipRefused(Msg(N_("not a zip archive, or a damaged one"))) from None
        self._check(infos)
        self._infos = {info.filename: info for info in infos}
        self._budget = self.limits.max_total_bytes

    def _check(self, infos: list[zipfile.ZipInfo]) -> None:
        lim = self.limits
        if len(infos) > lim.max_members:
            raise ZipRefused(
                Msg(N_("the archive has {n} members; at most {most}"), n=len(infos),
                    most=lim.max_members)
            )  # fmt: skip
        seen: set[str] = set()
        total = 0
        for info in infos:
            name = info.filename
            if _bad_name(name):
                raise ZipRefused(Msg(N_("unsafe member name in the archive: {name}"), name=name))
            if name in seen:
                raise ZipRefused(Msg(N_("the archive holds {name} twice"), name=name))
            seen.add(name)
            if info.flag_bits & 0x1:
                raise ZipRefused(Msg(N_("encrypted member in the archive: {name}"), name=name))
            if info.file_size > lim.max_member_bytes:
                raise ZipRefused(
                    Msg(N_("{name} inflates to {size} bytes; at most {most}"), name=name,
                        size=info.file_size, most=lim.max_member_bytes)
                )  # fmt: skip
            if info.file_size > lim.ratio_floor and info.file_size > lim.max_ratio * max(
                info.compress_size, 1
            ):
                raise ZipRefused(
                    Msg(N_("{name} is compressed more than {ratio} to 1: refused as a zip "
                           "bomb"), name=name, ratio=lim.max_ratio)
                )  # fmt: skip
            total += info.file_size
        if total > lim.max_total_bytes:
            raise ZipRefused(
                Msg(N_("the archive inflates to {size} bytes; at most {most}"), size=total,
                    most=lim.max_total_bytes)
            )  # fmt: skip

    def names(self) -> list[str]:
        """Member names in the archive's order (directories included, ending in /)."""
        return list(self._infos)

    def size(self, name: str) -> int:
        """The inflated size the central directory declares (`read` enforces it)."""
        return self._infos[name].file_size

    def read(self, name: str) -> bytes:
        """A member's bytes; `KeyError` when absent, `ZipRefused` when damaged or when it
        inflates past its declared size or the archive's remaining budget."""
        info = self._infos[name]
        cap = min(info.file_size, self._budget)
        out = bytearray()
        try:
            with self._zip.open(info) as member:
                while True:
                    chunk = member.read(_CHUNK)
                    if not chunk:
                        break
                    out += chunk
                    if len(out) > cap:
                        raise ZipRefused(
                            Msg(N_("{name} inflates past the size its header declares"),
                                name=name)
                        )  # fmt: skip
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError, NotImplementedError):
            raise ZipRefused(Msg(N_("{name} is damaged in the archive"), name=name)) from None
        self._budget -= len(out)
        return bytes(out)
