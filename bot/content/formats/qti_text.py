"""Our content's text <-> the XHTML inside QTI items.

Our text is plain, with `code` spans, fenced code blocks and line breaks (content/README.md).
Written into an item: spans become `<code>`, fenced blocks `<pre><code class="language-x">`, line
breaks `<br/>`, all inside one `<div>` (a flow container: QTI's `<p>` may not hold a `<pre>`).
Read back: an element's content is serialised to HTML (local names, only the attributes the
conversion uses) and goes through `html_text.html_to_text`, shared with Moodle and Anki, so a
package written here reads back to the same text (runs of spaces collapse, as in any HTML).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from xml.etree.ElementTree import Element, SubElement

_FENCE = re.compile(r"```([A-Za-z0-9_+-]*)\n(.*?)\n?```", re.S)
_SPAN = re.compile(r"`([^`\n]+)`")
_KEPT_ATTRIBUTES = ("src", "alt", "class", "href")
_VOID = frozenset({"br", "img", "hr"})


def q(name: str) -> str:
    """A tag of an item: unqualified, as the root declares QTI's namespace the default one
    (`xmlns=...`), which XHTML elements inside an item share. (ElementTree's own
    `default_namespace` refuses unqualified attributes, so the declaration is written by hand.)"""
    return name


def _add_text(parent: Element, text: str) -> None:
    """Append `text` after `parent`'s last child (or as its text): ElementTree's tail rule."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _inline(parent: Element, text: str) -> None:
    for number, line in enumerate(text.split("\n")):
        if number:
            SubElement(parent, q("br"))
        position = 0
        for span in _SPAN.finditer(line):
            _add_text(parent, line[position : span.start()])
            SubElement(parent, q("code")).text = span[1]
            position = span.end()
        _add_text(parent, line[position:])


def rich(parent: Element, text: str, *, block: bool = True) -> Element:
    """`text` as a `<div>` appended to `parent` (returned); with `block` off and no fenced
    block in it, as inline content of `parent` itself (a simpleChoice's plain text)."""
    div = SubElement(parent, q("div")) if block or _FENCE.search(text) else parent
    position = 0
    for fence in _FENCE.finditer(text):
        _inline(div, text[position : fence.start()].removesuffix("\n"))
        pre = SubElement(div, q("pre"))
        code = SubElement(pre, q("code"), {"class": f"language-{fence[1]}"} if fence[1] else {})
        code.text = fence[2]
        position = fence.end()
        if text.startswith("\n", position):
            position += 1
    _inline(div, text[position:])
    return div


def local(tag: object) -> str:
    """`{ns}name` -> `name` (comments and processing instructions have no str tag: "")."""
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def inner_html(element: Element, replace: Mapping[int, str] | None = None) -> str:
    """The HTML of `element`'s content; a descendant whose `id()` is a key of `replace` is
    written as that key's HTML instead (its tail text kept): an interaction, a feedback."""
    replace = replace or {}
    out: list[str] = [html.escape(element.text or "", quote=False)]
    for child in element:
        out.append(replace[id(child)] if id(child) in replace else outer_html(child, replace))
        out.append(html.escape(child.tail or "", quote=False))
    return "".join(out)


def outer_html(element: Element, replace: Mapping[int, str] | None = None) -> str:
    name = local(element.tag)
    if not name:
        return ""
    attributes = "".join(
        f' {key}="{html.escape(value)}"'
        for key, value in element.attrib.items()
        if key in _KEPT_ATTRIBUTES
    )
    if name in _VOID:
        return f"<{name}{attributes}/>"
    return f"<{name}{attributes}>{inner_html(element, replace)}</{name}>"
