"""Protocol Buffers' wire format, read one message level at a time, for the few small messages
an Anki package holds (its `meta`, its media list, a note type's config).

A full protobuf library and Anki's .proto files would be a heavy dependency for three fields;
the wire format itself is short and stable (https://protobuf.dev/programming-guides/encoding/):
each field is a varint key (number << 3 | wire type) then a varint (type 0), 8 bytes (1), a
length-prefixed byte string (2: strings, bytes and nested messages) or 4 bytes (5). Groups
(types 3 and 4, long deprecated) and anything malformed raise `NotProtobuf`.
"""

from __future__ import annotations

_MAX_VARINT_BYTES = 10


class NotProtobuf(ValueError):
    """The bytes are not a protobuf message (truncated, a bad wire type, a varint too long)."""


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    for i in range(at, min(at + _MAX_VARINT_BYTES, len(data))):
        byte = data[i]
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i + 1
        shift += 7
    raise NotProtobuf("truncated or overlong varint")


def fields(data: bytes) -> list[tuple[int, int | bytes]]:
    """(field number, value) in order: an int for varints and fixed-size fields, the bytes of a
    length-delimited one (decode a nested message with `fields` again)."""
    out: list[tuple[int, int | bytes]] = []
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise NotProtobuf("field number 0")
        if wire == 0:
            value, at = _varint(data, at)
            out.append((number, value))
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            if at + size > len(data):
                raise NotProtobuf("truncated fixed-size field")
            out.append((number, int.from_bytes(data[at : at + size], "little")))
            at += size
        elif wire == 2:
            length, at = _varint(data, at)
            if at + length > len(data):
                raise NotProtobuf("truncated length-delimited field")
            out.append((number, data[at : at + length]))
            at += length
        else:
            raise NotProtobuf(f"wire type {wire}")
    return out


def varint_field(data: bytes, number: int, default: int = 0) -> int:
    """The first varint of field `number` (proto3 leaves a default value out: `default`)."""
    return next((v for n, v in fields(data) if n == number and isinstance(v, int)), default)
