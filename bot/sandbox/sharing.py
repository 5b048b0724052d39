"""The sandbox's inline mode and add-to-group link, as README's "Passing a quiz on" describes
them: `:inline WORDS` lists what `@bot WORDS` would offer, `:inline #N` posts result N here via
the bot, and `:addvia QUIZ` adds the bot to the study group by a `startgroup=QUIZ` link. A tapped
button that links to the bot (`t.me/<bot>?start=...` or `?startgroup=...`) is followed here as
Telegram's client follows it, so a shared card can be tried from the other side."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bot.emulator import Button, InlineAnswer, SimUser, TapTimeout
from bot.sandbox import terminal
from bot.sandbox.display import Keyboard
from bot.sandbox.session import GROUP_TITLE, Session

# The last list `:inline WORDS` showed, per session and person: what `:inline #N` picks from
# (inline results are personal, in the asker's language, as Telegram keeps them).
_shown: dict[tuple[int, int], InlineAnswer] = {}


async def inline(session: Session, words: str) -> None:
    """`:inline WORDS`: the bot's inline answer, numbered; `:inline #N`: post result N here."""
    assert session.me is not None and session.chat is not None
    say = session.display.emit
    picked = words.strip()
    if picked.startswith("#") and picked[1:].isdigit():
        await _post(session, int(picked[1:]))
        return
    kind = "sender" if session.chat.type == "private" else session.chat.type
    try:
        answer = await session.me.inline(words, chat_type=kind, timeout=session.options.settle_cap)
    except TapTimeout:
        say(terminal.note("the bot did not answer the inline query"))
        return
    _shown[(id(session), session.me.id)] = answer
    if not answer.results:
        say(terminal.note(f"@{session.emu.bot['username']} {words}: no results"))
        return
    lines = [f"  [{n}] {r.get('title')} · {r.get('description', '')}"
             for n, r in enumerate(answer.results, 1)]  # fmt: skip
    say(terminal.note(f"@{session.emu.bot['username']} {words[:40]} offers:"))
    say("\n".join(lines))
    say(terminal.note(":inline #N posts result N in this chat"))


async def _post(session: Session, number: int) -> None:
    assert session.me is not None and session.chat is not None
    answer = _shown.get((id(session), session.me.id))
    if answer is None or not 1 <= number <= len(answer.results):
        session.display.emit(terminal.note("no such result: :inline WORDS lists them first"))
        return
    result_id = str(answer.results[number - 1]["id"])
    target = None if session.chat.type == "private" else session.chat
    posted = await session.me.post_inline(answer, result_id, chat=target)
    name, bot = session.me.state.first_name, session.emu.bot["username"]
    body = terminal.html_to_text(posted.html or posted.text, tty=session.display.tty)
    keyboard, flat = terminal.keyboard_lines(posted.buttons)
    session.display.emit(terminal.bubble(f"#{posted.message_id} {name} via @{bot}", body, keyboard))
    if flat:  # the numbers just shown are the ones a typed number taps now
        shown = Keyboard(posted.chat_id, posted.message_id, tuple(flat))
        session.display.keyboards[(posted.chat_id, posted.thread_id)] = shown


async def addvia(session: Session, quiz: str, by: SimUser | None = None) -> None:
    """`:addvia QUIZ`: as the study group's creator (or `by`), open
    `t.me/<bot>?startgroup=QUIZ` and pick the group (the bot is added first if it is not in
    yet); Telegram sends the /start."""
    person = by or session.user("You")
    session.switch_user(person)
    await session.enter_group()
    assert session.group is not None
    name = person.state.first_name
    session.display.emit(terminal.note(
        f"{name} {terminal.verb(name, 'open')} https://t.me/{session.emu.bot['username']}"
        f"?startgroup={quiz} and {terminal.verb(name, 'pick')} {GROUP_TITLE}"
    ))  # fmt: skip
    await session.emu.add_bot_via_link(session.group, quiz, by=person)
    await session.settle()


async def follow(session: Session, button: Button) -> bool:
    """Follow a button's link to the bot as Telegram's client does, and say so: `?start=X`
    opens the private chat with the bot, whose START sends `/start X`; `?startgroup=X` adds
    the bot to a group the person picks (here, the study group). False: not such a link."""
    assert session.me is not None
    parts = urlsplit(button.url or "")
    if parts.netloc != "t.me" or parts.path.strip("/") != session.emu.bot["username"]:
        return False
    query = parse_qs(parts.query)
    person = session.me
    if "startgroup" in query:
        await addvia(session, query["startgroup"][0], by=person)
        return True
    payload = query.get("start", [""])[0]
    name = person.state.first_name
    session.display.emit(terminal.note(f"{name} {terminal.verb(name, 'open')} {button.url}"))
    session.enter_private()
    await session.say(f"/start {payload}".rstrip())
    await session.settle()
    return True
