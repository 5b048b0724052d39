"""The names a QTI 2.1 content package is made of, shared by its writer and its reader.

One module so the writer cannot drift from what the reader looks for: the namespaces, the
manifest's resource types, the response and outcome identifiers quizbot writes, and the file
layout of a package it exports.
"""

from __future__ import annotations

import re

QTI_NS = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI_XSD = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"
CP_NS = "http://www.imsglobal.org/xsd/imscp_v1p1"
CP_XSD = "http://www.imsglobal.org/xsd/imscp_v1p1.xsd"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
XML_NS = "http://www.w3.org/XML/1998/namespace"

MANIFEST = "imsmanifest.xml"
# Resource types of IMS QTI 2.1's packaging (2.2 is a superset with the same elements).
ITEM_TYPE = "imsqti_item_xmlv2p1"
TEST_TYPE = "imsqti_test_xmlv2p1"
ITEM_TYPES = re.compile(r"imsqti_item_xmlv2p[12]")
TEST_TYPES = re.compile(r"imsqti_test_xmlv2p[12]")
OLD_QTI = re.compile(r"imsqti_xmlv1p\d|imsqti_item_xmlv1|ims_qtiasi")  # QTI 1.x (Canvas's)

RESPONSE = "RESPONSE"
SCORE = "SCORE"
FEEDBACK = "FEEDBACK"
EXPLANATION = "EXPLANATION"  # the one modalFeedback quizbot writes: shown after every answer

# A QTI identifier is an XML NCName: a letter or underscore first.
_NCNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def identifier(text: str, fallback: str) -> str:
    """`text` as a QTI identifier: unchanged when it already is one, else made one."""
    if _NCNAME.fullmatch(text):
        return text
    cleaned = _NOT_NAME.sub("-", text).strip("-")
    if not cleaned:
        return fallback
    return cleaned if _NCNAME.fullmatch(cleaned) else f"q-{cleaned}"
