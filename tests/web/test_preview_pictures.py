"""The content preview shows each picture's alt text per language (authors and translators
review it there: Telegram has no alt text for a photo)."""

from __future__ import annotations

from bot.content import default_content_dir, load_catalog
from bot.i18n import translator
from bot.usecases.dashboard import AnswerKeys
from bot.web.preview_page import render


def test_alt_text_in_every_language_beside_its_file() -> None:
    quiz = load_catalog(default_content_dir()).quizzes["gradient-checkpointing"]
    (pictured,) = [q for q in quiz.questions if q.image is not None]
    page = render(translator("en"), quiz, "", AnswerKeys(every=True))
    for lang in ("en", "fr", "wo"):
        assert pictured.image is not None
        assert pictured.image.alt.get(lang).split(",")[0] in page
    assert page.count("<code>sqrt-n-checkpoints.png</code>") == 3
