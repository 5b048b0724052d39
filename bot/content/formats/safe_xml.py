"""Untrusted XML (a Moodle export, a QTI item, a manifest) -> ElementTree elements with lines.

Why not `xml.etree.ElementTree.fromstring`: the standard parser expands internal entities (a
billion-laughs file of a few KB becomes gigabytes) and has no size or depth bound. Here:

- the size is checked before a byte is parsed (`XmlLimits.max_bytes`);
- defusedxml's expat reader refuses any DTD (so every entity declaration, internal or external,
  and every external reference: no bomb and no file or URL is ever read), at the `<!DOCTYPE`;
- the depth is bounded while parsing (`max_depth`), and so is the element count, so deep nesting
  or a flood of empty elements stops at once instead of after building the whole tree;
- every element carries the line its start tag is on (`LinedElement.line`, from SAX's public
  `Locator`), so a format's problems name the uploader's own line;
- every refusal is one `XmlRefused(line, message)`; never a traceback, never a partial tree.

The encoding is the one the file declares (UTF-8 when none), as XML wants; invalid bytes for it
are refused with their line.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from xml.etree.ElementTree import Element, TreeBuilder
from xml.sax import SAXException, SAXParseException
from xml.sax.handler import ContentHandler
from xml.sax.xmlreader import AttributesImpl, InputSource, Locator

from defusedxml import DefusedXmlException
from defusedxml.expatreader import DefusedExpatParser

from bot.content.problems import N_, Msg


@dataclass(frozen=True, slots=True)
class XmlLimits:
    max_bytes: int = 1_000_000
    max_depth: int = 64
    max_elements: int = 200_000


DEFAULT_XML_LIMITS = XmlLimits()


class XmlRefused(ValueError):
    """The file is not XML this module accepts; `line` is 1-based (0: the file as a whole)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class LinedElement(Element):
    """An ElementTree element that knows the line of its start tag (0 when built by code)."""

    line: int = 0


class _Builder(ContentHandler):
    """SAX events -> a TreeBuilder of `LinedElement`s, with the depth and count bounds."""

    def __init__(self, limits: XmlLimits) -> None:
        super().__init__()
        self.limits = limits
        self.tree = TreeBuilder(element_factory=LinedElement)
        self.depth = 0
        self.count = 0
        self.where: Locator | None = None

    def line(self) -> int:
        if self.where is None:
            return 0
        return self.where.getLineNumber() or 0

    def setDocumentLocator(self, locator: Locator) -> None:
        self.where = locator

    def startElement(self, name: str, attrs: AttributesImpl) -> None:
        self.depth += 1
        self.count += 1
        if self.depth > self.limits.max_depth:
            raise XmlRefused(
                self.line(),
                Msg(N_("elements nested deeper than {n} levels"), n=self.limits.max_depth),
            )
        if self.count > self.limits.max_elements:
            raise XmlRefused(
                self.line(), Msg(N_("more than {n} elements"), n=self.limits.max_elements)
            )
        element = self.tree.start(name, dict(attrs.items()))
        assert isinstance(element, LinedElement)
        element.line = self.line()

    def endElement(self, name: str) -> None:
        self.depth -= 1
        self.tree.end(name)

    def characters(self, content: str) -> None:
        self.tree.data(content)


def parse_xml(data: bytes, limits: XmlLimits = DEFAULT_XML_LIMITS) -> LinedElement:
    """The root element of `data`, or `XmlRefused` (size, DTD/entities, depth, not well-formed)."""
    if len(data) > limits.max_bytes:
        raise XmlRefused(
            0,
            Msg(
                N_("the file is {size} bytes; at most {most} are accepted"),
                size=len(data),
                most=limits.max_bytes,
            ),
        )
    builder = _Builder(limits)
    reader = DefusedExpatParser(forbid_dtd=True, forbid_entities=True, forbid_external=True)
    reader.setContentHandler(builder)
    source = InputSource()
    source.setByteStream(io.BytesIO(data))
    try:
        reader.parse(source)
    except XmlRefused:
        raise
    except DefusedXmlException:
        raise XmlRefused(
            builder.line(),
            Msg(N_("a DTD or an entity declaration (DOCTYPE, ENTITY): refused for safety")),
        ) from None
    except SAXParseException as exc:
        raise XmlRefused(
            exc.getLineNumber() or 0,
            Msg(N_("broken XML: {error}"), error=exc.getMessage()),
        ) from None
    except (SAXException, ValueError, LookupError) as exc:  # e.g. an encoding expat lacks
        raise XmlRefused(
            builder.line(), Msg(N_("not readable as XML: {error}"), error=str(exc))
        ) from None
    root = builder.tree.close()
    assert isinstance(root, LinedElement)
    return root


def line_of(element: Element) -> int:
    """The start tag's line of an element from `parse_xml` (0 for one built by code)."""
    return element.line if isinstance(element, LinedElement) else 0


def local_name(tag: str) -> str:
    """`{ns}item` or `qti:item` -> `item`: formats whose files differ only in namespaces."""
    return tag.rpartition("}")[2].rpartition(":")[2]
