"""A replaced upload's questions matched to the old version's (bot/content/kept_ids.py): ids a
format gives by position follow their questions, a new question never takes an id the quiz
used, ids an author wrote stand, and the stored map rebuilds the same quiz."""

from __future__ import annotations

import pytest

from bot.content.kept_ids import KeptIds, keep_ids, with_ids
from bot.core.models import Level, Option, Question, Quiz, Text


def question(qid: str, prompt: str, *options: str, correct: int = 0) -> Question:
    return Question(
        qid,
        Text.plain(prompt),
        tuple(Option("abcd"[i], Text.plain(o)) for i, o in enumerate(options)),
        correct,
        Text.plain(""),
    )


def quiz(*questions: Question) -> Quiz:
    return Quiz("sums", None, Level.BEGINNER, Text.plain("Sums"), Text.plain(""), questions,
                version="0123456789ab")  # fmt: skip


SIX = ("What is 3 + 3?", "Six", "Seven")
TEN = ("What is 2 × 5?", "Ten", "Twelve")
SKY = ("What colour is a clear sky?", "Blue", "Green")
OLD = quiz(question("q1", *SIX), question("q2", *TEN))


def served(kept: KeptIds) -> list[str]:
    return list(kept.ids.values())


def test_a_question_inserted_at_the_top_leaves_the_others_their_ids() -> None:
    new = quiz(question("q1", *SKY), question("q2", *SIX),
               question("q3", "How much is 2 × 5?", "Ten", "Twelve"))  # fmt: skip
    kept = keep_ids(OLD, new, "aiken", {"q1", "q2"})
    assert dict(kept.ids) == {"q1": "q1-2", "q2": "q1", "q3": "q2"}
    assert (kept.unchanged, kept.changed, kept.added, kept.removed) == (1, ("q2",), ("q1-2",), ())
    rebuilt = with_ids(new, kept.stored())
    assert [q.id for q in rebuilt.questions] == ["q1-2", "q1", "q2"]
    assert rebuilt.questions[2].prompt.get("en") == "How much is 2 × 5?"
    assert rebuilt.version != new.version and len(rebuilt.version) == len(new.version)


def test_a_new_question_never_takes_an_id_the_quiz_used() -> None:
    """q2 was removed by an earlier version; its answers are still stored under q2."""
    new = quiz(question("q1", *SIX), question("q2", *SKY))
    kept = keep_ids(quiz(question("q1", *SIX)), new, "gift", {"q1", "q2"})
    assert served(kept) == ["q1", "q2-2"] and kept.added == ("q2-2",)


def test_a_removed_question_is_named_and_a_changed_key_is_a_change() -> None:
    new = quiz(question("q1", *SIX, correct=1))
    kept = keep_ids(OLD, new, "csv", {"q1", "q2"})
    assert served(kept) == ["q1"]
    assert (kept.unchanged, kept.changed, kept.added, kept.removed) == (0, ("q1",), (), ("q2",))


def test_the_same_file_again_keeps_every_id_and_stores_no_map() -> None:
    kept = keep_ids(OLD, OLD, "aiken", {"q1", "q2"})
    assert served(kept) == ["q1", "q2"] and kept.stored() is None
    assert (kept.unchanged, kept.changed, kept.added, kept.removed) == (2, (), (), ())
    assert with_ids(OLD, kept.stored()) is OLD


@pytest.mark.parametrize("fmt", ["yaml", "gift"])
def test_ids_an_author_wrote_stand(fmt: str) -> None:
    """YAML's ids, and GIFT's ::titles::, are the author's: never matched by their text."""
    old = quiz(question("sum", *SIX), question("week", *TEN))
    new = quiz(question("week", *SKY), question("sum", *SIX))
    kept = keep_ids(old, new, fmt, {"sum", "week"})
    assert served(kept) == ["week", "sum"] and kept.changed == ("week",)


def test_positional_questions_beside_an_authors_ids_match_the_rest() -> None:
    """A GIFT file with one ::title:: and the other questions untitled."""
    old = quiz(question("sum", *SIX), question("q2", *TEN))
    new = quiz(question("q1", *SKY), question("sum", *SIX), question("q3", *TEN))
    kept = keep_ids(old, new, "gift", {"sum", "q2"})
    assert dict(kept.ids) == {"q1": "q1", "sum": "sum", "q3": "q2"}
    assert kept.added == ("q1",)


def test_an_old_version_that_cannot_be_rebuilt_makes_every_question_new() -> None:
    kept = keep_ids(None, quiz(question("q1", *SIX)), "aiken", {"q1", "q2"})
    assert served(kept) == ["q1-2"] and kept.added == ("q1-2",)


@pytest.mark.parametrize("stored", [None, "", "not json", "[1, 2]"])
def test_no_map_or_an_unreadable_one_serves_the_files_ids(stored: str | None) -> None:
    assert with_ids(OLD, stored) is OLD


def options_of(q: Quiz, index: int) -> list[tuple[str, str]]:
    return [(o.id, o.text.get("en")) for o in q.questions[index].options]


def test_options_of_a_kept_question_keep_their_ids_and_a_new_one_gets_an_unused_id() -> None:
    """Options are lettered by position: "Eleven" inserted above "Ten" took a, and a past
    choice of "Twelve" (b) became "Ten". Matched by text, exactly then loosely."""
    new = quiz(question("q1", *SIX), question("q2", "What is 2 × 5?", "Eleven", " ten", "Twelve"))
    kept = keep_ids(OLD, new, "aiken", {"q1", "q2"}, {"q2": {"a", "b", "c"}})
    assert dict(kept.options) == {"q2": {"a": "d", "b": "a", "c": "b"}}
    assert kept.changed == ("q2",) and not kept.added
    rebuilt = with_ids(new, kept.stored())
    assert options_of(rebuilt, 1) == [("d", "Eleven"), ("a", " ten"), ("b", "Twelve")]
    assert options_of(rebuilt, 0) == options_of(new, 0)
    assert rebuilt.questions[1].correct == new.questions[1].correct  # the key is by position


def test_a_removed_option_frees_no_id_and_unmoved_options_store_nothing() -> None:
    old = quiz(question("q1", "What is 3 + 3?", "Six", "Seven", "Eight"))
    dropped = quiz(question("q1", *SIX))  # "Eight" (c) removed: a and b stay where they were
    assert keep_ids(old, dropped, "gift", {"q1"}).stored() is None
    back = quiz(question("q1", "What is 3 + 3?", "Six", "Seven", "Nine"))
    kept = keep_ids(dropped, back, "gift", {"q1"}, {"q1": {"a", "c"}})  # c: answered once
    assert dict(kept.options) == {"q1": {"a": "a", "b": "b", "c": "d"}}


def test_yaml_option_ids_are_the_authors() -> None:
    new = quiz(question("q1", "What is 3 + 3?", "Five", "Six", "Seven"))
    assert keep_ids(quiz(question("q1", *SIX)), new, "yaml", {"q1"}).stored() is None


def test_a_map_stored_before_options_were_matched_still_reads() -> None:
    rebuilt = with_ids(OLD, '{"q1":"q3","q2":"q1"}')
    assert [q.id for q in rebuilt.questions] == ["q3", "q1"]
    assert options_of(rebuilt, 0) == options_of(OLD, 0)
