"""Moodle XML's text fields <-> our text, and the pictures they embed.

A Moodle text field (`<questiontext>`, `<generalfeedback>`, an `<answer>`, a `<feedback>`...)
holds a `<text>` and, since Moodle 2.0, the files its HTML shows: `<img
src="@@PLUGINFILE@@/name.png">` in the text, `<file name="name.png" path="/"
encoding="base64">` beside it. Its `format` attribute says how to read the text:

- `html` (Moodle's default) -> `html_text` (formatting dropped is collected for one report);
- `moodle_auto_format` -> the same, after its line breaks become `<br>` (as Moodle shows it);
- `plain_text` and `markdown` -> kept as written (our text is close to Markdown already).

Written back, our text is one `<div>` (`code` spans, `<pre><code class="language-x">` blocks,
`<br />`: `qti_text.rich`, which QTI shares), so a file written here reads back to the same text.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from urllib.parse import unquote
from xml.etree.ElementTree import Element, SubElement, tostring

from bot.content.formats.draft import DraftPicture
from bot.content.formats.html_text import HtmlImage, html_to_text
from bot.content.formats.qti_text import rich
from bot.content.media import PNG_MAGIC
from bot.content.problems import N_, Msg

PLUGINFILE = "@@PLUGINFILE@@"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SPACE = re.compile(r"\s+")


def child(element: Element | None, name: str) -> Element | None:
    """The first child named `name` (Moodle XML has no namespaces)."""
    return None if element is None else element.find(name)


def plain(element: Element | None) -> str:
    """The `<text>` of `element` as written (or its own text when it has no `<text>`)."""
    if element is None:
        return ""
    text = element.find("text")
    return ((text if text is not None else element).text or "").strip()


@dataclass(slots=True)
class Converted:
    """One field as our text, with the pictures it shows (resolved or not)."""

    text: str
    images: list[HtmlImage] = field(default_factory=list)


@dataclass(slots=True)
class Fields:
    """Reads the text fields of one question: the formatting each drops, collected once."""

    default_format: str = "html"
    dropped: set[str] = field(default_factory=set)

    def read(self, element: Element | None, fmt: str | None = None) -> Converted:
        if element is None:
            return Converted("")
        raw = plain(element)
        how = element.get("format") or fmt or self.default_format
        if how in ("plain_text", "markdown"):
            return Converted(raw)
        if how == "moodle_auto_format":
            raw = _LINE_BREAK.sub("<br>", raw)
        converted = html_to_text(raw)
        self.dropped.update(converted.dropped)
        return Converted(converted.text, list(converted.images))


def files_of(element: Element | None) -> dict[str, str]:
    """`path + name` -> base64 text of each `<file>` in the field (the last one of a name)."""
    if element is None:
        return {}
    found = {}
    for file in element.findall("file"):
        path = file.get("path") or "/"
        path = path if path.endswith("/") else path + "/"
        found[path + (file.get("name") or "")] = file.text or ""
    return found


def file_path(src: str) -> str | None:
    """The `<file>` (path + name) an `@@PLUGINFILE@@/...` address names; None for another."""
    src = src.strip()
    if not src.startswith(PLUGINFILE):
        return None
    path = unquote(src[len(PLUGINFILE) :].split("?", 1)[0])
    return path if path.startswith("/") else "/" + path


def picture(image: HtmlImage, files: dict[str, str]) -> DraftPicture | Msg:
    """The picture an `<img>` shows, from the field's own `<file>`s; or why it is left out."""
    path = file_path(image.src)
    if path is None:
        return Msg(N_("picture {name} is not in the file (quizbot fetches nothing): left out"),
                   name=image.src.strip()[:200])  # fmt: skip
    data = files.get(path)
    name = path.rsplit("/", 1)[-1]
    if data is None:
        return Msg(N_("picture {name} is not in the file: left out"), name=name[:200])
    try:
        decoded = base64.b64decode(_SPACE.sub("", data), validate=True)
    except (binascii.Error, ValueError):
        return Msg(N_("picture {name} is not valid base64: left out"), name=name[:200])
    return DraftPicture(name, decoded, image.alt.strip())


def html(text: str, *, block: bool = True) -> str:
    """Our text as the HTML of a Moodle field (a `<div>`; inline for an answer's text)."""
    holder = Element("x")
    rich(holder, text, block=block)
    inner = _escape(holder.text or "")  # tostring writes each part with its tail
    return inner + "".join(tostring(part, encoding="unicode") for part in holder)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_field(
    parent: Element, tag: str, text: str, shown: DraftPicture | None = None, *, block: bool = True
) -> Element:
    """`<tag format="html"><text>HTML</text><file .../></tag>`: `shown` as an embedded picture."""
    element = SubElement(parent, tag, {"format": "html"})
    body = html(text, block=block) if text else ""
    if shown is not None:
        name = file_name(shown)
        img = Element("img", {"src": f"{PLUGINFILE}/{name}", "alt": shown.alt})
        body += "<p>" + tostring(img, encoding="unicode") + "</p>"
        SubElement(element, "text").text = body
        file = SubElement(element, "file", {"name": name, "path": "/", "encoding": "base64"})
        file.text = base64.b64encode(shown.data).decode("ascii")
    else:
        SubElement(element, "text").text = body
    return element


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def file_name(shown: DraftPicture) -> str:
    """A plain file name for an embedded picture, its extension from its bytes (plain, so
    the `src` that names it needs no URL encoding)."""
    base = shown.name.replace("\\", "/").rsplit("/", 1)[-1]
    stem = _UNSAFE_NAME.sub("-", base.rpartition(".")[0] or base).strip("-.") or "picture"
    extension = "png" if shown.data.startswith(PNG_MAGIC) else "jpg"
    return f"{stem}.{extension}"
