"""HTML from a question bank (Moodle, QTI, Anki) -> the text our content holds.

Our content is plain text with `code` spans, fenced code blocks and line breaks (see
content/README.md: the bot renders exactly these; it has no bold, italic or links). So:

- `<br>`, and the end of a block (`<p>`, `<div>`, `<li>`, a heading, a table row) -> a line
  break; `<li>` -> "- " (or "1. " in an `<ol>`);
- `<code>`, `<tt>`, `<kbd>`, `<samp>` -> a `code` span; `<pre>` -> a fenced block (its language
  from `class="language-x"` as our renderer writes it);
- `<a href>` -> its text, then the address in parentheses when it is a web address the text does
  not already show;
- `<img>` -> nothing in the text: collected in `images` (src, alt) for the format to resolve;
- anything else (bold, italic, tables, fonts, scripts...) keeps its text and loses its tag, and
  the tag's name is returned in `dropped` so the format reports it (`<script>`, `<style>` lose
  their content too). Entities are decoded; whitespace collapses as a browser collapses it.

`html.parser` from the standard library: it never fetches, never expands a DTD, and tolerates
the broken HTML that editors produce; each call is one linear pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

_BLOCKS = frozenset(
    [
        "p",
        "div",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "tr",
        "table",
        "ul",
        "ol",
        "li",
        "blockquote",
        "section",
        "article",
        "header",
        "footer",
        "figure",
        "figcaption",
        "dl",
        "dt",
        "dd",
        "hr",
        "center",
        "address",
    ]
)
_CODE = frozenset({"code", "tt", "kbd", "samp"})
# Tags whose meaning our text keeps (or that never had one): not reported when dropped.
_KEPT = frozenset(
    [
        "p",
        "div",
        "br",
        "span",
        "code",
        "tt",
        "kbd",
        "samp",
        "pre",
        "a",
        "ul",
        "ol",
        "li",
        "html",
        "body",
        "img",
    ]
)
_SILENT = frozenset({"script", "style", "head", "title", "template", "noscript"})
_VOID = frozenset(
    [
        "br",
        "img",
        "hr",
        "input",
        "meta",
        "link",
        "area",
        "base",
        "col",
        "embed",
        "source",
        "track",
        "wbr",
    ]
)
_SPACE = re.compile(r"[ \t\n\r\f]+")
_LANG = re.compile(r"(?:^|\s)(?:language|lang)-([A-Za-z0-9_+-]+)")
_MARK = "\x00"  # placeholder of a code block in the pass's text (NUL never comes from input)
# One field's HTML is cut here before parsing: far more than a question's 4,096 characters of
# text need, and html.parser's cost stays bounded whatever the file holds.
MAX_HTML_CHARS = 65_536


@dataclass(frozen=True, slots=True)
class HtmlImage:
    src: str
    alt: str


@dataclass(frozen=True, slots=True)
class HtmlText:
    text: str
    dropped: tuple[str, ...]  # tag names whose formatting or content was lost, sorted
    images: tuple[HtmlImage, ...]


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.dropped: set[str] = set()
        self.images: list[HtmlImage] = []
        self.blocks: list[str] = []  # fenced code blocks, referred to by _MARK + index
        self.lists: list[list[int]] = []  # per open list: [0] for <ul>, [n] for <ol> item n
        self.silent = 0
        self.pre: list[str] | None = None
        self.pre_lang = ""
        self.links: list[tuple[str, int]] = []  # href, where its text starts in `out`

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {k: v or "" for k, v in attrs}
        if tag in _SILENT:
            self.silent += 1
            self.dropped.add(tag)
            return
        if self.pre is not None:
            if tag == "br":
                self.pre.append("\n")
            elif tag == "code" and not self.pre_lang:
                self.pre_lang = _language(named.get("class", ""))
            return
        if tag not in _KEPT:
            self.dropped.add(tag)
        if tag == "br":
            self.out.append("\n")
        elif tag == "img":
            self.images.append(HtmlImage(named.get("src", ""), named.get("alt", "")))
        elif tag == "pre":
            self.pre, self.pre_lang = [], _language(named.get("class", ""))
        elif tag in _CODE:
            self.out.append("`")
        elif tag == "a":
            self.links.append((named.get("href", ""), len(self.out)))
        elif tag in ("ul", "ol"):
            self.line_break()
            self.lists.append([1 if tag == "ol" else 0])
        elif tag == "li":
            self.line_break()
            if self.lists and self.lists[-1][0]:
                self.out.append(f"{self.lists[-1][0]}. ")
                self.lists[-1][0] += 1
            else:
                self.out.append("- ")
        elif tag in _BLOCKS:
            self.line_break()

    def line_break(self) -> None:
        """A block starts or ends: a line break unless the text already ends a line."""
        for piece in reversed(self.out):
            if piece.strip(" "):
                if not piece.rstrip(" ").endswith("\n"):
                    self.out.append("\n")
                return

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _SILENT:
            self.silent = max(0, self.silent - 1)
            return
        if self.pre is not None:
            if tag == "pre":
                code = "".join(self.pre).strip("\n")
                self.blocks.append(f"```{self.pre_lang}\n{code}\n```")
                self.out.append(f"\n{_MARK}{len(self.blocks) - 1}{_MARK}\n")
                self.pre = None
            return
        if tag in _CODE:
            self.out.append("`")
        elif tag == "a" and self.links:
            href, start = self.links.pop()
            shown = "".join(self.out[start:]).strip()
            if href.startswith(("http://", "https://")) and href not in shown:
                self.out.append(f" ({href})")
        elif tag in ("ul", "ol"):
            if self.lists:
                self.lists.pop()
            self.line_break()
        elif tag in ("td", "th"):
            self.out.append(" ")
        elif tag in _BLOCKS:
            self.line_break()

    def handle_data(self, data: str) -> None:
        if self.silent:
            return
        data = data.replace(_MARK, "")
        if self.pre is not None:
            self.pre.append(data)
        else:
            self.out.append(_SPACE.sub(" ", data))

    def result(self) -> HtmlText:
        if self.pre is not None:  # an unclosed <pre>: its text as a block all the same
            self.handle_endtag("pre")
        text = "".join(self.out)
        lines = [line.strip(" ") for line in text.split("\n")]
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
        text = text.replace("``", "")  # an empty code element
        for index, block in enumerate(self.blocks):
            text = text.replace(f"{_MARK}{index}{_MARK}", block)
        return HtmlText(text, tuple(sorted(self.dropped)), tuple(self.images))


def _language(css: str) -> str:
    found = _LANG.search(css)
    return found[1].lower() if found else ""


def _defused(html: str) -> str:
    """`html` with comments removed and every `<` that cannot open a tag written `&lt;`.

    Why: html.parser rescans the rest of the input from each `<` it cannot complete (an
    unclosed tag or comment), which is quadratic: 44 KB of `<a href='x'` took 15 s. Here a `<`
    opens a tag only if a `>` comes before the next `<` (each search is bounded by that next
    `<`, so this pass is linear); `<!` and `<?` (doctype, CDATA, processing instructions)
    never do in a question's text."""
    html = html[:MAX_HTML_CHARS]
    out: list[str] = []
    i, n = 0, len(html)
    while i < n:
        lt = html.find("<", i)
        if lt < 0:
            out.append(html[i:])
            break
        out.append(html[i:lt])
        if html.startswith("<!--", lt):
            end = html.find("-->", lt + 4)
            i = n if end < 0 else end + 3
            continue
        nxt = html.find("<", lt + 1)
        stop = n if nxt < 0 else nxt
        gt = html.find(">", lt + 1, stop)
        if gt < 0 or html[lt + 1 : lt + 2] in ("!", "?"):
            out.append("&lt;")
            i = lt + 1
        else:
            out.append(html[lt : gt + 1])
            i = gt + 1
    return "".join(out)


def html_to_text(html: str) -> HtmlText:
    """`html` as our content's text, the tags whose formatting was dropped, and its images."""
    converter = _Converter()
    converter.feed(_defused(html))
    converter.close()
    return converter.result()


def looks_like_html(text: str) -> bool:
    """Whether a text field holds markup (Moodle's `format="html"` is not always honest)."""
    return bool(re.search(r"<[A-Za-z/!]|&[A-Za-z#][A-Za-z0-9]{0,31};", text))
