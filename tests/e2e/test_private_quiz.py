"""A learner takes whole quizzes in a private chat, through the emulator, over real HTTP."""

from __future__ import annotations

import pytest

from bot.core.kinds import QuestionKind
from tests.e2e.harness import Harness, answer_as, answer_current, answered, typed_for

LETTERS = "ABCD"


def rows(h: Harness, sql: str, *args: object) -> list[tuple]:
    return h.rows(sql, *args)


@pytest.mark.both_transports
@pytest.mark.parametrize("lang", ["en", "fr", "wo"])
async def test_a_whole_quiz_in_each_language(harness: Harness, lang: str) -> None:
    quiz = harness.catalog.quiz("gradient-accumulation")
    assert quiz is not None
    user = harness.emu.user(2001, "Awa <&>", language_code=lang)
    chat = user.private
    await user.send("/start")
    picker = await chat.wait_for(lambda m: bool(m.buttons))
    names = {"en": "English", "fr": "Français", "wo": "Wolof"}
    await user.tap(picker, text=f"✓ {names[lang]}")
    listing = await chat.wait_for(lambda m: quiz.title.get(lang) in m.text and m.edited)
    await user.tap(listing, text=quiz.title.get(lang))
    card = await chat.wait_for(lambda m: quiz.description.get(lang).replace("`", "") in m.text)
    assert quiz.guide.url.get(lang) in card.html
    mark = chat.mark()
    await user.tap(card, text=card.buttons[0][0].text)

    expected_correct = 0
    for index in range(len(quiz)):
        question = await chat.next_message(after=mark)
        assert f"{index + 1}/{len(quiz)}" in question.text
        assert quiz.questions[index].prompt.get(lang).replace("`", "") in question.text
        if quiz.questions[index].typed:  # a number question: typed (right) as a reply
            explanation = await answer_current(
                user, question, typed=typed_for(quiz.questions[index])
            )
            expected_correct += 1
            assert quiz.questions[index].explanation.get(lang)[:20] in explanation.text
            stored = harness.verdicts_at(index)
            assert stored == [(1,)]
            mark = chat.mark()
            await user.tap(explanation, explanation.buttons[0][0].text)
            continue
        if quiz.questions[index].kind is QuestionKind.TRUE_FALSE:  # never shuffled
            labels = [o.text.get(lang) for o in quiz.questions[index].options]
            assert f"A. {labels[0]}\nB. {labels[1]}" in question.text, question.text
            assert len(question.buttons[0]) == 2
        good = bool(index % 3)  # miss questions 0, 3, 6, 9 (9: the select-all one)
        expected_correct += good
        mark = chat.mark()
        answer = await answer_as(user, question, quiz.questions[index], right=good, lang=lang)
        assert answer is not None and answer.text is not None
        assert answer.text.startswith("✅" if good else "❌")
        # The answer is in the DB by the time the popup is shown.
        stored = harness.verdicts_at(index)
        assert stored == [(int(good),)]
        # One message per question: the question itself becomes the explanation, with Next.
        explanation = await answered(chat, question, mark)
        assert quiz.questions[index].explanation.get(lang).split("`")[0][:30] in explanation.text
        assert quiz.questions[index].prompt.get(lang).replace("`", "") in explanation.text
        # The right answer is marked: ✅ where picked; a select-all's right options left out ⭕.
        multiple = quiz.questions[index].kind is QuestionKind.MULTIPLE
        assert ("⭕" if multiple and not good else "✅") in explanation.text
        assert f'href="{quiz.guide.url.get(lang)}"' in explanation.html
        assert chat.mark().next_message_id == mark.next_message_id  # no second message
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)

    result = await chat.next_message(after=mark)
    assert f"{expected_correct}/{len(quiz)}" in result.text
    total = len(quiz)
    assert harness.answer_tally() == [(total, expected_correct)]
    assert harness.attempt_statuses() == [("finished",)]
    assert rows(harness, "SELECT language FROM users") == [(lang,)]
