"""A group's scheduled quizzes in words: /schedule's usage and confirmation, /schedules' list
with each next run in the group's time zone, /unschedule, and a schedule whose topic is gone.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.core.bidi import isolate
from bot.core.limits import MESSAGE_MAX_CHARS
from bot.core.models import Catalog, Quiz
from bot.core.schedule import decode_days, next_run, parse_time
from bot.i18n import Translator
from bot.schedule_words import days_text, quiz_text, typed_days, typed_keywords, typed_schedule
from bot.store import Schedule
from bot.tg.long_lists import bounded


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
    return typed_days(tr, (0, 2))


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
    at = tr.clock_time(*parse_time(item.at_time))  # "6:30 PM", "18:30": as /remind writes it
    lines = [_what_and_when(tr, catalog, item, n, own)]
    upcoming = next_run(days, item.at_time, now.astimezone(zone))
    if upcoming is not None:
        lines.append(
            tr._(
                "   next run: {day} at {time}",
                day=tr.short_day(upcoming.date()),
                time=at,
            )
        )
    if item.thread_id:
        lines.append(tr._("   in the topic {topic}", topic=topic_link(item)))
    return lines


def _what_and_when(
    tr: Translator, catalog: Catalog, item: Schedule, n: int, own: Mapping[str, Quiz] | None
) -> str:
    """A schedule's first line: its number, what it plays, on which days, at what time."""
    return tr._(
        "{n}. {quiz}: {days} at {time}",
        n=tr.number(n),
        quiz=html.escape(quiz_text(tr, catalog, item.quiz, tr.lang, own)),
        days=days_text(tr, decode_days(item.days)),
        time=tr.clock_time(*parse_time(item.at_time)),  # "6:30 PM", "18:30": as /remind does
    )


def topic_link(item: Schedule) -> str:
    """The schedule's forum topic as a link that opens it (its name, or its number when the
    bot never saw the name)."""
    return link_to_topic(item.chat_id, item.thread_id, item.thread_name)


def link_to_topic(chat_id: int, thread_id: int, name: str) -> str:
    """A forum topic as a link that opens it: its name, or its number when never heard. Members
    name topics, so the name is isolated as a person's is (bot/core/bidi.py)."""
    internal = str(abs(chat_id))
    internal = internal[3:] if internal.startswith("100") else internal  # -100… supergroup ids
    shown = html.escape(isolate(name)) if name else f"#{thread_id}"
    return f'<a href="https://t.me/c/{internal}/{thread_id}">{shown}</a>'


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


def stopped_schedules(
    tr: Translator,
    catalog: Catalog,
    stopped: Sequence[Schedule],
    own: Mapping[str, Quiz] | None = None,
) -> str:
    """Said after the welcome of a bot added back: the schedules that stopped when it was
    removed, each with the /schedule command that sets it again (a tap on it copies it)."""
    n = len(stopped)
    head = tr.ngettext(
        "⏸ When I was removed from this group, I stopped its schedule:",
        "⏸ When I was removed from this group, I stopped its {n} schedules:",
        n,
    )
    items = []
    for number, item in enumerate(stopped, start=1):
        days = decode_days(item.days)
        command = html.escape(typed_schedule(tr, item.quiz, days, item.at_time), quote=False)
        lines = [
            _what_and_when(tr, catalog, item, number, own),
            f"   <code>/schedule {command}</code>",
        ]
        if item.thread_id:
            lines.append(tr._("   in the topic {topic}", topic=topic_link(item)))
        items.append("\n".join(lines))
    tail = tr.ngettext(
        "To set it again, an admin sends the command under it (in its topic, if it names one).",
        "To set them again, an admin sends the command under each (in its topic, if it names one).",
        n,
    )
    return bounded(
        [html.escape(head, quote=False)],
        items,
        lambda left: tr.ngettext("…and {n} more schedule", "…and {n} more schedules", left),
        [html.escape(tail, quote=False)],
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
