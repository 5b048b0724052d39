"""Flashcards (kind: flashcard, issue 30) through the emulator: in a private quiz the front comes
with "Show answer", the back with the four ratings; the learner's rating goes to FSRS as it is
(the card joins the review queue at FSRS's due day for that rating), the rating is stored as an
answer, and the result counts the flashcard as reviewed, not scored. In /review a flashcard is
flipped and rated the same way. A group run leaves flashcards out."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Any

from bot.content import load_catalog
from bot.core.review import first_rating, flashcard_rating
from bot.emulator import Emulator
from tests.e2e.groups_kit import GroupHarness, make_group
from tests.e2e.harness import TOKEN, answered
from tests.e2e.progress_kit import DAY
from tests.reliability.support import bot_at, buttons, content_copy, start_quiz

QUIZ = "gradient-checkpointing"
CARD = "recompute-card"
FRONT = {
    "en": "What does activation checkpointing recompute?",
    "fr": "Que recalcule le checkpointing d’activations ?",
    "wo": "Lan la checkpointing bu activations di waññi?",
}
BACK = {
    "en": "The activations it did not keep, during the backward pass.",
    "fr": "Les activations qu’il n’a pas gardées, pendant la passe arrière.",
    "wo": "Activations yi mu desul, ci backward pass bi.",
}
RATINGS = ["🔁 Again", "😓 Hard", "🙂 Good", "😎 Easy"]


def flashcard_first(path: Path, data: dict[str, Any]) -> None:
    """The quiz starts with a flashcard, then its first single-answer question."""
    if not path.name.startswith(QUIZ) or "questions" not in data:
        return
    lang = path.name.split(".")[1] if path.name.count(".") == 2 else "en"
    card: dict[str, Any] = {"prompt": FRONT[lang], "explanation": BACK[lang]}
    if lang == "en":
        card = {"kind": "flashcard", **card}
    first = next(iter(data["questions"]))
    data["questions"] = {CARD: card, first: data["questions"][first]}


def flashcard_catalog(tmp_path: Path) -> Any:
    return load_catalog(content_copy(tmp_path / "content", edit=flashcard_first))


def _schedule(h: Any) -> list[tuple[Any, ...]]:
    return h.schedule_of(CARD)


async def _flip(user: Any, front: Any) -> Any:
    mark = user.private.mark()
    await user.tap(front, "👀 Show answer")
    return await user.private.wait_for(
        lambda m: m.message_id == front.message_id and "How well" in m.text, after=mark
    )


async def test_a_flashcard_in_a_private_quiz_is_flipped_rated_and_scheduled(
    tmp_path: Path,
) -> None:
    async with bot_at(tmp_path, catalog=flashcard_catalog(tmp_path)) as h:
        user = h.emu.user(7401, "Awa", language_code="en")
        other = h.emu.user(7402, "Bob", language_code="en")
        front = await start_quiz(user, QUIZ, total=2)
        assert "🃏 Flashcard" in front.text and FRONT["en"] in front.text
        assert BACK["en"] not in front.text
        assert buttons(front) == ["👀 Show answer"]

        # Another learner's forged "Show answer" is refused and shows nothing.
        data = front.button("👀 Show answer").callback_data
        forged = await other.tap(front, callback_data=data)
        assert forged is not None and BACK["en"] not in (forged.text or "")

        back = await _flip(user, front)
        assert BACK["en"] in back.text and FRONT["en"] in back.text
        assert buttons(back) == RATINGS
        assert h.answer_count() == [(0,)]  # flipping stores nothing

        mark = user.private.mark()
        popup = await user.tap(back, "🙂 Good")
        assert popup is not None and popup.text == "Rated: 🙂 Good"
        shown = await answered(user.private, back, mark)
        assert "Your rating: 🙂 Good" in shown.text and BACK["en"] in shown.text
        assert "Next review of this card:" in shown.text
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]
        # The rating is an answer (right: not Again) and FSRS's state after Good, logged as 3.
        rows = h.rows("SELECT option_id, is_correct FROM answers WHERE question_id = ?", CARD)
        assert rows == [("rating:good", 1)]
        expected = first_rating(7401, QUIZ, CARD, flashcard_rating(2), h.clock(), UTC)
        assert _schedule(h) == [(expected.stability, expected.due_at)]
        logged = h.rows("SELECT rating FROM review_ratings WHERE question_id = ?", CARD)
        assert logged == [(3,)]
        # A second rating of the same card changes nothing.
        late = await user.tap(back, callback_data=back.button("😎 Easy").callback_data)
        assert late is not None and late.text == "You already answered this question."
        assert _schedule(h) == [(expected.stability, expected.due_at)]

        mark = user.private.mark()
        await user.tap(shown, "Next ▶️")
        second = await user.private.next_message(after=mark)
        assert "2/2" in second.text
        mark = user.private.mark()
        await user.tap(second, "A")
        done = await answered(user.private, second, mark)
        mark = user.private.mark()
        await user.tap(done, "🏁 See my score")
        result = await user.private.next_message(after=mark)
        assert "/1 (" in result.text  # the flashcard is not scored
        assert "🃏 1 flashcard reviewed (not scored)." in result.text


async def test_a_flashcard_rated_again_comes_back_in_review_and_is_rated_there(
    tmp_path: Path,
) -> None:
    async with bot_at(tmp_path, catalog=flashcard_catalog(tmp_path)) as h:
        user = h.emu.user(7403, "Awa", language_code="en")
        front = await start_quiz(user, QUIZ, total=2)
        back = await _flip(user, front)
        mark = user.private.mark()
        await user.tap(back, "🔁 Again")
        await answered(user.private, back, mark)
        assert h.rows("SELECT is_correct FROM answers WHERE question_id = ?", CARD) == [(0,)]

        h.clock.advance(DAY)
        mark = user.private.mark()
        await user.send("/review")
        card = await user.private.next_message(after=mark)
        assert FRONT["en"] in card.text and BACK["en"] not in card.text
        assert buttons(card) == ["👀 Show answer"]
        (before,) = _schedule(h)
        mark = user.private.mark()
        await user.tap(card, "👀 Show answer")
        flipped = await user.private.wait_for(
            lambda m: m.message_id == card.message_id and BACK["en"] in m.text, after=mark
        )
        assert buttons(flipped) == RATINGS
        mark = user.private.mark()
        await user.tap(flipped, "😎 Easy")
        shown = await answered(user.private, flipped, mark)
        assert "Next review of this question" in shown.text
        (after,) = _schedule(h)
        assert after[0] > before[0] and after[1] > before[1]
        logged = h.ratings_of(CARD)
        assert logged == [(1,), (4,)]


async def test_a_group_run_leaves_flashcards_out(tmp_path: Path) -> None:
    catalog = flashcard_catalog(tmp_path)
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(emu, tmp_path / "quizbot.sqlite3", catalog, seconds=1.0)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            intro = await group.wait_for(lambda m: "Group quiz" in m.text, after=mark)
            assert "1 question" in intro.text
            question = await group.wait_for(lambda m: "Question 1/1" in m.text)
            assert FRONT["en"] not in question.text
            await admin.tap(question, "A")
            await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=10)
            assert not any(FRONT["en"] in m.text for m in group.bot_messages)
            assert h.answers_to(CARD) == [(0,)]
        finally:
            await h.stop_bot()


async def test_an_admin_turns_flashcards_on_and_the_group_sees_the_back_unscored(
    tmp_path: Path,
) -> None:
    catalog = flashcard_catalog(tmp_path)
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(emu, tmp_path / "quizbot.sqlite3", catalog, seconds=1.0)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            mark = group.mark()
            await admin.send("/settings", chat=group)
            screen = await group.wait_for(lambda m: "Group settings" in m.text, after=mark)
            assert "Flashcards: off" in screen.text
            await admin.tap(screen, "Flashcards on")
            await group.wait_for(lambda m: "Flashcards: on" in m.text)

            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            intro = await group.wait_for(lambda m: "Group quiz" in m.text, after=mark)
            assert "2 questions" in intro.text
            front = await group.wait_for(lambda m: "Question 1/2" in m.text)
            assert FRONT["en"] in front.text and BACK["en"] not in front.text
            assert buttons(front) == []  # nobody answers a flashcard in a group
            forged = await admin.tap(
                front,
                callback_data=f"g:{h.rows('SELECT max(attempt_id) FROM group_runs')[0][0]}:0:0",
            )
            assert forged is not None and "Question" not in (forged.text or "")
            back = await group.wait_for(lambda m: BACK["en"] in m.text, timeout=10)
            assert FRONT["en"] in back.text
            question = await group.wait_for(lambda m: "Question 2/2" in m.text, timeout=10)
            await admin.tap(question, "A")
            results = await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=10)
            assert "/1 · " in results.text  # scored over the one question, not the flashcard
            assert h.answers_to(CARD) == [(0,)]
        finally:
            await h.stop_bot()


PICTURE = "sqrt-n-checkpoints.png"


def pictured_flashcard_first(*, back_picture: bool) -> Any:
    """`flashcard_first` with the shipped picture on the front (and, with `back_picture`, on the
    back): alt text in every language."""

    def edit(path: Path, data: dict[str, Any]) -> None:
        flashcard_first(path, data)
        if not path.name.startswith(QUIZ) or "questions" not in data:
            return
        lang = path.name.split(".")[1] if path.name.count(".") == 2 else "en"
        card = data["questions"][CARD]
        for field in ("image", "explanation_image")[: 2 if back_picture else 1]:
            image: dict[str, str] = {"alt": f"Checkpoints ({lang}, {field})"}
            if lang == "en":
                image["file"] = PICTURE
            card[field] = image

    return edit


async def test_a_flashcard_with_a_front_picture_is_flipped_and_rated_in_its_caption(
    tmp_path: Path,
) -> None:
    edit = pictured_flashcard_first(back_picture=False)
    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7411, "Awa", language_code="en")
        front = await start_quiz(user, QUIZ, total=2)
        assert front.photo is not None and front.photo_name == PICTURE
        assert FRONT["en"] in front.text and buttons(front) == ["👀 Show answer"]
        back = await _flip(user, front)
        assert back.photo is not None and BACK["en"] in back.text and buttons(back) == RATINGS
        mark = user.private.mark()
        await user.tap(back, "🙂 Good")
        shown = await answered(user.private, back, mark)
        assert shown.photo is not None and "Your rating: 🙂 Good" in shown.text
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]
        assert user.private.mark().next_message_id == mark.next_message_id  # one message
        assert len(h.emu.calls("editMessageCaption")) == 2 and not h.emu.calls("editMessageText")
        assert h.rows("SELECT option_id FROM answers WHERE question_id = ?", CARD) == [
            ("rating:good",)
        ]
        assert not h.emu.stats.errors


async def test_a_flashcard_back_picture_follows_as_a_photo_with_the_ratings(
    tmp_path: Path,
) -> None:
    edit = pictured_flashcard_first(back_picture=True)
    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7412, "Awa", language_code="en")
        front = await start_quiz(user, QUIZ, total=2)
        mark = user.private.mark()
        await user.tap(front, "👀 Show answer")
        back = await user.private.next_message(after=mark)
        assert back.photo is not None and back.photo_name == PICTURE
        assert BACK["en"] in back.text and buttons(back) == RATINGS
        kept = user.private.message(front.message_id)
        assert FRONT["en"] in kept.text and buttons(kept) == []  # the front lost its button
        mark = user.private.mark()
        await user.tap(back, "😎 Easy")
        shown = await answered(user.private, back, mark)
        assert "Your rating: 😎 Easy" in shown.text and BACK["en"] in shown.text
        assert buttons(shown) == ["Next ▶️", "⚠️ Report"]
        assert not h.emu.stats.errors


async def test_a_pictured_flashcard_in_review_shows_its_back_picture_with_the_ratings(
    tmp_path: Path,
) -> None:
    edit = pictured_flashcard_first(back_picture=True)
    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7413, "Awa", language_code="en")
        front = await start_quiz(user, QUIZ, total=2)
        mark = user.private.mark()
        await user.tap(front, "👀 Show answer")
        back = await user.private.next_message(after=mark)
        mark = user.private.mark()
        await user.tap(back, "🔁 Again")
        await answered(user.private, back, mark)

        h.clock.advance(DAY)
        mark = user.private.mark()
        await user.send("/review")
        card = await user.private.next_message(after=mark)
        assert card.photo is not None and FRONT["en"] in card.text
        assert buttons(card) == ["👀 Show answer"]
        mark = user.private.mark()
        await user.tap(card, "👀 Show answer")
        flipped = await user.private.next_message(after=mark)
        assert flipped.photo is not None and BACK["en"] in flipped.text
        assert buttons(flipped) == RATINGS
        assert buttons(user.private.message(card.message_id)) == []
        mark = user.private.mark()
        await user.tap(flipped, "🙂 Good")
        shown = await answered(user.private, flipped, mark)
        assert "Your rating: 🙂 Good" in shown.text and "Next review of this question" in shown.text
        logged = h.ratings_of(CARD)
        assert logged == [(1,), (3,)]
        assert not h.emu.stats.errors


async def test_a_group_run_with_flashcards_on_shows_both_pictures(tmp_path: Path) -> None:
    edit = pictured_flashcard_first(back_picture=True)
    catalog = load_catalog(content_copy(tmp_path / "content", edit=edit))
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = GroupHarness(emu, tmp_path / "quizbot.sqlite3", catalog, seconds=1.0)
        await h.start_bot()
        try:
            group, admin = await make_group(h)
            mark = group.mark()
            await admin.send("/settings", chat=group)
            screen = await group.wait_for(lambda m: "Group settings" in m.text, after=mark)
            await admin.tap(screen, "Flashcards on")
            await group.wait_for(lambda m: "Flashcards: on" in m.text)
            mark = group.mark()
            await admin.send(f"/push {QUIZ}", chat=group)
            front = await group.wait_for(lambda m: m.photo is not None, after=mark)
            assert FRONT["en"] in front.text and buttons(front) == []
            back = await group.wait_for(
                lambda m: m.message_id == front.message_id and BACK["en"] in m.text, timeout=10
            )
            assert back.photo is not None  # the reveal edits the front's caption
            picture = await group.wait_for(
                lambda m: m.photo is not None and m.message_id > front.message_id, timeout=10
            )
            assert picture.photo_name == PICTURE
            question = await group.wait_for(lambda m: "Question 2/2" in m.text, timeout=10)
            await admin.tap(question, "A")
            await group.wait_for(lambda m: "Quiz finished" in m.text, timeout=10)
            assert not h.emu.stats.errors
        finally:
            await h.stop_bot()
