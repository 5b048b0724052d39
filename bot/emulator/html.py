"""Telegram's HTML parse mode, following tdlib's parser: the visible text, the entities, the errors.

Errors carry tdlib's wording ("Unsupported start tag "p" at byte offset 0", ...), offsets in UTF-8
bytes; entity offsets and lengths are in UTF-16 code units, as the Bot API reports them.

One deliberate difference: tdlib keeps a stray `&` that starts no entity ("&laquo;", "a & b") as
text, while the Bot API documentation says every `&` must be escaped. With `strict_ampersand`
(the emulator's default) such text is rejected, so unescaped user content fails in tests instead
of depending on tdlib's leniency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .formatted import FormattedText, normalize_url, tail, utf16_len

_TAGS = frozenset(
    [
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    ]
)
_SIMPLE = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler", "span": "spoiler", "pre": "pre", "code": "code",
}  # fmt: skip
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SPACE = frozenset(" \t\r\n\v\0")  # tdlib's is_space, the end of text ("\0") included
_PLAIN = re.compile(r"[^<&]+")
_HEX = frozenset("0123456789abcdefABCDEF")
_TOKEN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class HtmlError(ValueError):
    """Text the Bot API would refuse with "can't parse entities: <detail>"."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"can't parse entities: {detail}")
        self.detail = detail


def _decode_entity(s: str, pos: int) -> tuple[str, int] | None:
    """tdlib's decode_html_entity: the character and the index after it, or None."""
    n, end = len(s), pos + 1
    if end < n and s[end] == "#":
        end += 1
        code = 0
        if end < n and s[end] == "x":
            end += 1
            while end < n and s[end] in _HEX:
                code = code * 16 + int(s[end], 16)
                end += 1
                if code >= 0x10FFFF:
                    return None
        else:
            while end < n and "0" <= s[end] <= "9":
                code = code * 10 + ord(s[end]) - 48
                end += 1
                if code >= 0x10FFFF:
                    return None
        if code == 0 or end - pos >= 10:
            return None
        if 0xD800 <= code <= 0xDFFF:
            raise HtmlError(
                "Text contains invalid Unicode characters after decoding HTML entities, "
                "check for unmatched surrogate code units"
            ) from None
        char = chr(code)
    else:
        while end < n and s[end] in _ALPHA:
            end += 1
        found = _NAMED.get(s[pos + 1 : end])
        if found is None:
            return None
        char = found
    if end < n and s[end] == ";":
        end += 1
    return char, end


@dataclass
class _Open:
    tag: str
    argument: str
    start: int  # UTF-16 offset in the output
    order: int  # outer entities first when spans are equal
    expandable: bool = False


class _Parser:
    def __init__(self, source: str, strict_ampersand: bool) -> None:
        self.s = source
        self.n = len(source)
        self.strict = strict_ampersand
        self.out: list[str] = []
        self.u16 = 0
        self.stack: list[_Open] = []
        self.entities: list[tuple[int, dict[str, Any]]] = []  # (open order, entity)
        self.opened = 0

    def at(self, i: int) -> str:
        return self.s[i] if i < self.n else "\0"

    def byte(self, i: int) -> int:
        return len(self.s[:i].encode("utf-8", "surrogatepass"))

    def emit(self, text: str) -> None:
        self.out.append(text)
        self.u16 += utf16_len(text)

    def ampersand(self, i: int) -> tuple[str, int]:
        decoded = _decode_entity(self.s, i)
        if decoded is not None:
            return decoded
        if self.strict:
            raise HtmlError(f'Unescaped "&" at byte offset {self.byte(i)}; write &amp;')
        return "&", i + 1

    def run(self) -> FormattedText:
        s, i = self.s, 0
        while i < self.n:
            plain = _PLAIN.match(s, i)
            if plain:
                self.emit(plain.group())
                i = plain.end()
            elif s[i] == "&":
                char, i = self.ampersand(i)
                self.emit(char)
            elif self.at(i + 1) == "/":
                i = self.end_tag(i)
            else:
                i = self.start_tag(i)
        if self.stack:
            raise HtmlError(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1].tag}"'
            )
        self.entities.sort(key=lambda e: (e[1]["offset"], -e[1]["length"], e[0]))
        return FormattedText("".join(self.out), _merge_pre_code([e for _, e in self.entities]))

    def start_tag(self, begin: int) -> int:
        at, i = self.at, begin + 1
        while at(i) not in _SPACE and at(i) != ">":
            i += 1
        if i >= self.n:
            raise HtmlError(f"Unclosed start tag at byte offset {self.byte(begin)}")
        tag = self.s[begin + 1 : i].lower()
        if tag not in _TAGS:
            raise HtmlError(f'Unsupported start tag "{tag}" at byte offset {self.byte(begin)}')
        self.opened += 1
        opened = _Open(tag, "", self.u16, self.opened)
        while at(i) != ">":
            while i < self.n and at(i) in _SPACE:
                i += 1
            if at(i) == ">":
                break
            name_begin = i
            while at(i) not in _SPACE and at(i) not in "=>":
                i += 1
            name = self.s[name_begin:i]
            if not name:
                raise HtmlError(
                    f'Empty attribute name in the tag "{tag}" at byte offset {self.byte(begin)}'
                )
            while i < self.n and at(i) in _SPACE:
                i += 1
            if at(i) != "=":
                if tag == "blockquote" and name == "expandable":
                    opened.expandable = True
                    continue
                raise HtmlError(
                    "Expected equal sign in declaration of an attribute of the tag "
                    f'"{tag}" at byte offset {self.byte(begin)}'
                )
            i += 1
            while i < self.n and at(i) in _SPACE:
                i += 1
            if i >= self.n:
                raise HtmlError(f'Unclosed start tag "{tag}" at byte offset {self.byte(begin)}')
            value, i = self.attribute_value(i, begin)
            self.set_argument(opened, name, value)
        if tag == "span" and opened.argument != "spoiler":
            raise HtmlError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self.byte(begin)}'
            )
        if tag == "tg-emoji" and not opened.argument.isdigit():
            raise HtmlError("Invalid custom emoji identifier specified")
        self.stack.append(opened)
        return i + 1

    def attribute_value(self, i: int, begin: int) -> tuple[str, int]:
        at = self.at
        if at(i) not in "'\"":
            token_begin = i
            while at(i) in _TOKEN:
                i += 1
            if at(i) not in _SPACE and at(i) != ">":
                raise HtmlError(
                    f"Unexpected end of name token at byte offset {self.byte(token_begin)}"
                )
            return self.s[token_begin:i].lower(), i
        quote, i = at(i), i + 1
        value: list[str] = []
        while i < self.n and self.s[i] != quote:
            if self.s[i] == "&":
                char, i = self.ampersand(i)
                value.append(char)
            else:
                value.append(self.s[i])
                i += 1
        if i >= self.n:
            raise HtmlError(f"Unclosed start tag at byte offset {self.byte(begin)}")
        return "".join(value), i + 1

    @staticmethod
    def set_argument(opened: _Open, name: str, value: str) -> None:
        tag = opened.tag
        if tag == "a" and name == "href":
            opened.argument = value
        elif tag == "code" and name == "class" and value.startswith("language-"):
            opened.argument = value[len("language-") :]
        elif tag == "span" and name == "class" and value.startswith("tg-"):
            opened.argument = value[len("tg-") :]
        elif tag == "tg-emoji" and name == "emoji-id":
            opened.argument = value

    def end_tag(self, begin: int) -> int:
        if not self.stack:
            raise HtmlError(f"Unexpected end tag at byte offset {self.byte(begin)}")
        at, i = self.at, begin + 2
        while at(i) not in _SPACE and at(i) != ">":
            i += 1
        end_name = self.s[begin + 2 : i]
        while i < self.n and at(i) in _SPACE:
            i += 1
        if at(i) != ">":
            raise HtmlError(f"Unclosed end tag at byte offset {self.byte(begin)}")
        opened = self.stack[-1]
        if end_name and end_name != opened.tag:
            raise HtmlError(
                f"Unmatched end tag at byte offset {self.byte(begin)}, "
                f'expected "</{opened.tag}>", found "</{end_name}>"'
            )
        self.stack.pop()
        self.close(opened)
        return i + 1

    def close(self, opened: _Open) -> None:
        length = self.u16 - opened.start
        if length <= 0:
            return
        entity: dict[str, Any] = {"offset": opened.start, "length": length}
        if opened.tag == "a":
            url = normalize_url(opened.argument or tail(self.out, length))
            if url is None:
                return
            entity.update(type="text_link", url=url)
        elif opened.tag == "blockquote":
            entity["type"] = "expandable_blockquote" if opened.expandable else "blockquote"
        elif opened.tag == "tg-emoji":
            entity.update(type="custom_emoji", custom_emoji_id=opened.argument)
        else:
            entity["type"] = _SIMPLE[opened.tag]
            if opened.tag == "code" and opened.argument:
                entity["language"] = opened.argument
        self.entities.append((opened.order, entity))


def _merge_pre_code(entities: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """`<pre><code class="language-x">` is one pre entity with a language, as in tdlib."""
    spans = {(e["offset"], e["length"]): e for e in entities if e["type"] == "pre"}
    merged: list[dict[str, Any]] = []
    for entity in entities:
        pre = spans.get((entity["offset"], entity["length"]))
        if entity["type"] == "code" and "language" in entity and pre is not None:
            pre["language"] = entity["language"]
            continue
        if entity["type"] == "code":
            entity.pop("language", None)
        merged.append(entity)
    return tuple(merged)


def parse_html(source: str, *, strict_ampersand: bool = True) -> FormattedText:
    """Parse Telegram HTML; raise HtmlError with tdlib's message on what Telegram rejects."""
    return _Parser(source, strict_ampersand).run()
