"""The hardened XML reader on hostile files: every one refused cleanly, at once, with a line."""

from __future__ import annotations

import pytest

from bot.content.formats.safe_xml import XmlLimits, XmlRefused, line_of, local_name, parse_xml

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<quiz>&lol9;</quiz>
"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<quiz><question><name><text>&secret;</text></name></question></quiz>
"""
EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE quiz SYSTEM "http://example.invalid/quiz.dtd">
<quiz/>
"""
PARAMETER_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY % remote SYSTEM "http://example.invalid/x.dtd"> %remote;]>
<quiz/>
"""
HOSTILE = {
    "billion laughs": (BILLION_LAUGHS, 2, "DTD"),
    "external entity": (EXTERNAL_ENTITY, 2, "DTD"),
    "external DTD": (EXTERNAL_DTD, 2, "DTD"),
    "parameter entity": (PARAMETER_ENTITY, 2, "DTD"),
    "10 MB": (b"<quiz>" + b"x" * 10_000_000 + b"</quiz>", 0, "10000013 bytes"),
    "deep nesting": (b"<a>" * 100_000 + b"</a>" * 100_000, 1, "deeper than 64"),
    "invalid UTF-8": (b"<quiz>\n<text>caf\xe9</text>\n</quiz>", 2, "broken XML"),
    "undefined entity": (b"<quiz>\n&nbsp;</quiz>", 2, "undefined entity"),
    "unclosed": (b"<quiz>\n<question>\n</quiz>", 3, "mismatched tag"),
    "not XML": (b"question,answer\n1,2\n", 1, "broken XML"),
    "empty": (b"", 1, "broken XML"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_xml_is_refused_at_once_with_its_line(name: str) -> None:
    data, line, words = HOSTILE[name]
    with pytest.raises(XmlRefused) as refused:
        parse_xml(data)
    assert refused.value.line == line
    assert words in refused.value.message


def test_a_flood_of_elements_stops_at_the_cap() -> None:
    data = b"<quiz>" + b"<answer/>" * 10_001 + b"</quiz>"
    with pytest.raises(XmlRefused) as refused:
        parse_xml(data, XmlLimits(max_elements=10_000))
    assert "more than 10000 elements" in refused.value.message


def test_elements_carry_their_lines_text_and_attributes() -> None:
    data = (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b"<quiz>\n"
        b'  <question type="truefalse">\n'
        b"    <name><text>Caf\xc3\xa9 &amp; tea</text></name>\n"
        b'    <questiontext format="html"><text><![CDATA[<p>Hot?</p>]]></text></questiontext>\n'
        b"  </question>\n"
        b"</quiz>\n"
    )
    root = parse_xml(data)
    question = root.find("question")
    assert question is not None and question.get("type") == "truefalse"
    assert line_of(question) == 3
    assert root.findtext("question/name/text") == "Café & tea"
    text = root.find("question/questiontext/text")
    assert text is not None and text.text == "<p>Hot?</p>" and line_of(text) == 5


def test_a_declared_encoding_is_honoured() -> None:
    data = '<?xml version="1.0" encoding="ISO-8859-1"?><quiz>é</quiz>'.encode("latin-1")
    assert parse_xml(data).text == "é"


def test_local_names_drop_namespaces() -> None:
    assert local_name("{http://www.imsglobal.org/xsd/imsqti_v2p1}assessmentItem") == (
        "assessmentItem"
    )
    assert local_name("qti:choiceInteraction") == "choiceInteraction"
    assert local_name("quiz") == "quiz"
