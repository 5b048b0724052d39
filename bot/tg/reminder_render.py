"""What /timezone (private), /remind and the daily reminder show: texts and keyboards, never a
call. Times of day go through Babel in the reader's language ("6:30 PM", "18:30"); zone names
are IANA's (what the learner types); every typed value is escaped.
"""

from __future__ import annotations

import html
from datetime import datetime
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardMarkup

from bot.core.zones import COMMON_ZONES
from bot.i18n import Translator
from bot.store.reviews import Reminder
from bot.tg import callbacks as cb
from bot.tg import streak_render
from bot.tg.private_render import unknown_zone, zone_label
from bot.tg.screen_render import Screen, button, popup, typed_back
from bot.usecases.reminders import Nudge, ZoneSet, ZoneShown

ZONES_PER_ROW = 2


def at_time(tr: Translator, reminder: Reminder) -> str:
    """The reminder's 'HH:MM' as the reader's language writes a time of day."""
    hour, minute = (int(part) for part in reminder.at_time.split(":"))
    return tr.clock_time(hour, minute)


def now_in(tr: Translator, zone: str, now: float) -> str:
    local = datetime.fromtimestamp(now, ZoneInfo(zone))
    return tr.clock_time(local.hour, local.minute)


# -- /timezone ------------------------------------------------------------------------------


def zone_shown(tr: Translator, shown: ZoneShown, user_id: int, now: float) -> Screen:
    """The learner's zone and the local time there, how to change it, and buttons for the
    common zones (the current one ticked), bound to this learner."""
    lines = [
        tr._(
            "🌍 Your time zone: {zone} (it is {time} there now).",
            zone=html.escape(shown.zone),
            time=now_in(tr, shown.zone, now),
        )
    ]
    if not shown.chosen:
        lines.append(tr._("You have not chosen one yet: this is the bot's default."))
    if shown.reminder is not None:
        lines.append(
            tr._("Your daily reminder: {time} in this zone.", time=at_time(tr, shown.reminder))
        )
    lines += [
        "",
        tr._("Tap yours below, or type it as Area/City, for example /timezone Africa/Dakar."),
    ]
    return Screen("\n".join(lines), _zone_buttons(shown.offered, shown.zone, user_id))


def _zone_buttons(
    offered: tuple[str, ...], current: str | None, user_id: int
) -> InlineKeyboardMarkup:
    buttons = [
        button(f"✅ {zone}" if zone == current else zone, cb.ZonePick(user_id, index))
        for index, zone in enumerate(offered)
    ]
    rows = [buttons[i : i + ZONES_PER_ROW] for i in range(0, len(buttons), ZONES_PER_ROW)]
    return InlineKeyboardMarkup(rows)


def zone_unknown(tr: Translator, typed: str, suggestion: str | None, user_id: int) -> Screen:
    """The groups' "unknown time zone" text; in private, the suggestion is a button to set it
    (or, with none, the common zones are)."""
    text = unknown_zone(tr, typed, suggestion)
    if suggestion is None:
        return Screen(text, _zone_buttons(COMMON_ZONES, None, user_id))
    pick = button(zone_label(suggestion), cb.ZoneSuggested(user_id, suggestion))
    return Screen(text, InlineKeyboardMarkup([[pick]]))


def zone_set(tr: Translator, done: ZoneSet, now: float) -> str:
    lines = [
        tr._(
            "🌍 Time zone set to {zone} (it is {time} there now).",
            zone=html.escape(done.zone),
            time=now_in(tr, done.zone, now),
        )
    ]
    if done.reminder is not None:
        lines.append(
            tr._(
                "⏰ Your daily reminder stays at {time}, now in {zone}.",
                time=at_time(tr, done.reminder),
                zone=html.escape(done.zone),
            )
        )
    return "\n".join(lines)


def zone_button_stale(tr: Translator) -> str:
    return tr._("This button is not yours. /timezone shows your own.")


def zone_button_expired(tr: Translator) -> str:
    """A zone button number /timezone never offered (an old keyboard, or forged data)."""
    return tr._("This button has expired.")


def zone_refused(tr: Translator, typed: str, suggestion: str | None) -> str:
    """The learner's own zone button named a zone the setter refuses: the typed command's
    "unknown time zone" text, as a popup (it said "not yours", though the button was theirs)."""
    return popup(unknown_zone(tr, typed, suggestion))


# -- /remind --------------------------------------------------------------------------------


def remind_usage(tr: Translator, current: Reminder | None, zone: str, typed: str) -> str:
    lines = []
    if typed:
        lines += [tr._("I did not understand “{typed}”.", typed=html.escape(typed_back(typed))), ""]
    lines.append(
        tr._(
            "Your daily reminder is on, at {time} ({zone}).",
            time=at_time(tr, current),
            zone=html.escape(current.timezone),
        )
        if current
        else tr._("Your daily reminder is off.")
    )
    lines += [
        "",
        tr._("/remind on [HH:MM]: a reminder each day when reviews are due"),
        tr._("/remind off: no more reminders"),
        tr._(
            "Times are in your time zone, {zone}: /timezone to change it.", zone=html.escape(zone)
        ),
    ]
    return "\n".join(lines)


def bad_time(tr: Translator, typed: str) -> str:
    return tr._(
        "I can't read the time {time}: write it as HH:MM, from 00:00 to 23:59 "
        "(for example /remind on 07:30).",
        time=html.escape(typed_back(typed)),
    )


def remind_on(tr: Translator, reminder: Reminder) -> str:
    return "\n".join(
        [
            tr._(
                "⏰ Daily reminder on, at {time} ({zone}), on days when reviews are due.",
                time=at_time(tr, reminder),
                zone=html.escape(reminder.timezone),
            ),
            tr._("Not your time zone? /timezone sets yours; the reminder follows."),
        ]
    )


def remind_off(tr: Translator, had: bool) -> str:
    return tr._("Daily reminder off.") if had else tr._("You had no reminder set.")


# -- the reminder itself --------------------------------------------------------------------


def reminder(tr: Translator, nudge: Nudge, user_id: int) -> Screen:
    """The daily nudge: how many reviews are due, with a button (for this learner) that starts
    the review; the streak under it. Nothing due: the streak note alone, no button."""
    lines = []
    keyboard = None
    if nudge.due:
        lines.append(
            tr.ngettext(
                "⏰ {n} question is due for review. /review to go over it.",
                "⏰ {n} questions are due for review. /review to go over them.",
                nudge.due,
            )
        )
        if nudge.weakest is not None:
            lines.append(
                tr._(
                    "🧠 The shakiest one: you'd remember it ~{percent} today.",
                    percent=tr.percent(nudge.weakest),
                )
            )
        start = button(tr._("🔁 Start the review"), cb.ReminderReview(user_id))
        keyboard = InlineKeyboardMarkup([[start]])
    if nudge.streak.days:
        lines.append(streak_render.streak_line(tr, nudge.streak))
    return Screen("\n".join(lines), keyboard)


def reminder_not_yours(tr: Translator) -> str:
    return tr._("This reminder is not yours. /review starts your own review.")
