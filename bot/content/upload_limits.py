"""What one uploaded quiz may hold, and one problem found in it: shared by the upload checker
(uploads.py) and the converters of other formats (upload_formats.py), which it calls."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UploadLimits:
    """What one uploaded quiz may hold. Texts stay under what Telegram shows in one message
    (4,096 characters) with room for the question's header and the options."""

    max_bytes: int = 256 * 1024
    max_questions: int = 100
    max_options: int = 10
    max_title_chars: int = 200
    max_prompt_chars: int = 1_000
    max_option_chars: int = 300
    max_explanation_chars: int = 1_500


UPLOAD_LIMITS = UploadLimits()


@dataclass(frozen=True, slots=True)
class UploadProblem:
    """One thing wrong (or, `warning`, suspicious) in the file, at a 1-based line (0: none)."""

    line: int
    code: str  # what went wrong, for the chat to word in the uploader's language
    detail: str = ""  # the checker's message (a `problems.Msg` the chat translates), or a number
    warning: bool = False
    key: str = ""  # the checker's key (questions.sum.options.b): the chat names it in words
    lang: str = ""  # the translation the problem is in ("" for the English source)
