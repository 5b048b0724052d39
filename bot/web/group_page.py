"""A study group's page, for its admins: runs and participation over time, the hardest questions
with how each language chose, which questions work (item analysis), standings over every run,
and the schedules coming up."""

from __future__ import annotations

from bot.core.bidi import isolate
from bot.core.markup import plain
from bot.core.schedule import decode_days
from bot.i18n import Translator
from bot.number_words import key_text
from bot.usecases.dashboard import GroupPage, HardQuestion, Upcoming
from bot.web import charts, item_section
from bot.web.html_parts import (
    clock,
    day,
    empty,
    esc,
    figure,
    heading,
    language_label,
    moment,
    para,
    rich,
    section,
    short_day,
    table,
    tile,
    tip,
    way_on,
    weekdays,
)

LETTERS = charts.LETTERS
STANDINGS_SHOWN = 100  # places in the standings' table; the CSV has every member


def csv_link(tr: Translator, href: str, section_name: str) -> str:
    """A section's download; its accessible name says which section, as the page shows four
    links that read the same."""
    label = tr._("⬇️ CSV")
    name = href.rsplit("/", 1)[-1].split("?")[0]
    attributes = f'class="csv" href="{esc(href)}" download="{esc(name)}" data-download'
    spoken = esc(f"{label} — {section_name}")
    return f'<a {attributes} aria-label="{spoken}">{esc(label)}</a>'


def render(tr: Translator, page: GroupPage, nav: str, csv: dict[str, str]) -> str:
    title = tr._("📊 Group statistics")
    parts = [heading(title)]
    if page.settings is not None and page.settings.title:
        parts.append(para(isolate(page.settings.title), "sub"))
    parts += [nav, _tiles(tr, page)]
    sections = [
        ("weeks", tr._("Runs and participation"), _weeks(tr, page)),
        ("questions", tr._("Hardest questions"), _questions(tr, page)),
        ("items", tr._("Question quality (item analysis)"), item_section.render(tr, page.items)),
        ("standings", tr._("Standings"), _standings(tr, page)),
        ("schedules", tr._("Upcoming quizzes"), _schedules(tr, page)),
    ]
    for key, name, body in sections:
        link = csv_link(tr, csv[key], name) if key in csv else ""
        parts.append(section(name, body, key=key, extra=link))
    return "".join(parts)


def _tiles(tr: Translator, page: GroupPage) -> str:
    """Counts with labels that agree with them ("1 run"); players per run "–" before a run."""
    t = page.totals
    average = round(t.participations / t.runs, 1) if t.runs else None
    runs = tr.ngettext("run", "runs", t.runs)
    # TRANSLATORS: a tile under the number of a group's runs that were played to the end.
    finished = tr.ngettext("finished", "finished", t.finished)
    members = tr.ngettext("member who answered", "members who answered", t.members)
    # An average: singular only for exactly one (ngettext counts whole numbers).
    per_run = tr.ngettext("player per run", "players per run", 1 if average == 1 else 2)
    tiles = [
        tile(runs, "runs", t.runs, tr.number(t.runs)),
        tile(finished, "finished", t.finished, tr.number(t.finished)),
        tile(members, "members", t.members, tr.number(t.members)),
        tile(per_run, "average", average, tr.number(average or 0)),
    ]
    return f'<div class="tiles">{"".join(tiles)}</div>'


def _weeks(tr: Translator, page: GroupPage) -> str:
    if not any(w.count for w in page.weeks):  # a new group: what to do, not two empty charts
        return way_on(tr, tr._("No runs in this group yet. /push in the group starts a quiz."))
    labels = [short_day(tr, w.start) for w in page.weeks]
    runs = charts.bars(
        [w.count for w in page.weeks],
        labels,
        tr._("Runs per week"),
        series=tr._("Runs started"),
        count=tr.number,
        tip=tip(tr),
    )
    players = charts.bars(
        [w.right for w in page.weeks],
        labels,
        tr._("Players per week"),
        series=tr._("Players, summed over runs"),
        count=tr.number,
        tip=tip(tr),
    )
    body = f'<div class="plots">{runs}{players}</div>'
    rows = [
        [
            esc(day(tr, w.start)),
            figure(f"runs-{w.start}", w.count, tr.number(w.count)),
            figure(f"players-{w.start}", w.right, tr.number(w.right)),
        ]
        for w in reversed(page.weeks)
        if w.count
    ]
    if rows:
        numbers = tr._("Numbers")
        head = [tr._("Week of"), tr._("Runs"), tr._("Players")]
        body += f"<details><summary>{esc(numbers)}</summary>{table(head, rows, key='weeks')}"
        body += "</details>"
    return body


def _questions(tr: Translator, page: GroupPage) -> str:
    if not page.hardest:
        return way_on(tr, tr._("No answers in this group yet. /push in the group starts a quiz."))
    return "".join(_question(tr, q) for q in page.hardest)


def _question(tr: Translator, hard: HardQuestion) -> str:
    lang = tr.lang
    q, s = hard.question, hard.stats
    share = tr._(
        "{percent} right of {n}", percent=tr.percent(s.overall.ratio), n=tr.number(s.overall.total)
    )
    right = q.correct_set or {q.correct}  # a select-all question's every right option
    options = "".join(
        f'<li class="{"ok" if i in right else ""}"><b>{LETTERS[i]}.</b> '
        f"{rich(o.text.get(lang))}</li>"
        for i, o in enumerate(q.options)
    )
    if q.typed:  # a number question: its key instead of options, no choices to count
        key = key_text(tr, q, lang)
        title = f"{hard.quiz.title.get(lang)} · {tr.number(hard.position + 1)}"
        rate = figure(f"rate-{q.id}", round(s.overall.ratio, 4), share)
        return (
            f'<article class="question" data-question="{esc(hard.quiz.id)}/{esc(q.id)}">'
            f"{heading(title, 3)}<p>{rich(plain(q.prompt.get(lang)))}</p>"
            f'<p class="rate">{rate}</p><p class="ok">✅ {esc(key)}</p></article>'
        )
    rows = []
    for code, counts in hard.chosen.items():
        label = language_label(tr, code)
        cells = [
            figure(f"chosen-{q.id}-{code}-{LETTERS[i]}", n, tr.number(n))
            for i, n in enumerate(counts)
        ]
        rows.append([esc(label), *cells, charts.choices(counts, right, label, tip(tr))])
    head = [tr._("Language"), *LETTERS[: len(q.options)], ""]
    # TRANSLATORS: in the legend of a bar of answers by option, beside the right option's letter.
    mark = tr._("right answer")
    title = f"{hard.quiz.title.get(lang)} · {tr.number(hard.position + 1)}"
    rate = figure(f"rate-{q.id}", round(s.overall.ratio, 4), share)
    return (
        f'<article class="question" data-question="{esc(hard.quiz.id)}/{esc(q.id)}">'
        f"{heading(title, 3)}<p>{rich(plain(q.prompt.get(lang)))}</p>"
        f'<p class="rate">{rate}</p><ol class="options">{options}</ol>'
        f"{table(head, rows, key=f'chosen-{q.id}')}"
        f"{charts.choices_key(len(q.options), right, mark)}</article>"
    )


def _standings(tr: Translator, page: GroupPage) -> str:
    """/top's all-time table (bot/core/standings.py ranks both): right answers, then time; the
    first `STANDINGS_SHOWN` places, so a group of thousands is not a page thousands of rows long
    on a phone (the section's CSV holds every member)."""
    if not page.standings:
        return empty(tr._("Nobody has answered yet."))
    former = tr._("a former member")  # /forget leaves group answers under a negative pseudonym
    rows = []
    for placed in page.standings[:STANDINGS_SHOWN]:
        m = placed.tally
        rank = tr.number(placed.rank) + ("=" if placed.shared else "")
        who = isolate(m.name) if m.user_id > 0 and m.name else former if m.user_id < 0 else "?"
        rows.append(
            [
                esc(rank),
                f'<span class="name">{esc(who)}</span>',
                figure(f"right-{m.user_id}", m.correct, tr.number(m.correct)),
                esc(tr.number(m.answered)),
                esc(tr.number(m.runs)),
            ]
        )
    head = ["#", tr._("Member"), tr._("Right"), tr._("Answers"), tr._("Runs")]
    more = len(page.standings) - STANDINGS_SHOWN
    rest = (
        para(tr.ngettext("…and {n} more player", "…and {n} more players", more)) if more > 0 else ""
    )
    return table(head, rows, key="standings") + rest


def _schedules(tr: Translator, page: GroupPage) -> str:
    zone = para(tr._("Times in {zone}.", zone=str(page.timezone)))
    if not page.upcoming:
        return empty(tr._("No quizzes are scheduled here. /schedule to add one.")) + zone
    items = "".join(_upcoming(tr, u, page) for u in page.upcoming)
    return f'<ul class="upcoming">{items}</ul>{zone}'


def _upcoming(tr: Translator, item: Upcoming, page: GroupPage) -> str:
    if item.quiz is not None:
        what = item.quiz.title.get(tr.lang)
    elif item.schedule.quiz == "random":
        what = tr._("a random quiz")
    elif item.schedule.quiz == "next":
        what = tr._("the next quiz in order")
    else:  # a quiz gone since: its id, as /schedules shows it
        what = item.schedule.quiz
    when = moment(tr, item.next_at, page.timezone)
    days = weekdays(tr, decode_days(item.schedule.days))
    return (
        f'<li data-schedule="{item.schedule.id}"><b>{esc(when)}</b> · {esc(what)}'
        f"<br><small>{esc(days)} · {esc(clock(tr, item.schedule.at_time))}</small></li>"
    )
