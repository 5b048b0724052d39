"""What the learner sees in a private chat: message texts (HTML, everything escaped) and keyboards.

Functions here take core values and a Translator and return a `Screen`; they never call Telegram,
so every screen can be tested and checked against Telegram's limits on its own.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.bidi import isolate
from bot.core.engine import Attempt, Judgement, Score
from bot.core.kinds import QuestionKind
from bot.core.limits import MESSAGE_MAX_CHARS, POPUP_MAX_CHARS
from bot.core.markup import fenced, plain, split_code
from bot.core.models import (
    SOURCE_LANGUAGE,
    Catalog,
    GuidePath,
    Image,
    Level,
    MediaFile,
    Question,
    Quiz,
)
from bot.i18n import SUPPORTED_LANGUAGES, UNREVIEWED_UI, Translator, translator
from bot.number_words import key_text
from bot.tg import callbacks as cb
from bot.tg import toggle_render as toggle_keys
from bot.tg.long_lists import bounded
from bot.tg.menus import PRIVATE
from bot.tg.quiz_links import QuizLinks
from bot.tg.wire.captions import fits_caption

LETTERS = "ABCDEFGHIJ"
MAX_LIST_BUTTONS = 100  # Telegram's most buttons in one inline keyboard
RICH_KEPT = 8192  # content texts kept rendered (`rich`); the least recently shown go first


@dataclass(frozen=True, slots=True)
class Screen:
    text: str
    keyboard: InlineKeyboardMarkup | None = None
    # A picture sent with the text (tg/wire/photos.py), and its alt text in the screen's language.
    photo: MediaFile | None = None
    alt: str = ""


def shown_name(name: str | None) -> str:
    """A person's name or a group's title inside our text: bidi-isolated (bot/core/bidi.py: an
    unclosed right-to-left override reversed the rest of a leaderboard line), then escaped;
    "?" for none."""
    return html.escape(isolate(name or "?"))


def with_image(screen: Screen, image: Image | None, lang: str) -> Screen:
    """The screen carrying the content picture (if any) in `lang`."""
    if image is None:
        return screen
    return replace(screen, photo=image.file(lang), alt=image.alt.get(lang))


@lru_cache(maxsize=RICH_KEPT)
def rich(text: str) -> str:
    """Content text as Telegram HTML: escaped, `code` spans as <code>, fenced blocks as
    <pre><code class="language-python"> (Telegram shows the language on the block).

    Kept per text (a pure function of it): a tap shows the same prompt, options and
    explanation again (issue 32); an edited text is another key."""
    return "".join(_rich_piece(is_code, piece) for is_code, piece in split_code(text))


def _rich_piece(is_code: bool, piece: str) -> str:
    if not is_code:
        return html.escape(piece)
    block = fenced(piece)
    if block is None:
        return f"<code>{html.escape(piece)}</code>"
    lang, code = block
    tag = f'<code class="language-{lang}">' if lang else "<code>"
    return f"<pre>{tag}{html.escape(code)}</code></pre>"


def truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def popup(text: str) -> str:
    """A callback popup: plain text (no HTML there), within Telegram's 200 characters."""
    return truncate(plain(text), POPUP_MAX_CHARS)


def guide_link(guide: GuidePath, lang: str) -> str:
    """The guide's title as a link; says "(in English)" when there is no page in `lang`."""
    url = html.escape(guide.url.get(lang), quote=True)
    link = f'<a href="{url}">{html.escape(guide.title.get(lang))}</a>'
    if lang == SOURCE_LANGUAGE or guide.url.has(lang):
        return link
    note = translator(lang)._("(in English)")
    return f"{link} {html.escape(note)}"


def guide_line(tr: Translator, guide: GuidePath | None, lang: str) -> str:
    """ "📖 Guide: <link>", or "" for a quiz that links to no guide (a group's upload)."""
    if guide is None:
        return ""
    return tr._("📖 Guide: {link}", link=guide_link(guide, lang))


def guide_lines(tr: Translator, guide: GuidePath | None, lang: str) -> list[str]:
    """A blank line and the guide's, or nothing for a quiz without a guide."""
    line = guide_line(tr, guide, lang)
    return ["", line] if line else []


def revealed(tr: Translator, quiz: Quiz, question: Question, lang: str, lines: list[str]) -> Screen:
    """A group reveal: `lines` (the question and how the group answered), then why and the
    guide. Past Telegram's limit the explanation goes, never a cut inside a tag."""
    lines = [
        *lines,
        "",
        f"<i>{rich(question.explanation.get(lang))}</i>",
        *guide_lines(tr, quiz.guide, lang),
    ]
    text = "\n".join(lines)
    if len(text) > MESSAGE_MAX_CHARS:
        text = "\n".join(line for line in lines if not line.startswith("<i>"))
    return Screen(text[:MESSAGE_MAX_CHARS])


def level_name(tr: Translator, level: Level) -> str:
    names = {
        Level.BEGINNER: tr._("beginner"),
        Level.INTERMEDIATE: tr._("intermediate"),
        Level.ADVANCED: tr._("advanced"),
    }
    return names[level]


def button(text: str, data: cb.Callback) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=cb.encode(data))


def language_picker(tr: Translator, preselected: str | None) -> Screen:
    """Each language named in itself, always in the same order (a learner finds theirs where it
    was last time); the current one, or Telegram's on first contact, is ticked."""
    order = SUPPORTED_LANGUAGES
    rows = [
        [button(("✓ " if code == preselected else "") + tr.language_name(code), cb.Lang(code))]
        for code in order
    ]
    # The prompt is shown in every supported language (from each one's catalogue): the learner
    # has not chosen one yet.
    text = "🌍 " + " · ".join(translator(code)._("Choose your language") for code in order)
    return Screen(text, InlineKeyboardMarkup(rows))


def welcome(tr: Translator, first_name: str) -> str:
    text = tr._(
        "👋 Welcome, {name}! Pick a quiz below: one question at a time, with the answer "
        "explained after each one.",
        name=shown_name(first_name),
    )
    if tr.lang not in UNREVIEWED_UI:
        return text
    notice = tr._(
        "This interface has not yet been reviewed by a native speaker of your language; "
        "some wording may read oddly."
    )
    return f"{text}\n\n<i>{html.escape(notice)}</i>"


@dataclass(frozen=True, slots=True)
class ListMarks:
    """Where the learner stands on each quiz: best score of the finished ones, the running one."""

    best: Mapping[str, tuple[int, int]]  # quiz id -> (best correct, questions)
    running: str | None = None


def _status(tr: Translator, quiz: Quiz, marks: ListMarks) -> tuple[str, str]:
    """The status words after a quiz in the list, and the emoji before its button."""
    if quiz.id == marks.running:
        return tr._("⏳ in progress"), "⏳ "
    if quiz.id in marks.best:
        best, total = marks.best[quiz.id]
        done = tr._("✅ best {best}/{total}", best=tr.number(best), total=tr.number(total))
        return done, "✅ "
    return tr._("🆕 new"), ""


def quiz_list(
    tr: Translator, catalog: Catalog, lang: str, intro: str = "", marks: ListMarks | None = None
) -> Screen:
    """Quizzes by guide, each marked new, in progress, or done with the best score."""
    lines = [intro, ""] if intro else []
    heading = tr._("📚 Quizzes")
    lines.append(f"<b>{heading}</b>")
    rows = []
    items = []  # one per quiz, the first of a guide under the guide's line
    for guide, quizzes in catalog.by_guide():
        under_guide = ["", f"📖 {guide_link(guide, lang)}"]
        for quiz in quizzes:
            count = tr.ngettext("{n} question", "{n} questions", len(quiz))
            title = quiz.title.get(lang)
            line = f"• {html.escape(title)} · {level_name(tr, quiz.level)} · {count}"
            prefix = ""
            if marks is not None:
                status, prefix = _status(tr, quiz, marks)
                line = f"{line} · {status}"
            items.append("\n".join([*under_guide, line]))
            under_guide = []
            rows.append([button(prefix + title, cb.ShowQuiz(quiz.id))])
    if not rows:
        lines.append(tr._("No quizzes are available yet."))
    text = bounded(lines, items, lambda n: "\n" + more_quizzes(tr, n))
    keyboard = InlineKeyboardMarkup(rows[:MAX_LIST_BUTTONS]) if rows else None
    return Screen(text, keyboard)


def more_quizzes(tr: Translator, n: int) -> str:
    return tr.ngettext("…and {n} more quiz", "…and {n} more quizzes", n)


def quiz_card(tr: Translator, quiz: Quiz, lang: str, links: QuizLinks | None = None) -> Screen:
    """A quiz's intro; with `links`, also the buttons that pass it on (a group, 📤 Share)."""
    count = tr.ngettext("{n} question", "{n} questions", len(quiz))
    text = "\n".join(
        [
            f"<b>{html.escape(quiz.title.get(lang))}</b>",
            f"{level_name(tr, quiz.level)} · {count}",
            "",
            rich(quiz.description.get(lang)),
            *guide_lines(tr, quiz.guide, lang),
            *unreviewed_notice(tr, quiz, lang),
        ]
    )
    rows = [[button(tr._("▶️ Start"), cb.StartQuiz(quiz.id))]]
    if links is not None:
        rows.append([links.play_in_group(tr, quiz.id), *links.share(tr, quiz.id)])
    rows.append([button(tr._("⬅️ All quizzes"), cb.BackToList())])
    return Screen(text, InlineKeyboardMarkup(rows))


def unreviewed_notice(tr: Translator, quiz: Quiz, lang: str) -> list[str]:
    """In a quiz's intro, when its translation in `lang` awaits a native speaker's review (the
    content's `reviewed: false`): say so, and ask for reports."""
    if lang not in quiz.unreviewed:
        return []
    notice = tr._(
        "This translation has not yet been reviewed by a native speaker; use ⚠️ Report if "
        "something reads wrong."
    )
    return ["", f"<i>{html.escape(notice)}</i>"]


def option_lines(
    question: Question, order: Sequence[int], lang: str, marks: dict[int, str]
) -> list[str]:
    return [
        f"{marks.get(pos, '')}<b>{LETTERS[pos]}.</b> "
        f"{rich(question.options[option].text.get(lang))}"
        for pos, option in enumerate(order)
    ]


def question_header(tr: Translator, quiz: Quiz, index: int, lang: str) -> str:
    """The counter and title; on the first question, the unreviewed-translation line (a deep
    link or a group run reaches it without the quiz card's notice)."""
    counter = tr._("Question {k}/{n}", k=tr.number(index + 1), n=tr.number(len(quiz)))
    line = f"<b>{counter}</b> · {html.escape(quiz.title.get(lang))}"
    return line + unreviewed_line(tr, quiz, lang) if index == 0 else line


def unreviewed_line(tr: Translator, quiz: Quiz, lang: str) -> str:
    """A line under a question's header when its translation in `lang` awaits a native
    speaker's review ("" otherwise): every route to a question says so, not only the card."""
    if lang not in quiz.unreviewed:
        return ""
    notice = tr._("⚠️ This translation has not yet been reviewed by a native speaker.")
    return f"\n<i>{html.escape(notice)}</i>"


def question(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    index: int,
    lang: str,
    selected: frozenset[int] = frozenset(),
) -> Screen:
    """A question with its options lettered in full, and one short button per letter; a
    select-all question has toggles (`selected`: the option indexes ticked) and Submit."""
    q = quiz.questions[index]
    order = attempt.orders[index]
    lines = [
        question_header(tr, quiz, index, lang),
        "",
        rich(q.prompt.get(lang)),
        "",
        *option_lines(q, order, lang, {}),
    ]
    if q.kind is QuestionKind.MULTIPLE:
        ticked = [pos for pos, option in enumerate(order) if option in selected]
        markup = toggle_keys.keyboard(tr, attempt.id, index, len(order), ticked)
        text = "\n".join([*lines, "", toggle_keys.hint(tr)])
        return Screen(truncate(text, MESSAGE_MAX_CHARS), markup)
    text = "\n".join(lines)
    buttons = [button(LETTERS[pos], cb.Answer(attempt.id, index, pos)) for pos in range(len(order))]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    screen = Screen(truncate(text, MESSAGE_MAX_CHARS), InlineKeyboardMarkup(rows))
    return with_image(screen, q.image, lang)


def answered_question(
    tr: Translator, quiz: Quiz, attempt: Attempt, judgement: Judgement, lang: str
) -> Screen:
    """The question as it reads once answered: right option ticked, a wrong choice crossed out."""
    q = quiz.questions[judgement.question_index]
    order = attempt.orders[judgement.question_index]
    marks = {judgement.correct_position: "✅ "}
    if not judgement.is_correct:
        marks[judgement.position] = "❌ "
    text = "\n".join(
        [
            question_header(tr, quiz, judgement.question_index, lang),
            "",
            rich(q.prompt.get(lang)),
            "",
            *option_lines(q, order, lang, marks),
        ]
    )
    return Screen(truncate(text, MESSAGE_MAX_CHARS))


def verdict_popup(tr: Translator, judgement: Judgement) -> str:
    if judgement.is_correct:
        return tr._("✅ Right!")
    return tr._("❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position])


def explanation(
    tr: Translator, quiz: Quiz, attempt: Attempt, judgement: Judgement, lang: str
) -> Screen:
    """Why the right answer is right, a link to the guide, and the way on."""
    if judgement.is_correct:
        head = tr._("✅ Right!")
    else:
        head = tr._(
            "❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position]
        )
    return explained(tr, quiz, attempt.id, judgement.question_index, head, lang)


def explained(
    tr: Translator, quiz: Quiz, attempt_id: int, index: int, head: str, lang: str
) -> Screen:
    """The verdict line `head`, the explanation, the guide and Next: after any kind of answer."""
    q = quiz.questions[index]
    text = "\n".join(
        [
            f"<b>{head}</b>",
            "",
            rich(q.explanation.get(lang)),
            *guide_lines(tr, quiz.guide, lang),
        ]
    )
    keyboard = answered_keyboard(tr, quiz, attempt_id, index)
    return Screen(truncate(text, MESSAGE_MAX_CHARS), keyboard)


def answered_keyboard(
    tr: Translator, quiz: Quiz, attempt_id: int, index: int
) -> InlineKeyboardMarkup:
    """The buttons under an answered question, whatever its kind: the way on, then a small
    "⚠️ Report" (bot/tg/report_handlers.py). Every answered screen builds them here, and the
    report flow puts them back here after its reasons."""
    following = index + 1
    label = tr._("Next ▶️") if following < len(quiz) else tr._("🏁 See my score")
    return InlineKeyboardMarkup(
        [
            [button(label, cb.Next(attempt_id, following))],
            [button(tr._("⚠️ Report"), cb.ReportOpen(attempt_id, index))],
        ]
    )


def joined(asked: Screen, why: Screen, *, caption: bool = False) -> tuple[Screen, Screen | None]:
    """One message for the answered question and its explanation when it fits (see `answered`;
    `caption`: the question is a captioned photo, which holds 1024 characters)."""
    # The HTML source's length: at least what Telegram counts once the tags are parsed (a cut
    # question is already at the limit, so it never joins its explanation).
    combined = f"{asked.text}\n\n{why.text}"
    if fits_caption(combined) if caption else len(combined) <= MESSAGE_MAX_CHARS:
        return Screen(combined, why.keyboard), None
    return asked, why


def answered(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    judgement: Judgement,
    lang: str,
    *,
    caption: bool = False,
) -> tuple[Screen, Screen | None]:
    """The question message once answered, and a second message only when one cannot hold it all.

    One message per question: the tapped question is edited to show the marked options, the
    verdict, the explanation, the guide and the way on (one Bot API call fewer per question than
    an edit plus a new message). Telegram refuses a text over 4096 characters, and cutting an
    explanation short would hide the why, so a long question and explanation keep two messages:
    the marked question, then the explanation with the Next button.

    `caption`: the question is a captioned photo, whose caption holds 1024 characters. An
    explanation with a picture of its own always follows as a message of its own (a photo)."""
    asked = answered_question(tr, quiz, attempt, judgement, lang)
    why = explanation(tr, quiz, attempt, judgement, lang)
    pictured = quiz.questions[judgement.question_index].explanation_image
    if pictured is not None:
        return asked, with_image(why, pictured, lang)
    return joined(asked, why, caption=caption)


def result(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    final: Score,
    lang: str,
    links: QuizLinks | None = None,
) -> Screen:
    heading = tr._("🏁 Quiz finished: {title}", title=html.escape(quiz.title.get(lang)))
    lines = [f"<b>{heading}</b>", ""]
    if final.total:  # flashcards are not scored: a quiz of flashcards only has no score
        lines.append(
            tr._(
                "Score: {correct}/{total} ({percent})",
                correct=tr.number(final.correct),
                total=tr.number(final.total),
                percent=tr.percent(final.ratio),
            )
        )
    if final.flashcards:
        lines.append(
            tr.ngettext(
                "🃏 {n} flashcard reviewed (not scored).",
                "🃏 {n} flashcards reviewed (not scored).",
                final.flashcards,
            )
        )
    missed = []
    if final.missed:
        lines += [
            "",
            tr.ngettext("You missed {n} question:", "You missed {n} questions:", len(final.missed)),
        ]
        for index in final.missed:
            prompt = plain(quiz.questions[index].prompt.get(lang))
            missed.append(f"• {tr.number(index + 1)}. {html.escape(truncate(prompt, 120))}")
    elif final.total:
        lines += ["", tr._("🎉 A perfect score!")]
    guide = guide_lines(tr, quiz.guide, lang)
    rows = [[button(tr._("🔁 Retake"), cb.StartQuiz(quiz.id))]]
    if final.missed:
        rows.append([button(tr._("🔎 Review my mistakes"), cb.Review(attempt.id))])
    if links is not None and links.share(tr, quiz.id):
        rows.append(links.share(tr, quiz.id))
    rows.append([button(tr._("📚 Other quizzes"), cb.QuizList())])
    text = bounded(lines, missed, lambda n: more_questions(tr, n), guide)
    return Screen(text, InlineKeyboardMarkup(rows))


def review(
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    missed: Sequence[int],
    lang: str,
    typed: Mapping[int, str] | None = None,
) -> Screen:
    """Every missed question with the learner's answer, the right one and why (`typed`: what
    was typed for number questions, by question index)."""
    heading = tr._("🔎 Your mistakes in {title}", title=html.escape(quiz.title.get(lang)))
    blocks = []
    for index in missed:
        q = quiz.questions[index]
        chosen = attempt.answers[index]
        lines = ["", f"<b>{tr.number(index + 1)}.</b> {rich(q.prompt.get(lang))}"]
        if q.typed:
            if typed and index in typed:
                lines.append(tr._("Your answer: {answer}", answer=html.escape(typed[index])))
            right = html.escape(key_text(tr, q, lang))
            lines.append(tr._("Right answer: {answer}", answer=right))
        else:
            order = attempt.orders[index]
            picked = attempt.selected_indexes(q, index)  # a select-all question's set
            if picked is not None:
                mine = _lettered(q, order, picked, lang)
                lines.append(tr._("Your answer: {answer}", answer=mine))
            elif chosen is not None:
                mine = _lettered(q, order, {chosen}, lang)
                lines.append(tr._("Your answer: {answer}", answer=mine))
            right = _lettered(q, order, q.key, lang)
            lines.append(tr._("Right answer: {answer}", answer=right))
        lines.append(f"<i>{rich(q.explanation.get(lang))}</i>")
        blocks.append(lines)
    head, tail = (
        [f"<b>{heading}</b>"],
        guide_lines(tr, quiz.guide, lang),
    )
    text = "\n".join([*head, *(line for block in blocks for line in block), *tail])
    if len(text) > MESSAGE_MAX_CHARS:
        # Never cut through an HTML tag: the list without explanations, as much as fits.
        text = bounded(
            head,
            ["\n".join(line for line in block if not line.startswith("<i>")) for block in blocks],
            lambda n: "\n" + more_questions(tr, n),
            tail,
        )
    rows = [
        [button(tr._("🔁 Retake"), cb.StartQuiz(quiz.id))],
        [button(tr._("📚 Other quizzes"), cb.QuizList())],
    ]
    return Screen(text, InlineKeyboardMarkup(rows))


def more_questions(tr: Translator, n: int) -> str:
    """Under a list cut short (bot/tg/long_lists.py): how many questions are left out."""
    return tr.ngettext("…and {n} more question", "…and {n} more questions", n)


def _lettered(question: Question, order: Sequence[int], options: Collection[int], lang: str) -> str:
    """Options with the letters they had on the learner's screen, in that order, joined: one
    option, or a select-all set ("B. … · D. …")."""
    return " · ".join(
        f"{LETTERS[pos]}. {rich(question.options[option].text.get(lang))}"
        for pos, option in enumerate(order)
        if option in options
    )


def resume_offer(tr: Translator, quiz: Quiz, attempt: Attempt, lang: str) -> Screen:
    text = tr._(
        "You have a quiz in progress: <b>{title}</b>, question {k} of {n}.",
        title=html.escape(quiz.title.get(lang)),
        k=tr.number(attempt.current + 1),
        n=tr.number(len(quiz)),
    )
    keyboard = InlineKeyboardMarkup(
        [
            [button(tr._("▶️ Continue"), cb.Continue(attempt.id))],
            [button(tr._("✖️ Abandon it"), cb.Abandon(attempt.id))],
        ]
    )
    return Screen(text, keyboard)


def start_choice(
    tr: Translator, running: Quiz, attempt: Attempt, wanted: Quiz, lang: str
) -> Screen:
    """Starting a quiz while one is in progress: continue it, or start (over) the one asked."""
    text = tr._(
        "You have a quiz in progress: <b>{title}</b>, question {k} of {n}.",
        title=html.escape(running.title.get(lang)),
        k=tr.number(attempt.current + 1),
        n=tr.number(len(running)),
    )
    if running.id == wanted.id:
        fresh = tr._("🔄 Start over")
    else:
        fresh = tr._("🆕 Start {title}", title=wanted.title.get(lang))
    keyboard = InlineKeyboardMarkup(
        [
            [button(tr._("▶️ Continue"), cb.Continue(attempt.id))],
            [button(fresh, cb.StartOver(wanted.id))],
        ]
    )
    return Screen(text, keyboard)


def in_exam(tr: Translator) -> str:
    """A private quiz started or tapped during an exam (also a popup: under 200 characters)."""
    return tr._(
        "⏱ You are in an exam: your quizzes wait until it ends, so that none gives its answers "
        "away. /stop ends the exam."
    )


def waiting_quiz(tr: Translator, quiz: Quiz, lang: str) -> str:
    """After a language change mid-quiz: where the quiz went."""
    return tr._(
        "Your quiz {title} is waiting: /start to continue it.",
        title=html.escape(quiz.title.get(lang)),
    )


def help_text(tr: Translator) -> str:
    """The private help, listing the same commands (and descriptions) as the command menu."""
    heading = tr._("How quizbot works")
    lines = [
        f"<b>{heading}</b>",
        tr._(
            "Pick a quiz, answer each question with the buttons (or, when it asks for a "
            "number, by typing it), read the explanation, then go on. Your answers are saved "
            "as you go."
        ),
        "",
    ]
    for command in PRIVATE:
        description = tr._(command.description)
        lines.append(
            html.escape(
                tr._("/{command}: {description}", command=command.name, description=description),
                quote=False,
            )
        )
    return "\n".join(lines)


def unknown_zone(tr: Translator, name: str, suggestion: str | None) -> str:
    """An unknown time zone, with the closest real one when there is one."""
    if suggestion is not None:
        return tr._(
            "Unknown time zone: {zone}. Did you mean {suggestion}?",
            zone=html.escape(name),
            suggestion=html.escape(suggestion),
        )
    return tr._(
        "Unknown time zone: {zone}. Use Area/City, for example /timezone Africa/Dakar.",
        zone=html.escape(name),
    )


def after_stop(tr: Translator, text: str, quiz_waiting: bool) -> str:
    """A /stop reply for a round or an exam: a quiz still running is left alone, and the learner
    learns how to end it too (they may have meant it)."""
    if not quiz_waiting:
        return text
    quiz = tr._("Your quiz is still running: /start to go on with it, /stop again to abandon it.")
    return f"{text}\n\n{quiz}"
