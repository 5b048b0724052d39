"""Content preview for authors and translators: a quiz side by side in every language.

A field a translation lacks is shown as the learner would get it (the English fallback), marked,
so a translator sees at a glance what is missing. The right options and the explanation show only
where `AnswerKeys` allow (the content's owners and a group's admins: all; a learner: the questions
whose verdict they were shown): the preview is open to every learner, including one in an exam or
in a group run. A hidden question's options are in alphabetical order, not the authors' (where
the right option often comes first).
"""

from __future__ import annotations

from bot.core.models import Catalog, Image, Question, Quiz, Text
from bot.i18n import SUPPORTED_LANGUAGES, Translator, translator
from bot.number_words import key_text
from bot.usecases.dashboard import AnswerKeys
from bot.web.html_parts import empty, esc, heading, language_label, para, rich

LETTERS = "ABCDEFGHIJ"


def quiz_list(tr: Translator, catalog: Catalog, nav: str, link: str) -> str:
    """Every quiz by guide, each linking to its preview; `link` is a format with {quiz}."""
    title = tr._("🌍 Quiz preview")
    parts = [heading(title), nav]
    lang = tr.lang
    for guide, quizzes in catalog.by_guide():
        items = "".join(
            f'<li><a href="{esc(link.format(quiz=q.id))}">{esc(q.title.get(lang))}</a> '
            f"<small>{esc(' · '.join(q.languages))}</small></li>"
            for q in quizzes
        )
        parts.append(f"<section><h2>{esc(guide.title.get(lang))}</h2><ul>{items}</ul></section>")
    if not catalog.quizzes:
        parts.append(empty(tr._("No quizzes yet.")))
    return "".join(parts)


def _cell(tr: Translator, text: Text, lang: str) -> str:
    shown = rich(text.get(lang))
    if lang != "en" and not text.has(lang):
        missing = tr._("not translated")
        return f'<span class="missing" title="{esc(missing)}">{shown}</span>'
    return shown


def _picture(tr: Translator, image: Image | None, lang: str) -> str:
    """A picture as authors review it: its alt text in the language, and the file it uses."""
    if image is None:
        return ""
    name = esc(image.file(lang).name)
    return f'<p class="alt">🖼 {_cell(tr, image.alt, lang)} <code>{name}</code></p>'


def _neutral(question: Question) -> list[int]:
    """Option indexes in an order that says nothing about the key: by their English text."""
    return sorted(range(len(question.options)),
                  key=lambda i: (question.options[i].text.get("en").casefold(), i))  # fmt: skip


def _question_cell(tr: Translator, number: int, question: Question, code: str, shown: bool) -> str:
    order = list(range(len(question.options))) if shown else _neutral(question)
    marked = question.key if shown else frozenset()
    options = "".join(
        f'<li class="{"ok" if i in marked else ""}">'
        f"<b>{LETTERS[k]}.</b> {_cell(tr, question.options[i].text, code)}</li>"
        for k, i in enumerate(order)
    )
    if question.typed and shown:  # a number question: its key, with the unit of that language
        answer = f'<p class="ok">✅ {esc(key_text(translator(code), question, code))}</p>'
    elif question.typed:
        answer = ""
    else:
        answer = f'<ol class="options">{options}</ol>'
    why = (
        f'<p class="why">{_cell(tr, question.explanation, code)}</p>'
        f"{_picture(tr, question.explanation_image, code)}"
        if shown
        else ""
    )
    return (
        f'<td data-lang="{esc(language_label(tr, code))}">'
        f"<p><b>{esc(tr.number(number))}.</b> {_cell(tr, question.prompt, code)}</p>"
        f"{_picture(tr, question.image, code)}{answer}{why}</td>"
    )


def render(tr: Translator, quiz: Quiz, nav: str, keys: AnswerKeys) -> str:
    langs = SUPPORTED_LANGUAGES
    names = {code: esc(language_label(tr, code)) for code in langs}  # each cell says it (stacked)
    titles = "".join(
        f'<td data-lang="{names[c]}"><b>{_cell(tr, quiz.title, c)}</b></td>' for c in langs
    )
    descriptions = "".join(
        f'<td data-lang="{names[c]}">{_cell(tr, quiz.description, c)}</td>' for c in langs
    )
    head = "".join(f"<th>{names[code]}</th>" for code in langs)
    rows = [f"<tr>{titles}</tr>", f"<tr>{descriptions}</tr>"]
    for number, question in enumerate(quiz.questions, start=1):
        shown = keys.shown(question.id)
        cells = "".join(_question_cell(tr, number, question, code, shown) for code in langs)
        state = "shown" if shown else "hidden"
        rows.append(f'<tr data-question="{esc(question.id)}" data-answer="{state}">{cells}</tr>')
    title = tr._("🌍 Quiz preview")
    legend = tr._("Marked in yellow: not translated yet, shown in English as learners get it.")
    notes = para(legend)
    if not all(keys.shown(q.id) for q in quiz.questions):
        notes += para(
            tr._(
                "Right answers and explanations show only for the questions you have already "
                "answered, outside an exam."
            )
        )
    return (
        f"{heading(title)}{nav}{notes}"
        f'<div class="scroll"><table class="side" data-table="preview"><thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
