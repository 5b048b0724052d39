"""How a kind of button data is declared once, and read and written from that one declaration.

A kind is a frozen dataclass whose fields carry their wire pattern in their type
(`attempt_id: Annotated[int, Number(12)]`), registered in a `Table` with its prefix and the one
chat type its buttons are made in (the table itself is bot/tg/callbacks.py). The class is all
that is written by hand: the regex, the encoder and the docs are derived from it.

Callback data is attacker-controlled: any client sends any string up to 64 bytes from any chat.
`Table.parse` accepts only what `Table.encode` can produce, byte for byte: ASCII only, numbers
in ASCII digits with no sign, leading zero, '+' or space, every field within its bounds, no
field missing or extra. So parsing and encoding are inverse, and a test can hold that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, TypeVar, get_type_hints

from bot.core.limits import CALLBACK_DATA_MAX_BYTES

T = TypeVar("T")


class Place(StrEnum):
    """The only chat type a kind's buttons are accepted from: where they are made."""

    GROUP = "group"
    PRIVATE = "private"


@dataclass(frozen=True, slots=True)
class Number:
    """A decimal integer of at most `digits` ASCII digits, no leading zero; `sign` is '' (never
    negative), '-' (always: a group's chat id) or '-?' (either)."""

    digits: int
    sign: str = ""

    def regex(self) -> str:
        tail = f"[1-9][0-9]{{0,{self.digits - 1}}}"
        return {"": f"(0|{tail})", "-": f"(-{tail})", "-?": f"(0|-?{tail})"}[self.sign]

    def describe(self) -> str:
        sign = {"": "", "-": "negative, ", "-?": "maybe negative, "}[self.sign]
        return f"{sign}≤ {self.digits} digits"

    def longest(self) -> int:
        return self.digits + len(self.sign[:1])


@dataclass(frozen=True, slots=True)
class Text:
    """`least` to `most` characters of the ASCII class `chars` (written as inside [...])."""

    chars: str
    least: int
    most: int

    def regex(self) -> str:
        return f"([{self.chars}]{{{self.least},{self.most}}})"

    def describe(self) -> str:
        return f"{self.least}–{self.most} of [{self.chars}]"

    def longest(self) -> int:
        return self.most


@dataclass(frozen=True, slots=True)
class Letter:
    """One letter of `choices`."""

    choices: str

    def regex(self) -> str:
        return f"([{self.choices}])"

    def describe(self) -> str:
        return "one of " + " ".join(self.choices)

    def longest(self) -> int:
        return 1


Field = Number | Text | Letter


@dataclass(frozen=True, slots=True)
class Kind:
    """One row of the table: a dataclass, its prefix, its place, its fields in order."""

    cls: type
    prefix: str
    place: Place
    names: tuple[str, ...]
    specs: tuple[Field, ...]
    optional_last: bool  # the last field may be None, and is then left out of the data
    pattern: re.Pattern[str]
    numbers: tuple[bool, ...]  # which fields are converted with int()
    numbers_only: bool
    values: Callable[[object], Any]  # the fields' values, for `template`
    template: str  # "ans:%s:%s:%s"

    def format(self) -> str:
        data = ":".join([self.prefix, *(f"<{name}>" for name in self.names)])
        if self.optional_last:
            head, _, last = data.rpartition(":")
            data = f"{head}[:{last}]"
        return data

    def longest(self) -> int:
        return len(self.prefix) + sum(1 + spec.longest() for spec in self.specs)


class Table:
    """Every kind, by prefix and by class; parse and encode read nothing else."""

    def __init__(self) -> None:
        self.by_prefix: dict[str, Kind] = {}
        self.by_class: dict[type, Kind] = {}

    def register(self, prefix: str, place: Place) -> Callable[[type[T]], type[T]]:
        """A class decorator: make the class a frozen dataclass and add it to the table."""

        def add(cls: type[T]) -> type[T]:
            if not cls.__doc__:  # before dataclass() writes its own
                raise TypeError(f"{cls.__name__}: its docstring is its line in the docs")
            made = dataclass(frozen=True, slots=True)(cls)
            kind = _kind(made, prefix, place)
            if prefix in self.by_prefix or not re.fullmatch(r"[a-z]{1,8}", prefix):
                raise ValueError(f"{cls.__name__}: prefix {prefix!r} taken or malformed")
            self.by_prefix[prefix] = self.by_class[made] = kind
            return made

        return add

    def parse(self, data: str | None) -> Any:
        """The callback `data` encodes, or None for anything `encode` never produces."""
        # Every format is ASCII, so its length in characters is its length in bytes.
        if not data or len(data) > CALLBACK_DATA_MAX_BYTES or not data.isascii():
            return None
        kind = self.by_prefix.get(data.partition(":")[0])
        if kind is None:
            return None
        match = kind.pattern.fullmatch(data)
        if match is None:
            return None
        if kind.numbers_only:  # most taps: one map() is the fastest way (a tap's hot path)
            return kind.cls(*map(int, match.groups()))
        values = [
            int(value) if number and value is not None else value
            for number, value in zip(kind.numbers, match.groups(), strict=True)
        ]
        return kind.cls(*values)

    def encode(self, callback: object) -> str:
        """The data of `callback`; ValueError if it would not parse back to it (a value out of
        its bounds, or over Telegram's 64 bytes): a button that cannot work is a bug."""
        kind = self.by_class[type(callback)]
        values = kind.values(callback)  # one value, or a tuple of two or more
        data: str
        if kind.optional_last and values[-1] is None:
            data = kind.template.removesuffix(":%s") % values[:-1]
        else:
            data = kind.template % values
        if len(data) > CALLBACK_DATA_MAX_BYTES or not kind.pattern.fullmatch(data):
            raise ValueError(f"no valid callback data for {callback!r}")
        return data

    def place(self, cls: type) -> Place:
        return self.by_class[cls].place

    def formats(self) -> str:
        """The wire formats as a Markdown table, for docs/callback-data.md."""
        rows = ["| data | kind | chat | bytes | fields | what it does |", "|---" * 6 + "|"]
        for kind in self.by_class.values():
            described = " · ".join(
                f"`{name}` {spec.describe()}"
                for name, spec in zip(kind.names, kind.specs, strict=True)
            )
            what = " ".join((kind.cls.__doc__ or "").split("\n\n")[0].split())
            rows.append(
                f"| `{kind.format()}` | {kind.cls.__name__} | {kind.place} | ≤ {kind.longest()} "
                f"| {described} | {what} |"
            )
        return "\n".join(rows) + "\n"


def _kind(cls: Any, prefix: str, place: Place) -> Kind:
    """A dataclass's row: its fields' wire patterns, read from their `Annotated` types."""
    hints = get_type_hints(cls, include_extras=True)
    declared = fields(cls)
    specs = tuple(_spec(cls, f.name, hints[f.name]) for f in declared)
    optional_last = bool(declared) and declared[-1].default is None
    pieces = [re.escape(prefix), *(":" + spec.regex() for spec in specs)]
    if not all(piece.isascii() and ":" not in piece[1:] for piece in pieces):
        raise ValueError(f"{cls.__name__}: a field allows non-ASCII data or ':'")
    if optional_last:
        if len(specs) < 2:
            raise TypeError(f"{cls.__name__}: an optional field comes after another")
        pieces[-1] = f"(?:{pieces[-1]})?"
    names = tuple(f.name for f in declared)
    return Kind(
        cls,
        prefix,
        place,
        names,
        specs,
        optional_last,
        re.compile("".join(pieces), re.ASCII),
        tuple(isinstance(spec, Number) for spec in specs),
        all(isinstance(spec, Number) for spec in specs),
        attrgetter(*names) if names else lambda _: (),
        prefix + ":%s" * len(names),
    )


def _spec(cls: type, name: str, hint: object) -> Field:
    """The wire pattern `Annotated` adds to a field's type."""
    for extra in getattr(hint, "__metadata__", ()):
        if isinstance(extra, Number | Text | Letter):
            return extra
    raise TypeError(f"{cls.__name__}.{name}: no wire pattern in its type")
