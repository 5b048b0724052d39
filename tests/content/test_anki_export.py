"""Ours -> Anki (genanki) -> ours: every flashcard's front, back and pictures come back; a choice
or number question comes back as a flashcard whose back is its answer and explanation."""

from __future__ import annotations

from bot.content.formats import parse_bytes, write_bytes
from bot.content.formats.draft import FLASHCARD, DraftOption, DraftPicture, DraftQuestion, DraftQuiz
from bot.core.kinds import NumberAnswer
from tests.content.media_kit import png


def test_a_quiz_round_trips_through_an_apkg() -> None:
    front, back = (
        DraftPicture("front.png", png(32, 32), "a front"),
        DraftPicture("b.png", png(40, 40)),
    )
    quiz = DraftQuiz(
        "sums",
        "Sums",
        "en",
        (
            DraftQuestion(
                "card",
                "Is `a < b`?\nSay.",
                (),
                "Yes:\n```python\nprint(1 < 2)\n```",
                kind=FLASHCARD,
                image=front,
                explanation_image=back,
            ),
            DraftQuestion(
                "pick", "Two plus two?", (DraftOption("3"), DraftOption("4", True)), "Four."
            ),
            DraftQuestion(
                "num",
                "Half?",
                (),
                "A half.",
                kind="number",
                number=NumberAnswer(0.5, 0.05),
                unit="s",
            ),
        ),
    )
    result = parse_bytes("anki", write_bytes("anki", [quiz]), "sums.apkg")
    (back_quiz,) = result.quizzes
    assert back_quiz.title == "Sums"
    card, pick, num = back_quiz.questions
    assert (card.id, card.prompt, card.explanation) == (
        "card",
        "Is `a < b`?\nSay.",
        "Yes:\n```python\nprint(1 < 2)\n```",
    )
    assert card.image is not None and card.image.data == front.data and card.image.alt == "a front"
    assert card.explanation_image is not None and card.explanation_image.data == back.data
    assert {q.kind for q in back_quiz.questions} == {FLASHCARD}
    assert (pick.id, pick.explanation) == ("pick", "4\n\nFour.")
    assert num.explanation == "0.5 ± 0.05 s\n\nA half."
