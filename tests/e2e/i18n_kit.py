"""Every private screen in every language, for end-to-end tests: the walk through the private flow
and what English text may stay. Shared by the i18n and pseudo-locale tests. So no test imports
another."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.emulator import EmuMessage, SimUser
from bot.i18n import SUPPORTED_LANGUAGES, translator
from bot.i18n_tools import TEMPLATE, catalogue_path, read_catalogue
from tests.e2e.harness import (
    Harness,
    answer_current,
    answer_select_all,
    answered,
    is_select_all,
    reply_prompt,
)

TRANSLATED = [lang for lang in SUPPORTED_LANGUAGES if lang != "en"]


# The picker asks in every language on purpose: the learner may not read the current one.
MULTILINGUAL = {"Choose your language"}
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def english_patterns(lang: str) -> dict[str, re.Pattern[str]]:
    """A pattern per English msgid (placeholders as wildcards) that `lang` translates differently.

    Msgids a language keeps as they are ("Question {k}/{n}" in French) or with fewer than four
    letters of their own (emoji, "{correct}/{total}", "on") cannot tell English from it.
    """
    translated = {m.id: m.string for m in read_catalogue(catalogue_path(lang)) if m.id}
    patterns = {}
    for message in read_catalogue(TEMPLATE):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = translated[message.id]
        strings = [strings] if isinstance(strings, str) else list(strings)
        for english in ids:
            letters = sum(ch.isalpha() for ch in PLACEHOLDER.sub("", english))
            if english in strings or english in MULTILINGUAL or letters < 4:
                continue
            parts = [re.escape(p) for p in PLACEHOLDER.split(english)]
            body = ".+?".join(parts)
            start = r"(?<!\w)" if english[0].isalnum() else ""
            end = r"(?!\w)" if english[-1].isalnum() else ""
            patterns[english] = re.compile(start + body + end)
    return patterns


@dataclass
class Seen:
    """Everything the learner was shown: texts (every version), buttons and popups."""

    texts: list[str] = field(default_factory=list)

    def message(self, m: EmuMessage) -> None:
        for version in (*m.history, m):
            self.texts.append(version.html or version.text)
            self.texts += [b.text for row in version.buttons for b in row]

    def popup(self, text: str | None) -> None:
        if text:
            self.texts.append(text)


async def walk_private_flow(h: Harness, user: SimUser, lang: str, seen: Seen) -> None:
    """language picker → list → card → questions, popups, explanations → result → review → /help
    → resume offer → /stop twice → /language → unknown text → an expired button."""
    chat = user.private
    quiz = h.catalog.quiz("gradient-accumulation")
    assert quiz is not None
    await user.send("/start")
    picker = await chat.wait_for(lambda m: bool(m.buttons))
    name = translator(lang).language_name(lang)
    seen.popup((await user.tap(picker, text=f"✓ {name}")).text)
    listing = await chat.wait_for(lambda m: m.edited and quiz.title.get(lang) in m.text)
    await user.tap(listing, text=quiz.title.get(lang))
    card = await chat.wait_for(lambda m: quiz.description.get(lang).replace("`", "") in m.text)
    mark = chat.mark()
    await user.tap(card, text=card.buttons[0][0].text)
    for index in range(len(quiz)):
        question = await chat.next_message(after=mark)
        if quiz.questions[index].typed:  # a number question: a reply that is no number first
            prompt = await chat.wait_for(lambda m: reply_prompt(m), after=mark)
            seen.popup(
                prompt.reply_markup["input_field_placeholder"] if prompt.reply_markup else ""
            )
            hint_mark = chat.mark()
            await user.send("?", reply_to=prompt)
            await chat.next_message(after=hint_mark)  # the hint, in the learner's language
            explanation = await answer_current(user, question, typed="1")
            mark = chat.mark()
            seen.popup((await user.tap(explanation, explanation.buttons[0][0].text)).text)
            continue
        mark = chat.mark()
        tapped = await (
            answer_select_all(user, question)
            if is_select_all(question)
            else user.tap(question, "A")
        )
        seen.popup(tapped.text if tapped else None)
        if index == 0:  # a second tap on the same question
            again = await user.tap(question, callback_data=question.buttons[0][1].callback_data)
            seen.popup(again.text)
        explanation = await answered(chat, question, mark)
        if index == 0:
            await walk_report(user, explanation, seen)
        mark = chat.mark()
        seen.popup((await user.tap(explanation, explanation.buttons[0][0].text)).text)
    result = await chat.next_message(after=mark)
    assert any("%" in t for t in [result.text])
    if result.buttons and len(result.buttons) == 3:  # some mistakes: the review
        mark = chat.mark()
        seen.popup((await user.tap(result, result.buttons[1][0].text)).text)
        await chat.next_message(after=mark)

    for command in ("/help", "/stop", "/language", "hello there"):
        mark = chat.mark()
        await user.send(command)
        await chat.next_message(after=mark)
    # A quiz in progress: /start offers to resume it, /stop abandons it, the offer's buttons
    # then answer that the quiz is over.
    mark = chat.mark()
    await user.send("/start gradient-checkpointing")
    await chat.next_message(after=mark)
    mark = chat.mark()
    await user.send("/start")
    offer = await chat.next_message(after=mark)
    mark = chat.mark()
    await user.send("/stop")
    await chat.next_message(after=mark)
    seen.popup((await user.tap(offer, callback_data=offer.buttons[0][0].callback_data)).text)
    seen.popup((await user.tap(offer, callback_data="zz:nothing")).text)
    for message in chat.bot_messages:
        seen.message(message)


async def walk_report(user: SimUser, answered_message: EmuMessage, seen: Seen) -> None:
    """⚠️ Report on an answered question: the reasons, a reason with a sentence, the same reason
    again, another reason skipped, a forged report; the question's own buttons come back."""
    chat, shown_id = user.private, answered_message.message_id
    report = answered_message.buttons[1][0].text

    def own(count: int) -> Callable[[EmuMessage], bool]:
        return lambda m: m.message_id == shown_id and len(m.buttons) == count

    for reason, sentence in ((0, "A sentence for the authors."), (0, None), (1, None)):
        restored = await chat.wait_for(own(2))
        mark = chat.mark()
        await user.tap(restored, report)
        reasons = await chat.wait_for(own(5), after=mark)
        mark = chat.mark()
        seen.popup((await user.tap(reasons, reasons.buttons[reason][0].text)).text)
        if sentence is not None:  # stored: the invitation, then the sentence and the thanks
            await chat.next_message(after=mark)
            mark = chat.mark()
            await user.send(sentence)
            await chat.next_message(after=mark)
        elif reason == 1:  # a second reason: its invitation, skipped
            invitation = await chat.next_message(after=mark)
            mark = chat.mark()
            await user.tap(invitation, invitation.buttons[0][0].text)
            await chat.wait_for(lambda m, i=invitation.message_id: m.message_id == i, after=mark)
    restored = await chat.wait_for(own(2))
    seen.popup((await user.tap(restored, callback_data="rpr:999999:0:k")).text)  # forged
