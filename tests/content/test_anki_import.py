"""Anki decks in: hand-written packages (tests/content/anki_decks.py, Anki's own layout) read
through `parse_bytes("anki", ...)`, the one entry the command line and an upload share."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from bot.content.formats import Limits, ParseResult, parse_bytes
from bot.content.formats.draft import FLASHCARD
from tests.content.anki_decks import (
    BASIC,
    CLOZE,
    REVERSED,
    VERBS_DECK,
    VOCAB,
    HandDeck,
    HandNote,
    latest_apkg,
    legacy_apkg,
)
from tests.content.media_kit import png

PICTURE = png(32, 32)
GIF = b"GIF89a" + b"\x00" * 40


def sample() -> HandDeck:
    """One note of each kind the importer treats differently, in two decks."""
    return HandDeck(
        [
            HandNote(
                BASIC,
                ['What is <b>2 + 2</b>?<img src="sum.png" alt="a sum">', "4<br>Two and two."],
                tags="maths arithmetic",
                reviewed=True,
            ),
            HandNote(REVERSED, ["hablar", "to speak [sound:hablar.mp3]"], deck=VERBS_DECK),
            HandNote(CLOZE, ["{{c1::Paris::city}} is the capital of {{c2::France}}", "Since 508."]),
            HandNote(VOCAB, ["<i>comer</i>", "to eat", "Como pan."], deck=VERBS_DECK),
        ],
        decks={1: "Default", VERBS_DECK: "Spanish::Verbs"},
        media={"sum.png": PICTURE},
    )


def lines(result: ParseResult) -> list[tuple[int, str]]:
    return [(p.line, str(p.message)) for p in result.problems]


@pytest.mark.parametrize("pack", [legacy_apkg, latest_apkg], ids=["anki2", "anki21b"])
def test_notes_become_flashcards_one_quiz_per_deck(pack) -> None:
    result = parse_bytes("anki", pack(sample()), "Arithmetic.apkg")
    default, verbs = result.quizzes
    assert (default.id, default.title) == ("arithmetic", "Arithmetic")  # Default: the file's name
    assert (verbs.id, verbs.title) == ("spanish-verbs", "Spanish::Verbs")
    assert {q.kind for quiz in result.quizzes for q in quiz.questions} == {FLASHCARD}
    basic, paris, france = default.questions
    assert (basic.prompt, basic.explanation) == ("What is 2 + 2?", "4\nTwo and two.")
    assert basic.image is not None and basic.image.data == PICTURE
    assert (basic.image.name, basic.image.alt) == ("sum.png", "a sum")
    assert basic.tags == ("maths", "arithmetic")
    assert (paris.id, paris.prompt) == ("q3-c1", "[city] is the capital of France")
    assert (france.id, france.prompt) == ("q3-c2", "Paris is the capital of [...]")
    assert paris.explanation == france.explanation == "Paris is the capital of France\n\nSince 508."
    hablar, comer = verbs.questions
    assert (hablar.prompt, hablar.explanation) == ("hablar", "to speak")
    assert (comer.prompt, comer.explanation) == ("comer", "to eat")
    said = lines(result)
    assert (
        1,
        "Anki's review history and schedule are not imported: every card starts new in quizbot",
    ) in said
    assert (1, "HTML <b> dropped, its text kept (not named again in later notes)") in said
    assert (2, "sound left out (quizbot sends no audio): hablar.mp3") in said
    assert (
        2,
        "note type “Basic (and reversed card)” also makes reverse cards: quizbot keeps "
        "one flashcard per note, front to back",
    ) in said
    assert (
        4,
        "note type “Vocabulary” is not Basic: its first field is the front, its second "
        "the back, and any other field is left out",
    ) in said
    assert (4, "HTML <i> dropped, its text kept (not named again in later notes)") in said
    assert not any(p.skipped for p in result.problems)


def test_a_collection_anki21_member_is_read() -> None:
    """Anki 2.1 (before 2.1.50) names its collection collection.anki21."""
    result = parse_bytes("anki", legacy_apkg(sample(), "collection.anki21"), "deck")
    assert sum(len(q.questions) for q in result.quizzes) == 5


def test_pictures_that_cannot_come_along_are_named() -> None:
    deck = HandDeck(
        [
            HandNote(BASIC, ['Cat <img src="cat.gif">', 'Dog <img src="dog.png">']),
            HandNote(
                BASIC,
                [
                    'Web <img src="https://example.org/x.png">',
                    'Two <img src="a.png"><img src="b.png">',
                ],
            ),
        ],
        media={"cat.gif": GIF, "a.png": PICTURE, "b.png": png(40, 40)},
    )
    result = parse_bytes("anki", legacy_apkg(deck), "deck")
    cat, web = result.quizzes[0].questions
    assert cat.image is None and cat.explanation_image is None
    assert web.image is None and web.explanation_image is not None
    assert web.explanation_image.data == PICTURE
    assert lines(result) == [
        (1, "picture cat.gif is not a PNG or JPEG: left out"),
        (1, "picture dog.png is not in the package: left out"),
        (
            2,
            "picture https://example.org/x.png is not in the package (quizbot fetches "
            "nothing): left out",
        ),
        (2, "one picture per side: b.png left out"),
    ]


def test_empty_sides_and_clozes_without_deletions_are_left_out_by_note() -> None:
    deck = HandDeck(
        [
            HandNote(BASIC, ["<br>", "back"]),
            HandNote(BASIC, ["front", " "]),
            HandNote(CLOZE, ["no deletion here", ""]),
            HandNote(BASIC, ["ok", "fine"]),
        ]
    )
    result = parse_bytes("anki", legacy_apkg(deck), "deck")
    assert [q.prompt for q in result.quizzes[0].questions] == ["ok"]
    assert [(p.line, p.skipped) for p in result.problems] == [(1, True), (2, True), (3, True)]
    assert "a cloze note without a deletion ({{c1::...}}): left out" in lines(result)[2][1]


def test_an_unreadable_media_list_leaves_the_pictures_out_not_the_notes() -> None:
    deck = HandDeck([HandNote(BASIC, ['A <img src="sum.png">', "B"])], media={"sum.png": PICTURE})
    source = zipfile.ZipFile(io.BytesIO(latest_apkg(deck)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info in source.infolist():
            body = b"\x28\xb5\x2f\xfd broken" if info.filename == "media" else source.read(info)
            archive.writestr(info.filename, body)
    result = parse_bytes("anki", out.getvalue(), "deck")
    (question,) = result.quizzes[0].questions
    assert question.prompt == "A" and question.image is None
    assert (1, "the package's media list could not be read: its pictures are left out") in lines(
        result
    )


def test_quizbot_guids_give_back_the_question_ids() -> None:
    deck = HandDeck(
        [
            HandNote(BASIC, ["a", "b"], guid="quizbot:sums:en:why-sum"),
            HandNote(BASIC, ["c", "d"], guid="Xy7#p{k]q"),
        ]
    )
    result = parse_bytes("anki", legacy_apkg(deck), "deck")
    assert [q.id for q in result.quizzes[0].questions] == ["why-sum", "q2"]


def test_the_flashcard_limit_counts_clozes() -> None:
    deck = HandDeck(
        [HandNote(CLOZE, ["{{c1::a}} {{c2::b}} {{c3::c}}", ""]), HandNote(BASIC, ["x", "y"])]
    )
    result = parse_bytes("anki", legacy_apkg(deck), "deck", limits=Limits(max_questions=2))
    assert [q.id for q in result.quizzes[0].questions] == ["q1-c1", "q1-c2"]
    assert [(p.line, p.skipped) for p in result.problems] == [(1, True)]
    assert "at most 2 flashcards are read" in lines(result)[0][1]


def test_the_shipped_example_deck_imports() -> None:
    """examples/quiz.apkg (written by our export from examples/quiz.gift, as its own deck so the
    upload test can put every example in one group) is what README offers."""
    root = Path(__file__).resolve().parents[2]
    result = parse_bytes("anki", (root / "examples" / "quiz.apkg").read_bytes(), "quiz")
    assert result.problems == []
    (quiz,) = result.quizzes
    assert quiz.title == "Arithmetic and geography cards"
    assert [q.prompt for q in quiz.questions] == [
        "How much is 2 + 2?",
        "Which city is the capital of Senegal?",
    ]
    assert quiz.questions[0].explanation == "Four\n\nTwo and two make four."
