"""Hostile Moodle XML files, built from their parts: shared by the Moodle parser's tests and
the checker-messages test that holds each refusal's wording to the catalogues."""

from __future__ import annotations

from collections.abc import Callable

from bot.content.formats import Limits

HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
QUESTION = """<question type="multichoice">
<name><text>Q</text></name>
<questiontext format="html"><text>{prompt}</text></questiontext>
{answers}
</question>"""


def answers(count: int) -> str:
    return "".join(
        f'<answer fraction="{100 if i == 0 else 0}"><text>A{i}</text></answer>'
        for i in range(count)
    )


def bank(prompt: str = "Why?", count: int = 2, doctype: str = "") -> bytes:
    question = QUESTION.format(prompt=prompt, answers=answers(count))
    return (HEAD + doctype + "<quiz>\n" + question + "\n</quiz>\n").encode("utf-8")


LAUGHS = (
    '<!DOCTYPE quiz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10}">' for n in range(1, 10))
    + "]>\n"
).replace("&lol0;", "&lol;")


DEFAULT = Limits()


SECRET = '<!DOCTYPE quiz [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'


HOSTILE: dict[str, tuple[Callable[[], bytes], int, str]] = {
    "billion laughs": (lambda: bank(prompt="&lol9;", doctype=LAUGHS), 2, "DTD"),
    "external entity": (lambda: bank(prompt="&x;", doctype=SECRET), 2, "DTD"),
    "external DTD": (
        lambda: bank(doctype='<!DOCTYPE quiz SYSTEM "http://example.invalid/q.dtd">\n'),
        2,
        "DTD",
    ),
    "deep nesting": (lambda: bank(prompt="<b>" * 100_000 + "</b>" * 100_000), 5, "deeper than"),
    "invalid UTF-8": (lambda: bank(prompt="caf@").replace(b"caf@", b"caf\xe9"), 5, "broken XML"),
    "10 MB": (lambda: bank(prompt="x" * 10_000_000), 1, "at most 1000000 are accepted"),
    "not XML": (lambda: b"question,answer\n1,2\n", 1, "broken XML"),
    "another root": (lambda: HEAD.encode() + b"<html><body/></html>", 2, "not Moodle XML"),
    "an undefined entity": (lambda: bank(prompt="&nbsp;"), 5, "undefined entity"),
}
