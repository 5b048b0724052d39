"""The sandbox's inline mode and add-to-group link, as README's "Passing a quiz on" describes
them: `:inline WORDS` lists what `@bot WORDS` would offer, `:inline #N` posts result N here via
the bot, and `:addvia QUIZ` adds the bot to the study group by a `startgroup=QUIZ` link."""

from __future__ import annotations

from bot.emulator import InlineAnswer, TapTimeout
from bot.sandbox import terminal
from bot.sandbox.session import Session

# The last list `:inline WORDS` showed, per session: what `:inline #N` picks from.
_shown: dict[int, InlineAnswer] = {}


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
    _shown[id(session)] = answer
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
    answer = _shown.get(id(session))
    if answer is None or not 1 <= number <= len(answer.results):
        session.display.emit(terminal.note("no such result: :inline WORDS lists them first"))
        return
    result_id = str(answer.results[number - 1]["id"])
    target = None if session.chat.type == "private" else session.chat
    posted = await session.me.post_inline(answer, result_id, chat=target)
    name, bot = session.me.state.first_name, session.emu.bot["username"]
    body = terminal.html_to_text(posted.html or posted.text, tty=session.display.tty)
    keyboard, _ = terminal.keyboard_lines(posted.buttons)
    session.display.emit(terminal.bubble(f"#{posted.message_id} {name} via @{bot}", body, keyboard))


async def addvia(session: Session, quiz: str) -> None:
    """`:addvia QUIZ`: as the study group's creator, open `t.me/<bot>?startgroup=QUIZ` and pick
    the group (the bot is added first if it is not in yet); Telegram sends the /start."""
    await session.enter_group()
    assert session.group is not None
    you = session.user("You")
    session.switch_user(you)
    session.display.emit(
        terminal.note(f"You open t.me/{session.emu.bot['username']}?startgroup={quiz}")
    )
    await session.emu.add_bot_via_link(session.group, quiz, by=you)
    await session.settle()
