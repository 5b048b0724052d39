"""What a learner's "⚠️ Report" on a question is made of: a reason and an optional sentence.

Pure rules only: the reasons (and the one-letter codes their buttons carry), how long the
sentence may be and what is stripped from it, and how long the bot waits for it. Storing,
Telegram and wording live elsewhere.
"""

from __future__ import annotations

import unicodedata
from enum import StrEnum

TEXT_MAX_CHARS = 500  # one or two sentences; an author reads every one
# After a reason is picked, the learner's next text message within this many seconds is taken
# as the sentence; later text is an ordinary message again.
SENTENCE_WAIT_SECONDS = 300.0


class Reason(StrEnum):
    """Why a question is reported (stored as the value; the order is the buttons')."""

    KEY = "key"  # the answer key looks wrong
    UNCLEAR = "unclear"  # the question is unclear
    TRANSLATION = "translation"  # the translation is wrong
    OTHER = "other"

    @property
    def code(self) -> str:
        """The one letter a button carries (callback data is short)."""
        return self.value[0]

    @classmethod
    def from_code(cls, code: str) -> Reason | None:
        return next((reason for reason in cls if reason.code == code), None)


def clean_sentence(text: str) -> str:
    """The learner's sentence as stored: control and format characters out (bidi overrides,
    zero-width marks; a newline or tab becomes a space), runs of spaces collapsed, at most
    TEXT_MAX_CHARS characters. Escaping is the renderer's job, when it is shown."""
    kept = []
    for char in text:
        if char in "\n\r\t":
            kept.append(" ")
        elif unicodedata.category(char) not in {"Cc", "Cf", "Cs", "Co"}:
            kept.append(char)
    cleaned = " ".join("".join(kept).split())
    return cleaned[:TEXT_MAX_CHARS].rstrip()
