"""Content preview for authors and translators: a quiz side by side in every language.

A field a translation lacks is shown as the learner would get it (the English fallback), marked,
so a translator sees at a glance what is missing. The right option is marked too: learners see it
after every answer anyway, so the preview gives nothing away.
"""

from __future__ import annotations

from bot.core.models import Catalog, Image, Quiz, Text
from bot.i18n import SUPPORTED_LANGUAGES, Translator, translator
from bot.number_words import key_text
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


def render(tr: Translator, quiz: Quiz, nav: str) -> str:
    langs = SUPPORTED_LANGUAGES
    head = "".join(f"<th>{esc(language_label(tr, code))}</th>" for code in langs)
    titles = "".join(f"<td><b>{_cell(tr, quiz.title, c)}</b></td>" for c in langs)
    descriptions = "".join(f"<td>{_cell(tr, quiz.description, c)}</td>" for c in langs)
    rows = [f"<tr>{titles}</tr>", f"<tr>{descriptions}</tr>"]
    for number, question in enumerate(quiz.questions, start=1):
        cells = []
        for code in langs:
            options = "".join(
                f'<li class="{"ok" if i == question.correct else ""}">'
                f"<b>{LETTERS[i]}.</b> {_cell(tr, option.text, code)}</li>"
                for i, option in enumerate(question.options)
            )
            if question.typed:  # a number question: its key, with the unit of that language
                key = key_text(translator(code), question, code)
                answer = f'<p class="ok">✅ {esc(key)}</p>'
            else:
                answer = f'<ol class="options">{options}</ol>'
            cells.append(
                f"<td><p><b>{esc(tr.number(number))}.</b> {_cell(tr, question.prompt, code)}</p>"
                f"{_picture(tr, question.image, code)}"
                f"{answer}"
                f'<p class="why">{_cell(tr, question.explanation, code)}</p>'
                f"{_picture(tr, question.explanation_image, code)}</td>"
            )
        rows.append(f'<tr data-question="{esc(question.id)}">' + "".join(cells) + "</tr>")
    title = tr._("🌍 Quiz preview")
    legend = tr._("Marked in yellow: not translated yet, shown in English as learners get it.")
    return (
        f"{heading(title)}{nav}{para(legend)}"
        f'<div class="scroll"><table class="side" data-table="preview"><thead><tr>{head}</tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
