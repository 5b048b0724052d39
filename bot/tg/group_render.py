"""What a study group sees: intro, questions, reveals, leaderboards, settings and schedules.

Messages posted in the group use the group's language; popups use the tapping member's. Every
content string is escaped (member names too) and every message is kept under Telegram's limits.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardMarkup

from bot.core.engine import Judgement, Standing
from bot.core.group_run import GroupRun, fit_popup
from bot.core.kinds import QuestionKind
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.markup import plain
from bot.core.models import Catalog, Quiz
from bot.core.schedule import decode_days, next_run
from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.schedule_words import days_text, quiz_text, typed_keywords
from bot.store import GroupSettings, Schedule
from bot.tg import callbacks as cb
from bot.tg import menus, number_render, standings_render
from bot.tg import toggle_render as toggle_keys
from bot.tg.long_lists import bounded
from bot.tg.private_render import (
    LETTERS,
    MAX_LIST_BUTTONS,
    Screen,
    button,
    guide_line,
    guide_lines,
    level_name,
    more_quizzes,
    question_header,
    revealed,
    rich,
    shown_name,
    truncate,
    with_image,
)

BAR_WIDTH = 8


def how_to(tr: Translator) -> str:
    """Posted when the bot joins a group (plain text: escaped as a whole)."""
    return html.escape(
        "\n".join(
            [
                tr._("👋 Hello! I run short quizzes for this group."),
                tr._(
                    "Admins: /quiz to pick a quiz, /push <quiz> to start one, /stop to end it, "
                    "/settings for language and timing, /schedule to run quizzes automatically."
                ),
                tr._(
                    "Everyone: tap a letter to answer; when a question asks for every right "
                    "option, tick them and tap 📨 Submit. Only your first answer counts; the "
                    "answer is revealed when time is up."
                ),
                *command_lists(tr),
            ]
        ),
        quote=False,
    )


def command_lists(tr: Translator) -> list[str]:
    """Every command by where it works, read from the menus (so /help cannot leave one out)."""
    everyone = [c.name for c in menus.GROUP]
    admins = [c.name for c in menus.GROUP_ADMIN if c.name not in everyone]
    private = [c.name for c in menus.PRIVATE if c.name in menus.PRIVATE_ONLY]

    def listed(names: list[str]) -> str:
        return " ".join("/" + name for name in names)

    return [
        tr._(
            "Commands here: {everyone} for everyone; {admins} for admins. Type / for the menu, "
            "with what each does.",
            everyone=listed(everyone),
            admins=listed(admins),
        ),
        tr._("In a private chat with me: {commands}.", commands=listed(private)),
    ]


def intro(tr: Translator, quiz: Quiz, run: GroupRun, lang: str) -> Screen:
    count = tr.ngettext("{n} question", "{n} questions", len(quiz))
    seconds = tr.ngettext(
        "{n} second per question", "{n} seconds per question", max(1, round(run.seconds))
    )
    title = tr._("🎯 Group quiz: {title}", title=html.escape(quiz.title.get(lang)))
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
        return with_image(
            Screen(truncate(text, MESSAGE_MAX_CHARS)), quiz.questions[index].image, lang
        )
    prompt = rich(quiz.questions[index].prompt.get(lang))
    lines = [question_header(tr, quiz, index, lang), "", prompt, ""]
    lines += [f"<b>{LETTERS[pos]}.</b> {text}" for pos, text in _options(quiz, run, index, lang)]
    if quiz.questions[index].kind is QuestionKind.MULTIPLE:
        # Every member sees the same ☐ buttons: selections are told to each tapper alone.
        keys = toggle_keys.keyboard(tr, run.id, index, len(run.orders[index]), group=True)
        text = "\n".join([*lines, "", toggle_keys.hint(tr)])
        return Screen(truncate(text, MESSAGE_MAX_CHARS), keys)
    buttons = [
        button(LETTERS[pos], cb.GroupAnswer(run.id, index, pos))
        for pos in range(len(run.orders[index]))
    ]
    rows = [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    screen = Screen(truncate("\n".join(lines), MESSAGE_MAX_CHARS), InlineKeyboardMarkup(rows))
    return with_image(screen, quiz.questions[index].image, lang)


def live_question(screen: Screen, tr: Translator, answered: int, seconds_left: int) -> Screen:
    """The open question with how many answered and the time left (the keyboard kept); shown
    when it is sent and refreshed at the steps of bot/core/live_feedback.py, never per tap."""
    count = tr.ngettext("👥 {n} answer so far", "👥 {n} answers so far", answered)
    left = tr._("⏳ {time} left", time=tr.seconds(seconds_left))
    text = truncate(f"{screen.text}\n\n{count} · {left}", MESSAGE_MAX_CHARS)
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
        title = tr._("⏹ Quiz stopped: {title}", title=html.escape(quiz.title.get(lang)))
    else:
        title = tr._("🏁 Quiz finished: {title}", title=html.escape(quiz.title.get(lang)))
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
        name = shown_name(standing.name)
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
    return Screen(truncate("\n".join(lines), MESSAGE_MAX_CHARS))


def unattended(tr: Translator) -> str:
    return tr._(
        "⏹ Nobody answered the last two questions, so the quiz stops here. /push to play again."
    )


def quiz_picker(
    tr: Translator,
    catalog: Catalog,
    chat_id: int,
    lang: str,
    own: Mapping[str, Quiz] | None = None,
) -> Screen:
    """A button per quiz (the group's own uploaded ones first), and each title with the id
    `/push` and `/schedule` take."""
    listed = [(typed, quiz) for typed, quiz in (own or {}).items()]
    listed += [(quiz.id, quiz) for quiz in catalog]
    if not listed:
        return Screen(tr._("No quizzes are available yet."))
    titles = Counter(quiz.title.get(lang) for _, quiz in listed)
    rows = [
        [
            button(
                _picker_label(quiz.title.get(lang), typed, titles),
                cb.Setting(chat_id, "push", typed),
            )
        ]
        for typed, quiz in listed[:MAX_LIST_BUTTONS]
    ]
    text = bounded(
        [tr._("Which quiz should the group play?"), ""],
        [listed_line(tr, quiz.title.get(lang), typed) for typed, quiz in listed],
        lambda n: more_quizzes(tr, n),
        ["", html.escape(tr._("Or type /push <id>."), quote=False)],
    )
    return Screen(text, InlineKeyboardMarkup(rows))


def listed_line(tr: Translator, title: str, quiz_id: str) -> str:
    """A quiz in a list, with the id /push and /schedule take: "• Title: `id`" (French puts a
    no-break space before the colon, hence a msgid rather than an f-string)."""
    code = f"<code>{html.escape(quiz_id)}</code>"
    # TRANSLATORS: a quiz's title, then the id an admin types after /push.
    return "• " + tr._("{title}: {id}", title=html.escape(title), id=code)


def _picker_label(title: str, quiz_id: str, titles: Counter[str]) -> str:
    """A picker button's label: the title, with the id where another quiz has the same title
    (an uploaded quiz beside a shipped one, or two uploads), so no two buttons read alike."""
    return title if titles[title] == 1 else f"{title} · {quiz_id}"


def run_in_progress(tr: Translator, quiz: Quiz, lang: str) -> str:
    return tr._(
        "A quiz is running here: {title}. /stop ends it; then /quiz to pick another.",
        title=html.escape(quiz.title.get(lang)),
    )


def unknown_quiz(tr: Translator, typed: str, suggestion: str | None) -> str:
    if suggestion:
        return tr._(
            "I don't know the quiz {name}. Did you mean /push {suggestion}? /quiz shows the list.",
            name=html.escape(typed),
            suggestion=html.escape(suggestion),
        )
    return tr._("I don't know that quiz. /quiz shows the list.")


def popup_line(tr: Translator, group: GroupSettings) -> str:
    if group.popup_verdict:
        return tr._("Answer popups: right or wrong at once, with the explanation")
    return tr._("Answer popups: the letter only; the verdict comes with the reveal")


def nothing_to_ask(tr: Translator) -> str:
    return tr._(
        "Every question of this quiz needs a typed answer, and this group takes none: "
        "an admin can turn typed answers on in /settings."
    )


def flashcard_hint(tr: Translator) -> str:
    return tr._("Recall the answer: the back shows when time is up. Nobody is scored on it.")


def flashcards_line(tr: Translator, group: GroupSettings) -> str:
    if group.flashcards:
        return tr._("Flashcards: on (the front, then the back at the reveal; not scored)")
    return tr._("Flashcards: off (skipped; learners rate them in private)")


def typed_line(tr: Translator, group: GroupSettings) -> str:
    if group.typed_answers:
        return tr._("Typed answers: on (number questions are asked; a member's first reply counts)")
    return tr._("Typed answers: off (number questions are skipped)")


def settings(tr: Translator, group: GroupSettings) -> Screen:
    heading = tr._("⚙️ Group settings")
    lines = [
        f"<b>{heading}</b>",
        tr._("Language: {name}", name=tr.language_name(group.language)),
        tr._("Seconds per question: {n}", n=tr.number(group.seconds)),
        tr._("Shuffle options: {state}", state=tr._("on") if group.shuffle else tr._("off")),
        tr._(
            "Time zone: {zone} (change it with /timezone Area/City)",
            zone=html.escape(group.timezone),
        ),
        standings_render.scoring_line(tr, group),
        popup_line(tr, group),
        typed_line(tr, group),
        flashcards_line(tr, group),
    ]
    chat = group.chat_id
    langs = [
        button(
            ("✓ " if c == group.language else "") + tr.language_name(c), cb.Setting(chat, "lang", c)
        )
        for c in SUPPORTED_LANGUAGES
    ]
    seconds = [
        button(
            ("✓ " if s == group.seconds else "") + tr.seconds(s),
            cb.Setting(chat, "seconds", str(s)),
        )
        for s in (10, 20, 30, 60)
    ]
    shuffle = [
        button(
            ("✓ " if group.shuffle else "") + tr._("Shuffle on"), cb.Setting(chat, "shuffle", "on")
        ),
        button(
            ("✓ " if not group.shuffle else "") + tr._("Shuffle off"),
            cb.Setting(chat, "shuffle", "off"),
        ),
    ]
    popups = [
        button(
            ("✓ " if not group.popup_verdict else "") + tr._("Popup: letter only"),
            cb.Setting(chat, "popup", "letter"),
        ),
        button(
            ("✓ " if group.popup_verdict else "") + tr._("Popup: verdict"),
            cb.Setting(chat, "popup", "verdict"),
        ),
    ]
    typed = [
        button(
            ("✓ " if group.typed_answers else "") + tr._("Typed answers on"),
            cb.Setting(chat, "typed", "on"),
        ),
        button(
            ("✓ " if not group.typed_answers else "") + tr._("Typed answers off"),
            cb.Setting(chat, "typed", "off"),
        ),
    ]
    cards = [
        button(
            ("✓ " if group.flashcards else "") + tr._("Flashcards on"),
            cb.Setting(chat, "cards", "on"),
        ),
        button(
            ("✓ " if not group.flashcards else "") + tr._("Flashcards off"),
            cb.Setting(chat, "cards", "off"),
        ),
    ]
    rows = [
        langs, seconds, shuffle, *standings_render.scoring_rows(tr, group), popups, typed, cards,
    ]  # fmt: skip
    return Screen("\n".join(lines), InlineKeyboardMarkup(rows))


def schedule_usage(tr: Translator) -> str:
    """How to type /schedule, with the keywords of the group's language (English works too)."""
    words = typed_keywords(tr)
    return html.escape(
        "\n".join(
            [
                tr._(
                    "Usage: /schedule <quiz|{next}|{random}> <{daily}|{weekdays}|{weekends}|"
                    "days> <HH:MM>",
                    **words,
                ),
                tr._(
                    "Days: names or their short forms, separated by commas, for example {days}.",
                    days=_example_days(tr),
                ),
                tr._("Example: /schedule {next} {weekdays} 08:30", **words),
                tr._("Times are in the group's time zone (see /settings)."),
            ]
        ),
        quote=False,
    )


def _example_days(tr: Translator) -> str:
    names = tr.locale.days["format"]["abbreviated"]
    return ",".join(names[day].rstrip(".").lower() for day in (0, 2))


def schedule_line(
    tr: Translator,
    catalog: Catalog,
    item: Schedule,
    n: int,
    zone: ZoneInfo,
    now: datetime,
    own: Mapping[str, Quiz] | None = None,
) -> list[str]:
    """One schedule: its number, what it plays, when, and its next run in the group's zone."""
    days = decode_days(item.days)
    lines = [
        tr._(
            "{n}. {quiz}: {days} at {time}",
            n=tr.number(n),
            quiz=html.escape(quiz_text(tr, catalog, item.quiz, tr.lang, own)),
            days=days_text(tr, days),
            time=item.at_time,
        )
    ]
    upcoming = next_run(days, item.at_time, now.astimezone(zone))
    if upcoming is not None:
        lines.append(
            tr._(
                "   next run: {day} at {time}",
                day=tr.short_day(upcoming.date()),
                time=item.at_time,
            )
        )
    if item.thread_id:
        lines.append(tr._("   in the topic {topic}", topic=topic_link(item)))
    return lines


def topic_link(item: Schedule) -> str:
    """The schedule's forum topic as a link that opens it (its name, or its number when the
    bot never saw the name)."""
    internal = str(abs(item.chat_id))
    internal = internal[3:] if internal.startswith("100") else internal  # -100… supergroup ids
    shown = html.escape(item.thread_name) if item.thread_name else f"#{item.thread_id}"
    return f'<a href="https://t.me/c/{internal}/{item.thread_id}">{shown}</a>'


def schedule_topic_gone(tr: Translator, n: int, item: Schedule) -> str:
    """Told once in General: the schedule's topic refused its quiz (closed or deleted)."""
    return tr._(
        "⏰ Schedule {n} could not run: its topic {topic} is closed or deleted. It tries again "
        "at its next time; /unschedule {n} removes it.",
        n=tr.number(n),
        topic=topic_link(item),
    )


def schedule_list(
    tr: Translator,
    catalog: Catalog,
    schedules: Sequence[Schedule],
    timezone: str,
    now: datetime,
    limit: int = MESSAGE_MAX_CHARS,
    own: Mapping[str, Quiz] | None = None,
) -> str:
    """/schedules: every schedule that fits in `limit`, then how many did not (a group that
    had more than the cap, MAX_SCHEDULES, before there was one)."""
    if not schedules:
        return tr._("No quizzes are scheduled here. /schedule to add one.")
    zone = ZoneInfo(timezone)
    heading = tr._("🗓 Scheduled quizzes ({zone})", zone=html.escape(timezone))
    items = [
        "\n".join(schedule_line(tr, catalog, item, n, zone, now, own))
        for n, item in enumerate(schedules, start=1)
    ]
    return bounded(
        [f"<b>{heading}</b>"],
        items,
        lambda n: tr.ngettext("…and {n} more schedule", "…and {n} more schedules", n),
        [html.escape(tr._("/unschedule <n> removes one."), quote=False)],
        limit,
    )


def too_many_schedules(tr: Translator, limit: int) -> str:
    """/schedule refused: the group has as many schedules as a group may."""
    return html.escape(
        tr.ngettext(
            "This group already has {n} schedule, the most it can have. "
            "/unschedule <n> removes one first (/schedules lists them).",
            "This group already has {n} schedules, the most it can have. "
            "/unschedule <n> removes one first (/schedules lists them).",
            limit,
        ),
        quote=False,
    )


def scheduled(
    tr: Translator,
    catalog: Catalog,
    item: Schedule,
    n: int,
    timezone: str,
    now: datetime,
    own: Mapping[str, Quiz] | None = None,
) -> str:
    """The confirmation of /schedule: what was added, and when it first runs."""
    line = schedule_line(tr, catalog, item, n, ZoneInfo(timezone), now, own)
    return "\n".join([tr._("✅ Scheduled:"), *line])


def unscheduled(
    tr: Translator,
    catalog: Catalog,
    item: Schedule,
    n: int,
    listed: Sequence[Schedule],
    timezone: str,
    now: datetime,
    own: Mapping[str, Quiz] | None = None,
) -> str:
    """The confirmation of /unschedule: what will no longer run, then the schedules left (as
    many as the message has room for)."""
    line = schedule_line(tr, catalog, item, n, ZoneInfo(timezone), now, own)[0]
    done = "\n".join([tr._("🗑 Removed:"), line])
    if not listed:
        return done
    room = MESSAGE_MAX_CHARS - len(done) - 2
    return f"{done}\n\n{schedule_list(tr, catalog, listed, timezone, now, room, own)}"
