"""What a study group sees while a quiz runs: the intro, each question (live count and time
left), the reveal, a member's popup, and the results.

Messages posted in the group use the group's language; popups use the tapping member's. Every
content string is escaped (member names too) and every message is kept under Telegram's limits.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from babel.lists import format_list
from telegram import InlineKeyboardMarkup

from bot.core.engine import Judgement, Standing
from bot.core.group_run import GroupRun, fit_popup
from bot.core.kinds import QuestionKind
from bot.core.markup import plain
from bot.core.models import Quiz
from bot.i18n import Translator
from bot.tg import callbacks as cb
from bot.tg import number_render
from bot.tg import toggle_render as toggle_keys
from bot.tg.group_schedule_render import link_to_topic
from bot.tg.question_render import question_header
from bot.tg.screen_render import (
    LETTERS,
    Screen,
    button,
    guide_line,
    guide_lines,
    level_name,
    member_name,
    quiz_title,
    revealed,
    rich,
    with_image,
)
from bot.tg.wire.html_fit import fit_html

BAR_WIDTH = 8


def intro(tr: Translator, quiz: Quiz, run: GroupRun, lang: str) -> Screen:
    count = tr.ngettext("{n} question", "{n} questions", len(quiz))
    seconds = tr.ngettext(
        "{n} second per question", "{n} seconds per question", max(1, round(run.seconds))
    )
    title = tr._("🎯 Group quiz: {title}", title=html.escape(quiz_title(quiz, lang)))
    lines = [f"<b>{title}</b>", f"{level_name(tr, quiz.level)} · {count} · {seconds}"]
    lines += [line for line in [guide_line(tr, quiz.guide, lang)] if line]
    return Screen("\n".join(lines))


def _options(quiz: Quiz, run: GroupRun, index: int, lang: str) -> list[tuple[int, str]]:
    q = quiz.questions[index]
    return [(pos, rich(q.options[opt].text.get(lang))) for pos, opt in enumerate(run.orders[index])]


def question(tr: Translator, quiz: Quiz, run: GroupRun, index: int, lang: str) -> Screen:
    """Header, prompt, options lettered in full, one button per letter carrying the run id
    (a number question: the prompt and how to reply, no buttons)."""
    if quiz.questions[index].typed:
        return number_render.group_question(tr, quiz, index, lang)
    if quiz.questions[index].flashcard:  # the front, no buttons: nobody answers or scores it
        label, hint = tr._("🃏 Flashcard"), flashcard_hint(tr)
        front = rich(quiz.questions[index].prompt.get(lang))
        lines = [question_header(tr, quiz, index, lang), f"<i>{html.escape(label)}</i>", ""]
        text = "\n".join([*lines, front, "", f"<i>{html.escape(hint)}</i>"])
        return with_image(Screen(fit_html(text)), quiz.questions[index].image, lang)
    prompt = rich(quiz.questions[index].prompt.get(lang))
    lines = [question_header(tr, quiz, index, lang), "", prompt, ""]
    lines += [f"<b>{LETTERS[pos]}.</b> {text}" for pos, text in _options(quiz, run, index, lang)]
    if quiz.questions[index].kind is QuestionKind.MULTIPLE:
        # Every member sees the same ☐ buttons: selections are told to each tapper alone.
        keys = toggle_keys.keyboard(tr, run.id, index, len(run.orders[index]), group=True)
        text = "\n".join([*lines, "", toggle_keys.hint(tr)])
        return Screen(fit_html(text), keys)
    buttons = [
        button(LETTERS[pos], cb.GroupAnswer(run.id, index, pos))
        for pos in range(len(run.orders[index]))
    ]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    screen = Screen(fit_html("\n".join(lines)), InlineKeyboardMarkup(rows))
    return with_image(screen, quiz.questions[index].image, lang)


def live_question(screen: Screen, tr: Translator, answered: int, seconds_left: int) -> Screen:
    """The open question with how many answered and the time left (the keyboard kept); shown
    when it is sent and refreshed at the steps of bot/core/live_feedback.py, never per tap."""
    count = tr.ngettext("👥 {n} answer so far", "👥 {n} answers so far", answered)
    left = tr._("⏳ {time} left", time=tr.seconds(seconds_left))
    text = fit_html(f"{screen.text}\n\n{count} · {left}")
    return replace(screen, text=text)


def reveal(
    tr: Translator,
    quiz: Quiz,
    run: GroupRun,
    index: int,
    counts: Sequence[int],
    lang: str,
    answers: int | None = None,
) -> Screen:
    """The question once time is up: right options marked, how many chose each, why, the guide
    (a number question: the right value, how many answered and how many were right).
    `answers`: how many members answered, when it is not the sum of `counts` (a select-all
    answer counts once per option it selected)."""
    q = quiz.questions[index]
    if q.typed:
        right, wrong = [*counts, 0, 0][:2]
        return number_render.group_reveal(tr, quiz, index, right, wrong, lang)
    if q.flashcard:  # the front again, then its back (`revealed` adds it, and the guide)
        label = tr._("🃏 Flashcard")
        head = [question_header(tr, quiz, index, lang), f"<i>{html.escape(label)}</i>", ""]
        return revealed(tr, quiz, q, lang, [*head, rich(q.prompt.get(lang)), "", "———"])
    order = list(run.orders[index])
    rights = {order.index(option) for option in q.key}
    most = max(counts, default=0) or 1
    lines = [question_header(tr, quiz, index, lang), "", rich(q.prompt.get(lang)), ""]
    for pos, text in _options(quiz, run, index, lang):
        mark = "✅" if pos in rights else "▫️"
        filled = round(BAR_WIDTH * counts[pos] / most)
        bar = "▓" * filled + "░" * (BAR_WIDTH - filled)
        lines.append(f"{mark} <b>{LETTERS[pos]}.</b> {text}")
        lines.append(f"     {bar} {tr.number(counts[pos])}")
    total = sum(counts) if answers is None else answers
    lines += [
        "",
        tr.ngettext("{n} answer", "{n} answers", total),
    ]
    return revealed(tr, quiz, q, lang, lines)


def recorded(tr: Translator, judgement: Judgement) -> str:
    """A member's popup when the group keeps verdicts for the reveal: only the letter they chose,
    so nobody can read the right answer off a neighbour's screen before time is up."""
    return tr._(
        "🗳 Your answer {letter} is recorded. Whether it is right comes with the reveal.",
        letter=LETTERS[judgement.position],
    )


def popup(tr: Translator, quiz: Quiz, judgement: Judgement, lang: str) -> str:
    """A member's verdict with as much of the explanation as a 200-character popup holds."""
    if judgement.is_correct:
        head = tr._("✅ Right!")
    else:
        head = tr._(
            "❌ Not quite: the answer is {letter}.", letter=LETTERS[judgement.correct_position]
        )
    body = plain(quiz.questions[judgement.question_index].explanation.get(lang))
    return fit_popup(plain(head), body)


def results(
    tr: Translator,
    quiz: Quiz,
    top: Sequence[Standing],
    players: int,
    lang: str,
    *,
    stopped: bool,
    asked: int | None = None,
    points: Callable[[int], str | None] = lambda _user_id: None,
) -> Screen:
    """Top ten: most correct answers, ties broken by total answer time, as every standing
    ranks (`points`: a player's points in this run, a second figure in speed scoring).

    Scores count the questions actually asked (a run stopped after two of four reads "2/2" at
    best, not "2/4"); a medal needs at least one right answer.
    """
    shown = len(quiz) if asked is None else max(0, min(asked, len(quiz)))
    # Flashcards are shown, never scored: scores are over the other questions.
    total = sum(1 for q in quiz.questions[:shown] if not q.flashcard)
    scored = sum(1 for q in quiz.questions if not q.flashcard)
    if stopped:
        title = tr._("⏹ Quiz stopped: {title}", title=html.escape(quiz_title(quiz, lang)))
    else:
        title = tr._("🏁 Quiz finished: {title}", title=html.escape(quiz_title(quiz, lang)))
    lines = [f"<b>{title}</b>", ""]
    if stopped and total < scored:
        lines += [
            tr.ngettext(
                "Scored over the {n} question asked, of {all}.",
                "Scored over the {n} questions asked, of {all}.",
                total,
                all=tr.number(scored),
            ),
            "",
        ]
    if not top:
        lines.append(tr._("Nobody answered this time."))
    else:
        legend = tr._("Right answers · total answer time (the faster wins a tie)")
        lines.append(f"<i>{legend}</i>")
    medals = ["🥇", "🥈", "🥉"]
    for rank, standing in enumerate(top, start=1):
        medal = rank <= len(medals) and standing.correct > 0
        badge = medals[rank - 1] if medal else f"{tr.number(rank)}."
        name = member_name(tr, standing.user_id, standing.name)
        score = tr._(
            "{correct}/{total}", correct=tr.number(standing.correct), total=tr.number(total)
        )
        seconds = tr.seconds(round(standing.total_ms / 1000, 1))
        extra = points(standing.user_id)
        lines.append(f"{badge} {name} · {score} · ⏱ {seconds}" + (f" · {extra}" if extra else ""))
    if players > len(top):
        lines.append(
            tr.ngettext("…and {n} more player", "…and {n} more players", players - len(top))
        )
    lines += guide_lines(tr, quiz.guide, lang)
    return Screen(fit_html("\n".join(lines)))


def unattended(tr: Translator) -> str:
    return tr._(
        "⏹ Nobody answered the last two questions, so the quiz stops here. /push to play again."
    )


def run_in_progress(tr: Translator, quiz: Quiz, lang: str) -> str:
    return tr._(
        "A quiz is running here: {title}. /stop ends it; then /quiz to pick another.",
        title=html.escape(quiz_title(quiz, lang)),
    )


def nothing_to_stop(
    tr: Translator, chat_id: int, elsewhere: Sequence[int], names: Mapping[int, str]
) -> str:
    """/stop where no quiz runs; in a forum, the topics (0: General) where one does, linked."""
    here = tr._("No quiz is running here.")
    if not elsewhere:
        return here
    places = [
        tr._("General")
        if thread == 0
        else tr._("the topic {topic}", topic=link_to_topic(chat_id, thread, names.get(thread, "")))
        for thread in elsewhere
    ]
    there = tr.ngettext(
        "One is running in {places}: /stop there ends it.",
        "Quizzes are running in {places}: /stop in one of them ends its quiz.",
        len(places),
        places=format_list(places, locale=tr.locale),
    )
    return f"{here} {there}"


def nothing_to_ask(tr: Translator) -> str:
    return tr._(
        "Every question of this quiz needs a typed answer, and this group takes none: "
        "an admin can turn typed answers on in /settings."
    )


def flashcard_hint(tr: Translator) -> str:
    return tr._("Recall the answer: the back shows when time is up. Nobody is scored on it.")
