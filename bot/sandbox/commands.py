"""What a typed line means: a `:` command for the sandbox, a button to tap, or a message to send.

Kept apart from the session so the little language the person types is in one place, next to
the help text that documents it.
"""

from __future__ import annotations

from pathlib import Path

from bot.sandbox import terminal
from bot.sandbox.session import Session

HELP = """\
Type to chat with the bot; a button's number (or its label) taps it.
  :user NAME [lang]   be someone else (created on first use; lang: en, fr, wo, ...)
  :group              go to the study group (You: creator; Moussa and Claire: members)
  :private            back to your private chat with the bot
  :as NAME LINE       do LINE once as NAME here, then come back (e.g. :as Moussa 2)
  :say TEXT           send TEXT as a message even if it looks like a button
  :upload PATH        send a local quiz file (YAML, GIFT, Aiken, CSV) here with /upload
  :dashboard          a link to the Mini App dashboard as you (in the group: the group's page)
  :help               this list
  :quit               leave (Ctrl-D works too)
Try /start, then /help for the bot's own commands."""


class Quit(Exception):
    """The person asked to leave."""


async def handle(session: Session, line: str) -> None:
    """Act on one typed line; raises Quit on :quit."""
    text = line.strip()
    if not text:
        return
    if text.startswith(":") and not text.startswith("::"):
        await command(session, text[1:])
        return
    if text.startswith("::"):
        text = text[1:]  # "::x" sends ":x"
    target = session.button(text)
    if target is not None:
        await session.tap(*target)
    else:
        await session.say(text)
    await session.settle()


async def command(session: Session, text: str) -> None:
    name, _, rest = text.partition(" ")
    args = rest.split()
    say = session.display.emit
    match name.lower():
        case "quit" | "q" | "exit":
            raise Quit
        case "help" | "h" | "?":
            say(HELP)
        case "user" | "u" if 1 <= len(args) <= 2:
            session.switch_user(session.user(args[0], args[1] if len(args) > 1 else None))
            lang = session.me.language_code if session.me else None
            say(terminal.note(f"you are now {session.where()} (language {lang})"))
        case "group" | "g":
            await session.enter_group()
            await session.settle()
            say(terminal.note(f"you are now {session.where()}"))
        case "private" | "p":
            session.enter_private()
            say(terminal.note(f"you are now {session.where()}, in your private chat"))
        case "as" if len(args) >= 2:
            before = session.me
            assert before is not None
            session.switch_user(session.user(args[0]))
            try:
                await handle(session, rest.split(maxsplit=1)[1])
            finally:
                session.me = before
        case "dashboard" | "d":
            say(terminal.note(f"open in a browser: {session.dashboard_url()}"))
        case "upload" if rest:
            path = Path(rest.strip()).expanduser()
            if not path.is_file():
                say(terminal.note(f"no file at {path}"))
                return
            say(
                terminal.note(
                    f"{session.me.state.first_name if session.me else ''} sends "
                    f"{path.name} ({path.stat().st_size} bytes) with /upload"
                )
            )
            await session.upload(path)
            await session.settle()
        case "say" if rest:
            await session.say(rest)
            await session.settle()
        case _:
            say(terminal.note(f"unknown or incomplete command :{text}; :help lists them"))
