"""What standings look like: /top with its window buttons, a run's points and climbers, /me and
the groups section of /stats, and the scoring rows of /settings.

Group messages use the group's language, private ones the member's. Names are escaped; a shared
place is written "2=" and the rule for ties is said under the table.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import cache

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.scoring import SPEED_MAX, ScoringMode, ScoringRule
from bot.core.standings import Placed, Window
from bot.i18n import SUPPORTED_LANGUAGES, Translator, translator
from bot.store import GroupSettings
from bot.tg import callbacks as cb
from bot.tg.long_lists import bounded
from bot.tg.screen_render import Screen, button, member_name, shown_name
from bot.tg.wire.html_fit import fit_html
from bot.usecases.group_standings import MyPlaces, RunStanding, Table, rule_of

MAX_MOVES = 5


def window_name(tr: Translator, window: Window) -> str:
    if window is Window.WEEK:
        return tr._("This week")
    if window is Window.MONTH:
        return tr._("This month")
    return tr._("All time")


def scoring_name(tr: Translator, rule: ScoringRule) -> str:
    if rule.mode is ScoringMode.SPEED:
        mode = tr._(
            "speed (up to {most} points a right answer, more for a faster one)",
            most=tr.number(SPEED_MAX),
        )
    else:
        mode = tr._("plain (1 point a right answer)")
    if rule.streak_bonus:
        return tr._("{mode}, with a streak bonus", mode=mode)
    return mode


def points(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} point", "{n} points", n)


def place(tr: Translator, placed: Placed) -> str:
    if placed.shared:
        return tr._("{rank}=", rank=tr.number(placed.rank))
    return tr._("{rank}.", rank=tr.number(placed.rank))


def right_answers(tr: Translator, n: int) -> str:
    return tr.ngettext("{n} right answer", "{n} right answers", n)


def _line(tr: Translator, placed: Placed) -> str:
    """A place in /top: right answers (the ranking) and runs played, never added-up points."""
    name = member_name(tr, placed.tally.user_id, placed.tally.name)
    runs = tr.ngettext("{n} run", "{n} runs", placed.tally.runs)
    return f"{place(tr, placed)} {name} · {right_answers(tr, placed.tally.correct)} · {runs}"


def _heading(tr: Translator, window: str) -> str:
    return tr._("🏆 Standings: {window}", window=window)


@cache
def _headings() -> tuple[str, ...]:
    """The start of a table's text in every language (the group's may have changed since)."""
    return tuple(_heading(translator(lang), "") for lang in SUPPORTED_LANGUAGES)


def is_table(text: str | None) -> bool:
    """Whether a message's text is a /top table: the only message a window button (any
    member's, its data and the message it is tapped on theirs to forge) may replace."""
    return text is not None and text.startswith(_headings())


def me_anonymous(tr: Translator) -> str:
    """/me from an anonymous admin, who writes as the group: whose place, and what to do."""
    return html.escape(
        tr._(
            "You wrote as the group, so I can't tell whose place to show. Send /me as yourself, "
            "or /stats in a private chat with me."
        )
    )


def table(tr: Translator, view: Table) -> Screen:
    """/top: the first ten places of a window, with buttons to switch window in place."""
    heading = _heading(tr, window_name(tr, view.window))
    lines = [f"<b>{heading}</b>", ""]
    if not view.top:
        lines.append(tr._("No points yet in this period."))
    lines += [_line(tr, placed) for placed in view.top]
    if view.ranked > len(view.top):
        more = view.ranked - len(view.top)
        lines.append(tr.ngettext("…and {n} more member", "…and {n} more members", more))
    lines += [
        "",
        tr._(
            "Ranked by right answers; equal right answers, the shorter total answer time "
            "first; equal on both, the place is shared (=)."
        ),
        tr._("Speed points are shown with each run's results, never added up here."),
    ]
    if view.window is Window.WEEK:
        lines.append(tr._("Weeks start on Monday, in the group's time zone."))
    buttons = [
        button(
            ("✓ " if w is view.window else "") + window_name(tr, w),
            cb.TopWindow(view.chat_id, w.value),
        )
        for w in Window
    ]
    return Screen(fit_html("\n".join(lines)), InlineKeyboardMarkup([buttons]))


def run_points(tr: Translator, standing: RunStanding | None, user_id: int) -> str | None:
    """A speed run's points for one player, the second figure of their leaderboard line (None
    in plain scoring: there the points are the right answers again)."""
    if standing is None or standing.rule.mode is not ScoringMode.SPEED:
        return None
    return points(tr, standing.points.get(user_id, 0))


def run_footer(tr: Translator, standing: RunStanding) -> str:
    """Under a run's leaderboard: how it was scored and who climbed this week."""
    lines = [tr._("Scoring: {mode}", mode=scoring_name(tr, standing.rule))]
    if standing.moves:
        lines += ["", "<b>" + tr._("📈 Moved up this week") + "</b>"]
        for move in standing.moves[:MAX_MOVES]:
            lines.append(
                tr._(
                    "{name}: now {after}, was {before}",
                    name=member_name(tr, move.user_id, move.name),
                    after=tr.number(move.after),
                    before=tr.number(move.before),
                )
            )
    lines.append(tr._("/top shows the standings."))
    return "\n".join(lines)


def _places_lines(tr: Translator, mine: MyPlaces) -> list[str]:
    lines = []
    for window in Window:
        placed = mine.places.get(window)
        if placed is None:
            value = tr._("no points yet")
        else:
            # A shared place as /top writes it ("2="), so the two screens agree.
            rank = tr._("{rank}=", rank=tr.number(placed.rank)) if placed.shared else None
            value = tr._(
                "#{rank} · {right}",
                rank=rank or tr.number(placed.rank),
                right=right_answers(tr, placed.tally.correct),
            )
        lines.append(tr._("{window}: {value}", window=window_name(tr, window), value=value))
    return lines


def me(tr: Translator, name: str, mine: MyPlaces) -> str:
    """/me in a group: the member's place per window."""
    heading = tr._("📊 {name} in this group", name=shown_name(name))
    return "\n".join([f"<b>{heading}</b>", *_places_lines(tr, mine)])


def me_privately(tr: Translator, mine: MyPlaces) -> str:
    """/me answered in the member's private chat: the places alone, under the heading that
    names the group (bot/tg/member_replies.py)."""
    return "\n".join(_places_lines(tr, mine))


def groups_section(tr: Translator, mine: Sequence[MyPlaces]) -> str:
    """/stats in private: the member's place and right answers in each group."""
    blocks = [
        "\n".join(["", "<b>" + shown_name(group.title) + "</b>", *_places_lines(tr, group)])
        for group in mine
    ]
    return bounded(
        ["<b>" + tr._("👥 Your groups") + "</b>"],
        blocks,
        lambda n: "\n" + tr.ngettext("…and {n} more group", "…and {n} more groups", n),
    )


def scoring_line(tr: Translator, group: GroupSettings) -> str:
    return tr._("Scoring: {mode}", mode=scoring_name(tr, rule_of(group)))


def scoring_rows(tr: Translator, group: GroupSettings) -> list[list[InlineKeyboardButton]]:
    """The /settings rows for the scoring mode and the streak bonus."""
    rule = rule_of(group)
    chat = group.chat_id

    def check(on: bool) -> str:
        return "✓ " if on else ""

    return [
        [
            button(
                check(rule.mode is ScoringMode.PLAIN) + tr._("Plain scoring"),
                cb.Setting(chat, "scoring", "plain"),
            ),
            button(
                check(rule.mode is ScoringMode.SPEED) + tr._("Speed scoring"),
                cb.Setting(chat, "scoring", "speed"),
            ),
        ],
        [
            button(
                check(rule.streak_bonus) + tr._("Streak bonus on"), cb.Setting(chat, "streak", "on")
            ),
            button(
                check(not rule.streak_bonus) + tr._("Streak bonus off"),
                cb.Setting(chat, "streak", "off"),
            ),
        ],
    ]
