"""Small HTML pieces the dashboard's pages share: escaping, content text, figures, dates.

Every number a test checks is rendered by `figure`, which also carries the raw value in a
`data-value` attribute: the text is in the viewer's language, the attribute is not.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from datetime import date, datetime, tzinfo

from babel.dates import get_day_names

from bot.core.markup import fenced, split_code
from bot.core.schedule import NAMED_SETS, parse_time
from bot.i18n import Translator


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def tip(tr: Translator) -> Callable[[str, str], str]:
    """A chart's tooltip, "label: value", written as the language writes it (French: a
    no-break space before the colon)."""
    # TRANSLATORS: a chart's tooltip: a bar's or a point's label, then its number.
    return lambda label, value: tr._("{label}: {value}", label=label, value=value)


def rich(text: str) -> str:
    """Content text as HTML: escaped, `code` spans as <code>, fenced blocks as <pre><code>."""
    return "".join(_piece(is_code, p) for is_code, p in split_code(text))


def _piece(is_code: bool, piece: str) -> str:
    if not is_code:
        return esc(piece)
    block = fenced(piece)
    if block is None:
        return f"<code>{esc(piece)}</code>"
    lang = f' class="language-{esc(block[0])}"' if block[0] else ""
    return f"<pre><code{lang}>{esc(block[1])}</code></pre>"


def figure(key: str, value: float, shown: str) -> str:
    return f'<span class="n" data-key="{esc(key)}" data-value="{value:g}">{esc(shown)}</span>'


NO_DATA = "–"  # where a share or an average has nothing to be taken over (not "0 %")


def tile(label: str, key: str, value: float | None, shown: str) -> str:
    """A number and its label; `value` None: nothing to show yet, "–" without a figure (a
    test reading the page's figures finds none to mistake for a zero)."""
    number = figure(key, value, shown) if value is not None else f'<span class="n">{NO_DATA}</span>'
    return f'<div class="tile">{number}<small>{esc(label)}</small></div>'


def way_on(tr: Translator, text: str, preview: str | None = None) -> str:
    """An empty section's hint with something to tap: back to the chat, where the commands
    are (the Mini App closes, app.js), and the quizzes' preview when `preview` is its link."""
    back, quizzes = tr._("💬 Back to the chat"), tr._("🌍 See the quizzes")
    links = [f'<a class="action" href="#" data-close>{esc(back)}</a>']
    if preview is not None:
        links.append(f'<a class="action" href="{esc(preview)}">{esc(quizzes)}</a>')
    return f'<div class="empty">{para(text, "empty")}<p class="actions">{"".join(links)}</p></div>'


def section(title: str, body: str, *, key: str, extra: str = "") -> str:
    return f'<section id="{esc(key)}"><h2>{esc(title)}</h2>{extra}{body}</section>'


def table(head: Sequence[str], rows: Sequence[Sequence[str]], *, key: str) -> str:
    """Cells are HTML already (escape them first); the header row is plain text."""
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    head_row = f"<thead><tr>{th}</tr></thead>"
    return f'<table data-table="{esc(key)}">{head_row}<tbody>{body}</tbody></table>'


def empty(text: str) -> str:
    return f'<p class="empty">{esc(text)}</p>'


def para(text: str, css: str = "legend") -> str:
    """A line of plain text (escaped) in a paragraph of the given class."""
    return f'<p class="{css}">{esc(text)}</p>'


def heading(text: str, level: int = 1) -> str:
    return f"<h{level}>{esc(text)}</h{level}>"


def short_day(tr: Translator, day: date) -> str:
    """'Nov 3' / '3 nov.': a week's label under a chart."""
    return tr.month_day(day)


def day(tr: Translator, day: date) -> str:
    """A date as the chat writes it ("1er déc. 2026")."""
    return tr.day(day)


def moment(tr: Translator, at: float, tz: tzinfo) -> str:
    """A coming moment as the chat writes it, to the minute: "mer. 2 déc. à 18:30"."""
    return tr.moment(datetime.fromtimestamp(at, tz))


def clock(tr: Translator, at_time: str) -> str:
    """A schedule's stored 'HH:MM' as this language writes a time of day ("6:30 PM")."""
    return tr.clock_time(*parse_time(at_time))


def weekdays(tr: Translator, days: Sequence[int]) -> str:
    """A schedule's days as people say them: every day, weekdays, or 'Mon, Wed' in their
    language (ISO numbering: 0 = Monday, as Babel's)."""
    chosen = tuple(sorted(days))
    if chosen == NAMED_SETS["daily"]:
        return tr._("every day")
    if chosen == NAMED_SETS["weekdays"]:
        return tr._("Monday to Friday")
    if chosen == NAMED_SETS["weekends"]:
        return tr._("weekends")
    names = get_day_names("abbreviated", locale=tr.locale)
    return ", ".join(str(names[d]) for d in chosen)


def language_label(tr: Translator, code: str) -> str:
    """A language named in itself, as the bot's language picker names it ('?' when an answer
    did not record one)."""
    if code == "?":
        return tr._("unknown")
    try:
        return tr.language_name(code)
    except ValueError:  # not a language Babel knows: show the code
        return code
