"""Number questions in private (issue 17): the question, then a ForceReply prompt with a
localized example; the learner's reply is read with their decimal separator, bound to their own
open question; a reply that is no number leaves the question open; a reply to an old question
counts for nothing; once answered the question is edited in place (verdict, key, Next)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.content import load_catalog
from bot.core.models import Catalog
from tests.e2e.harness import answer_current, answered, reply_prompt
from tests.e2e.number_kit import PROMPTS, QUIZ, WHY, with_number
from tests.reliability.support import bot_at, buttons, content_copy, start_quiz


def number_catalog(tmp_path: Path) -> Catalog:
    return load_catalog(content_copy(tmp_path / "content", questions=2, edit=with_number))


async def _to_number_question(user: Any, lang: str = "en") -> Any:
    question = await start_quiz(user, QUIZ, total=3)
    for _ in range(2):
        done = await answer_current(user, question)
        mark = user.private.mark()
        await user.tap(done, buttons(done)[0])
        question = await user.private.next_message(after=mark)
    prompt = await user.private.wait_for(reply_prompt)
    return question, prompt


async def test_a_number_question_is_answered_by_a_reply_in_english(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7301, "Awa", language_code="en")
        question, prompt = await _to_number_question(user)
        assert "3/3" in question.text and PROMPTS["en"] in question.text
        assert "Reply with a number (in GB)" in question.text and not question.buttons
        assert prompt.reply_markup == {
            "force_reply": True,
            "input_field_placeholder": "Your answer, e.g. 0.5",
        }
        mark = user.private.mark()
        await user.send("0.52 GB", reply_to=prompt)
        shown = await answered(user.private, question, mark)
        assert "✅ Your answer: 0.52 GB" in shown.text
        assert "Right! The answer is 0.5 ± 0.05 GB." in shown.text
        assert WHY["en"] in shown.text and buttons(shown) == ["🏁 See my score", "⚠️ Report"]
        assert user.private.message(prompt.message_id).deleted  # it only prompted
        mark = user.private.mark()
        await user.tap(shown, "🏁 See my score")
        result = await user.private.next_message(after=mark)
        assert "/3" in result.text
        rows = h.rows(
            "SELECT typed_text, typed_value, is_correct FROM answers WHERE question_id = ?",
            "memory-number",
        )
        assert rows == [("0.52 GB", 0.52, 1)]


async def test_french_reads_a_decimal_comma_and_shows_one(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7302, "Awa", language_code="fr")
        question, prompt = await _to_number_question(user, "fr")
        assert "Répondez par un nombre (en Go)" in question.text
        assert prompt.reply_markup is not None
        assert prompt.reply_markup["input_field_placeholder"] == "Votre réponse, par ex. 0,5"
        mark = user.private.mark()
        await user.send("0,4", reply_to=prompt)  # outside 0,5 ± 0,05
        shown = await answered(user.private, question, mark)
        assert "❌ Votre réponse\u00a0: 0,4" in shown.text
        assert "la réponse est 0,5 ± 0,05 Go" in shown.text.replace("\u00a0", " ")
        # The mistakes screen shows what was typed and the right value.
        mark = user.private.mark()
        await user.tap(shown, buttons(shown)[0])
        result = await user.private.next_message(after=mark)
        mark = user.private.mark()
        await user.tap(result, next(b for b in buttons(result) if "erreurs" in b))
        mistakes = (await user.private.next_message(after=mark)).text.replace("\u00a0", " ")
        assert "Votre réponse : 0,4" in mistakes
        assert "Bonne réponse : 0,5 ± 0,05 Go" in mistakes


async def test_a_reply_that_is_no_number_leaves_the_question_open(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7303, "Awa", language_code="fr")
        question, prompt = await _to_number_question(user, "fr")
        mark = user.private.mark()
        await user.send("à peu près la moitié", reply_to=prompt)
        hint = await user.private.next_message(after=mark)
        assert "pas pu lire de nombre" in hint.text and "0,5" in hint.text
        assert not user.private.message(question.message_id).edited  # still open
        mark = user.private.mark()
        await user.send("0,5 GB")  # no reply needed; the English unit is read too
        shown = await answered(user.private, question, mark)
        assert "✅ Votre réponse\u00a0: 0,5 GB" in shown.text
        rows = h.typed_texts("memory-number")
        assert rows == [("0,5 GB",)]


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("en", "1,000", "“1,000” can be read two ways"),
        ("fr", "1.000", "«\u202f1.000\u202f» peut se lire de deux façons"),
    ],
)
async def test_a_thousands_separator_gets_its_own_message(
    tmp_path: Path, lang: str, typed: str, said: str
) -> None:
    """Issue 28 #26: "1,000" was told "I could not read a number there", as "sixty" is; the
    README says it is refused as ambiguous. It has its own message, and the question stays
    open for the number typed plainly."""
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7310, "Awa", language_code=lang)
        question, prompt = await _to_number_question(user, lang)
        mark = user.private.mark()
        await user.send(typed, reply_to=prompt)
        hint = await user.private.next_message(after=mark)
        assert said in hint.text and "1000" in hint.text, hint.text
        assert not user.private.message(question.message_id).edited  # still open
        assert h.rows("SELECT count(*) FROM answers WHERE question_id = ?", "memory-number") == [
            (0,)
        ]


async def test_a_reply_to_an_old_question_counts_for_nothing(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7304, "Awa", language_code="en")
        question, prompt = await _to_number_question(user)
        first = next(m for m in user.private.bot_messages if "1/3" in m.text)
        mark = user.private.mark()
        await user.send("0.5", reply_to=first)
        closed = await user.private.next_message(after=mark)
        assert "That question is closed" in closed.text
        assert not user.private.message(question.message_id).edited
        assert h.rows("SELECT 1 FROM answers WHERE question_id = ?", "memory-number") == []
        # The open question still takes its answer.
        mark = user.private.mark()
        await user.send("0.5", reply_to=prompt)
        shown = await answered(user.private, question, mark)
        assert "✅" in shown.text
        # And a reply to it once answered is closed too.
        mark = user.private.mark()
        await user.send("0.7", reply_to=question)
        again = await user.private.next_message(after=mark)
        assert "That question is closed" in again.text
        rows = h.typed_texts("memory-number")
        assert rows == [("0.5",)]


async def test_stop_during_a_number_question_ends_the_quiz(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7305, "Awa", language_code="en")
        question, _ = await _to_number_question(user)
        mark = user.private.mark()
        await user.send("/stop")
        stopped = await user.private.next_message(after=mark)
        assert "Quiz abandoned" in stopped.text
        mark = user.private.mark()
        await user.send("0.5")
        hint = await user.private.next_message(after=mark)
        assert "I only understand commands and buttons" in hint.text
        assert not user.private.message(question.message_id).edited


async def test_a_missed_number_question_is_reviewed_by_a_typed_reply(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7306, "Awa", language_code="fr")
        question, prompt = await _to_number_question(user, "fr")
        mark = user.private.mark()
        await user.send("2", reply_to=prompt)  # wrong: the question joins the review queue
        await answered(user.private, question, mark)
        h.clock.advance(3 * 86_400)
        mark = user.private.mark()
        await user.send("/review")
        card = await user.private.next_message(after=mark)
        while "micro-lots de 0,25 Go" not in card.text:  # tap cards missed before it
            done = await answer_current(user, card)
            mark = user.private.mark()
            await user.tap(done, buttons(done)[0])
            card = await user.private.next_message(after=mark)
        assert "Révision" in card.text and not card.buttons
        assert "Répondez par un nombre (en Go)" in card.text
        card_prompt = await user.private.wait_for(
            lambda m: reply_prompt(m) and m.message_id > card.message_id
        )
        mark = user.private.mark()
        await user.send("beaucoup", reply_to=card_prompt)
        hint = await user.private.next_message(after=mark)
        assert "pas pu lire de nombre" in hint.text
        mark = user.private.mark()
        await user.send("0,5", reply_to=card_prompt)
        shown = await answered(user.private, card, mark)
        assert "✅ Votre réponse\u00a0: 0,5" in shown.text
        assert "La réponse est 0,5 ± 0,05 Go" in shown.text.replace("\u00a0", " ")
        assert user.private.message(card_prompt.message_id).deleted
        logged = h.review_verdicts("memory-number")
        assert logged == [(1,)]


async def test_a_number_question_practised_now_leaves_the_schedule_alone(tmp_path: Path) -> None:
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7307, "Awa", language_code="en")
        question, prompt = await _to_number_question(user)
        mark = user.private.mark()
        await user.send("9", reply_to=prompt)  # wrong: the question joins the review queue
        await answered(user.private, question, mark)
        mark = user.private.mark()
        await user.send("/review")  # nothing due yet: the offer to practise now
        offer = await user.private.next_message(after=mark)
        schedule = h.schedule_of("memory-number")
        assert schedule
        mark = user.private.mark()
        await user.tap(offer, "🎯 Practise my mistakes now")
        card = await user.private.next_message(after=mark)
        while "Micro-batches of 0.25 GB" not in card.text:  # tap cards missed before it
            done = await answer_current(user, card)
            mark = user.private.mark()
            await user.tap(done, buttons(done)[0])
            card = await user.private.next_message(after=mark)
        assert "Practice" in card.text and not card.buttons
        shown = await answer_current(user, card, typed="0.5")
        assert "✅ Your answer: 0.5" in shown.text and "schedule stays as it was" in shown.text
        after = h.schedule_of("memory-number")
        assert after == schedule


async def test_a_review_number_card_takes_its_reply_after_a_restart(tmp_path: Path) -> None:
    """The open card is read from the store when memory has none (a restart, another worker)."""
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7308, "Awa", language_code="en")
        question, prompt = await _to_number_question(user)
        mark = user.private.mark()
        await user.send("9", reply_to=prompt)  # wrong: the question joins the review queue
        await answered(user.private, question, mark)
        h.clock.advance(3 * 86_400)
        mark = user.private.mark()
        await user.send("/review")
        card = await user.private.next_message(after=mark)
        while "Micro-batches of 0.25 GB" not in card.text:  # tap cards missed before it
            done = await answer_current(user, card)
            mark = user.private.mark()
            await user.tap(done, buttons(done)[0])
            card = await user.private.next_message(after=mark)
        card_prompt = await user.private.wait_for(
            lambda m: reply_prompt(m) and m.message_id > card.message_id
        )
        await h.restart_bot()
        mark = user.private.mark()
        await user.send("0.5", reply_to=card_prompt)
        shown = await answered(user.private, card, mark)
        assert "✅ Your answer: 0.5" in shown.text
        assert user.private.message(card_prompt.message_id).deleted  # its id was in the store
        logged = h.review_verdicts("memory-number")
        assert logged == [(1,)]


async def test_a_quiz_number_question_after_a_restart_takes_its_reply_and_deletes_its_prompt(
    tmp_path: Path,
) -> None:
    """The prompt's message id is in the store (attempts.typed_prompt_id), so the reply handled
    after a restart (or by another worker) still deletes the prompt (docs/caches.md)."""
    async with bot_at(tmp_path, catalog=number_catalog(tmp_path)) as h:
        user = h.emu.user(7309, "Awa", language_code="en")
        question, prompt = await _to_number_question(user)
        await h.restart_bot()
        mark = user.private.mark()
        await user.send("0.5", reply_to=prompt)
        shown = await answered(user.private, question, mark)
        assert "✅ Your answer: 0.5" in shown.text
        assert user.private.message(prompt.message_id).deleted
