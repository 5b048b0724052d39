"""One message per question in private (issue 14): the answered question is edited in place to
carry the verdict, the marked options, the explanation, the guide and Next; the result is a
message of its own; an explanation too long to share the question's message follows on its own."""

from __future__ import annotations

from pathlib import Path

from bot.content import load_catalog
from tests.e2e.harness import (
    answer_as,
    answer_current,
    answered,
    right_letters,
    typed_for,
    wrong_letter,
)
from tests.e2e.one_message_kit import lengthen
from tests.reliability.support import bot_at, buttons, content_copy, start_quiz

QUIZ = "gradient-accumulation"


async def test_each_question_is_one_message_and_the_result_another(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        user = h.emu.user(7101, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ)
        first = question.message_id
        for index in range(len(quiz)):
            mark = user.private.mark()
            wrong = index == 0
            q = quiz.questions[index]
            if q.typed:  # a number question: its prompt is deleted once the reply is in
                shown = await answer_current(user, question, typed=typed_for(q))
                assert q.prompt.get("en") in shown.text and "Right! The answer is" in shown.text
                assert buttons(shown)[0] == (
                    "🏁 See my score" if index == len(quiz) - 1 else "Next ▶️"
                )
                mark = user.private.mark()
                await user.tap(shown, buttons(shown)[0])
                question = await user.private.next_message(after=mark)
                continue
            right = right_letters(question, q)
            popup = await answer_as(user, question, q, right=not wrong)
            assert popup is not None and (popup.text or "").startswith("❌" if wrong else "✅")
            shown = await answered(user.private, question, mark)
            # Everything in the question's own message, and no message posted for it.
            assert user.private.mark().next_message_id == mark.next_message_id
            assert q.prompt.get("en").replace("`", "") in shown.text
            assert all(f"✅ {letter}." in shown.text or f"⚠️ {letter}." in shown.text
                       for letter in right)  # fmt: skip
            if wrong:
                assert f"❌ {wrong_letter(question, q)}." in shown.text
                assert "Not quite" in shown.text
            assert q.explanation.get("en").split("`")[0][:30] in shown.text
            assert f'href="{quiz.guide.url.get("en")}"' in shown.html
            last = index == len(quiz) - 1
            assert buttons(shown) == ["🏁 See my score" if last else "Next ▶️", "⚠️ Report"]
            mark = user.private.mark()
            await user.tap(shown, buttons(shown)[0])
            question = await user.private.next_message(after=mark)
        assert "🏁" in question.text and f"{len(quiz) - 1}/{len(quiz)}" in question.text
        # Questions and the result, nothing else: one message per question, then the result.
        ours = [m for m in user.private.bot_messages if m.message_id >= first and not m.deleted]
        assert len(ours) == len(quiz) + 1


async def test_an_explanation_too_long_to_join_its_question_follows_it(tmp_path: Path) -> None:
    catalog = load_catalog(content_copy(tmp_path / "content", questions=2, edit=lengthen))
    async with bot_at(tmp_path, catalog=catalog) as h:
        user = h.emu.user(7102, "Awa", language_code="en")
        question = await start_quiz(user, QUIZ, total=2)
        mark = user.private.mark()
        await user.tap(question, "A")
        explanation = await user.private.next_message(after=mark)
        assert explanation.text.rstrip().count("A long why.") == 300  # in full, not cut
        assert buttons(explanation) == ["Next ▶️", "⚠️ Report"]
        marked = user.private.message(question.message_id)
        assert marked.edited and not marked.buttons and "✅" in marked.text
        assert len(marked.text) <= 4096 and len(explanation.text) <= 4096
        # The short second question joins its explanation again.
        mark = user.private.mark()
        await user.tap(explanation, "Next ▶️")
        second = await user.private.next_message(after=mark)
        mark = user.private.mark()
        await user.tap(second, "B")
        shown = await user.private.wait_for(
            lambda m: m.message_id == second.message_id and bool(m.buttons), after=mark
        )
        assert buttons(shown) == ["🏁 See my score", "⚠️ Report"]
        assert user.private.mark().next_message_id == mark.next_message_id
