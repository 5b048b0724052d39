"""The content preview shows a number question's key in each language, with that language's
unit and decimal notation (authors review the key where learners see options elsewhere)."""

from __future__ import annotations

from bot.content import default_content_dir, load_catalog
from bot.i18n import translator
from bot.usecases.dashboard import AnswerKeys
from bot.web.preview_page import render


def test_a_number_questions_key_in_every_language() -> None:
    quiz = load_catalog(default_content_dir()).quizzes["gradient-checkpointing"]
    page = render(translator("en"), quiz, "", AnswerKeys(every=True)).replace("\u00a0", " ")
    assert "✅ 20 ± 1 GB" in page  # English, and Wolof keeps GB
    assert "✅ 20 ± 1 Go" in page  # French
    assert page.count("✅ 20 ± 1 ") == 3
