"""What a learner sees of a `number` question: the question, the reply prompt, the verdict.

Telegram edits only messages without a reply markup or with an inline keyboard: a message sent
with ForceReply can never be edited ("message can't be edited"). So a number question is two
messages: the question itself (no markup, edited in place once answered, as every kind is) and
a short prompt carrying the ForceReply, which opens the reply field with a localized example
("0,5" in French) and is deleted once the answer is in.
"""

from __future__ import annotations

import html

from telegram import InlineKeyboardMarkup

from bot.core.kinds import NumberAnswer
from bot.core.models import Question, Quiz
from bot.i18n import Translator
from bot.number_words import key_text
from bot.tg.question_render import explained, joined, question_header
from bot.tg.screen_render import Screen, revealed, rich, shown_name
from bot.tg.wire.html_fit import fit_html

PLACEHOLDER_MAX_CHARS = 64  # Telegram's limit for input_field_placeholder


def example(tr: Translator, key: NumberAnswer) -> str:
    """A number in the learner's notation, never the answer: "0,5" in French, "0.5" in English."""
    del key  # the example is the same for every question: it must not hint at the answer
    return tr.decimal(0.5)


def question(tr: Translator, quiz: Quiz, index: int, lang: str) -> Screen:
    """The question (no markup: it is edited in place once answered)."""
    q = quiz.questions[index]
    unit = q.unit.get(lang)
    if unit:
        how = tr._("✍️ Reply with a number (in {unit}).", unit=html.escape(unit))
    else:
        how = tr._("✍️ Reply with a number.")
    header, body = question_header(tr, quiz, index, lang), rich(q.prompt.get(lang))
    text = "\n".join([header, "", body, "", how])
    return Screen(fit_html(text))


def prompt(tr: Translator, question: Question) -> tuple[str, str]:
    """The ForceReply prompt's text and its input field placeholder (at most 64 characters)."""
    assert question.number is not None
    placeholder = tr._("Your answer, e.g. {example}", example=example(tr, question.number))
    text = tr._("✍️ Your answer? Type the number and send it.")
    return text, placeholder[:PLACEHOLDER_MAX_CHARS]


def unreadable(tr: Translator, question: Question, lang: str, ambiguous: str = "") -> str:
    """A reply that is no number: what we read and how to write one; the question stays open.
    `ambiguous`: the reply was "1,000", which reads as a thousand or as a decimal."""
    sample = example(tr, question.number) if question.number is not None else tr.decimal(0.5)
    if ambiguous:
        return tr._(
            "“{typed}” can be read two ways: a whole number with a thousands separator, or a "
            "decimal. Type whole numbers without a separator ({whole}) and decimals like "
            "{decimal}. The question is still open; /stop ends the quiz.",
            typed=html.escape(ambiguous),
            whole=_whole(ambiguous),
            decimal=tr.decimal(0.5),
        )
    unit = question.unit.get(lang)
    if unit:
        return tr._(
            "I could not read a number there. Type only the number, for example {example} "
            "(or {example} {unit}). The question is still open; /stop ends the quiz.",
            example=sample,
            unit=html.escape(unit),
        )
    return tr._(
        "I could not read a number there. Type only the number, for example {example}. "
        "The question is still open; /stop ends the quiz.",
        example=sample,
    )


def answered(
    tr: Translator,
    quiz: Quiz,
    attempt_id: int,
    index: int,
    typed: str,
    right: bool,
    lang: str,
) -> tuple[Screen, Screen | None]:
    """The question edited once answered: what was typed, the verdict, the right value and
    tolerance or range, the explanation, the guide and Next (a second message only when one
    cannot hold it all, as for every kind)."""
    q = quiz.questions[index]
    mark = "✅" if right else "❌"
    mine = tr._("Your answer: {answer}", answer=html.escape(typed))
    asked = "\n".join(
        [question_header(tr, quiz, index, lang), "", rich(q.prompt.get(lang)), "", f"{mark} {mine}"]
    )
    key = html.escape(key_text(tr, q, lang))
    head = (
        tr._("✅ Right! The answer is {answer}.", answer=key)
        if right
        else tr._("❌ Not quite: the answer is {answer}.", answer=key)
    )
    why = explained(tr, quiz, attempt_id, index, head, lang)
    return joined(Screen(fit_html(asked)), why)


# -- groups -----------------------------------------------------------------------------------


def group_question(tr: Translator, quiz: Quiz, index: int, lang: str) -> Screen:
    """A number question in a group run: no buttons (and no ForceReply, which would freeze the
    message: its live count and reveal are edits); members reply to it with the number."""
    q = quiz.questions[index]
    unit = q.unit.get(lang)
    if unit:
        how = tr._(
            "✍️ Reply to this message with a number (in {unit}). Only your first reply counts.",
            unit=html.escape(unit),
        )
    else:
        how = tr._("✍️ Reply to this message with a number. Only your first reply counts.")
    header, body = question_header(tr, quiz, index, lang), rich(q.prompt.get(lang))
    return Screen(fit_html("\n".join([header, "", body, "", how])))


def group_reveal(
    tr: Translator, quiz: Quiz, index: int, right: int, wrong: int, lang: str
) -> Screen:
    """A number question once time is up: the right value, how many answered and were right,
    why, the guide."""
    q = quiz.questions[index]
    key = html.escape(key_text(tr, q, lang))
    total = right + wrong
    lines = [
        question_header(tr, quiz, index, lang),
        "",
        rich(q.prompt.get(lang)),
        "",
        "✅ " + tr._("Answer: {answer}", answer=key),
        "",
        tr.ngettext("{n} answer", "{n} answers", total)
        + " · "
        + tr.ngettext("{n} right", "{n} right", right),
    ]
    return revealed(tr, quiz, q, lang, lines)


def reply_to_answer(tr: Translator, name: str) -> str:
    """Said once to a member who typed a number without replying to the open question."""
    return tr._(
        "{name}, to answer, reply to the question's message with your number (swipe it, or "
        "tap it and choose Reply).",
        name=shown_name(name),
    )


def _whole(typed: str) -> str:
    """ "1,000" as the whole number it may mean, without its separators: "1000"."""
    return "".join(ch for ch in typed if ch.isdigit() or ch in "-−")


def group_unreadable(tr: Translator, name: str, question: Question, ambiguous: str = "") -> str:
    """Said once per member and question in a group: their reply was no number (or an
    `ambiguous` one, "1,000")."""
    if ambiguous:
        return tr._(
            "{name}, “{typed}” can be read two ways: reply with {whole} for the whole number "
            "(decimals are written like {decimal}).",
            name=shown_name(name),
            typed=html.escape(ambiguous),
            whole=_whole(ambiguous),
            decimal=tr.decimal(0.5),
        )
    return tr._(
        "{name}, I could not read a number there: reply with only the number, e.g. {example}.",
        name=shown_name(name),
        example=example(tr, question.number) if question.number else tr.decimal(0.5),
    )


# -- review and practice rounds ---------------------------------------------------------------


def round_question(tr: Translator, header: str, question: Question, lang: str) -> Screen:
    """A number question as a round's card (`header`: the round's "k of n" line)."""
    unit = question.unit.get(lang)
    if unit:
        how = tr._("✍️ Reply with a number (in {unit}).", unit=html.escape(unit))
    else:
        how = tr._("✍️ Reply with a number.")
    text = "\n".join([header, "", rich(question.prompt.get(lang)), "", how])
    return Screen(fit_html(text))


def round_answered(
    tr: Translator,
    header: str,
    question: Question,
    guide: str,
    typed: str,
    right: bool,
    where: str,
    next_button: InlineKeyboardMarkup,
    lang: str,
) -> tuple[Screen, Screen | None]:
    """A round's number card once answered: what was typed, the verdict with the right value,
    the explanation, the guide, where the question goes next, and the way on."""
    mark = "✅" if right else "❌"
    mine = tr._("Your answer: {answer}", answer=html.escape(typed))
    asked = "\n".join([header, "", rich(question.prompt.get(lang)), "", f"{mark} {mine}"])
    key = html.escape(key_text(tr, question, lang))
    head = (
        tr._("✅ Right! The answer is {answer}.", answer=key)
        if right
        else tr._("❌ Not quite: the answer is {answer}.", answer=key)
    )
    why = "\n".join(
        [
            f"<b>{head}</b>",
            "",
            rich(question.explanation.get(lang)),
            *([""] if guide else []),
            *([guide] if guide else []),
            "",
            where,
        ]
    )
    return joined(Screen(fit_html(asked)), Screen(why, next_button))
