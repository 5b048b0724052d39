"""What a typed line means: a `:` command for the sandbox, a button to tap, or a message to send.

Kept apart from the session so the little language the person types is in one place, next to
the help text that documents it.
"""

from __future__ import annotations

from pathlib import Path

from bot.emulator import Button, EmuMessage
from bot.sandbox import sharing, terminal
from bot.sandbox.session import TOPIC_NAME_MAX, Session

HELP = """\
Type to chat with the bot; a button's number (or its label) taps it on the latest keyboard
(a t.me link to the bot is followed: ?start= in your private chat, ?startgroup= in the group).
  :tap N.M            tap button M of message #N (each bot message shows its #N)
  :reply N TEXT       send TEXT as a reply to message #N (a group's number answer needs one)
  :menu               the command menu a phone shows on "/" here
  :user NAME [lang]   be someone else (created on first use; lang: en, fr, wo, ...)
  :group              go to the study group (You: creator; Moussa and Claire: members)
  :topic NAME         go to topic NAME of the study forum, a supergroup with topics (made on
                      first use); :topic alone: its General, and the topics there
  :rename NEW NAME    rename the forum topic you are in (as You, its creator)
  :private            back to your private chat with the bot
  :as NAME LINE       do LINE once as NAME here, then come back (e.g. :as Moussa 2)
  :say TEXT           send TEXT as a message even if it looks like a button
  :upload PATH        send a local quiz file here with /upload (YAML, GIFT, Aiken, CSV,
                      Moodle XML, a QTI .zip, an Anki .apkg: try examples/)
  :dashboard          a link to the Mini App dashboard as you (in the group: the group's page)
  :inline WORDS       what typing "@bot WORDS" here offers; :inline #N posts result N here
  :addvia QUIZ        add the bot to the study group by its t.me/...?startgroup=QUIZ link
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
        await _tap(session, *target)
    else:
        if text.isdigit():
            _not_a_button(session, text)
        await session.say(text)
    await session.settle()


async def _tap(session: Session, message: EmuMessage, button: Button) -> None:
    """Tap a button; one that links to the bot is followed (bot/sandbox/sharing.py)."""
    if not await sharing.follow(session, button):
        await session.tap(message, button)


def _not_a_button(session: Session, typed: str) -> None:
    """A typed number that matches no button on screen is said to be sent as text (it may be a
    number answer), with how to reach another message's buttons."""
    assert session.chat is not None
    shown = session.display.keyboards.get((session.chat.id, session.thread))
    if shown is None or session.asks_for_reply():
        return
    session.display.emit(
        terminal.note(
            f"{typed} is no button here (the latest keyboard, on #{shown.message_id}, has 1-"
            f"{len(shown.buttons)}): sent as a message; :tap N.M taps another message's button"
        )
    )


def _message_button(session: Session, spec: str) -> tuple[EmuMessage, Button] | str:
    """ "12.3" (or "12 3"): button 3 of message #12 in this chat, or why there is none."""
    number, _, position = spec.replace(" ", ".").partition(".")
    if not (number.isdigit() and position.isdigit()):
        return "usage: :tap N.M (button M of message #N), e.g. :tap 12.3"
    message = session.message(int(number))
    if message is None:
        return f"no message #{number} from the bot in this chat"
    _, buttons = terminal.keyboard_lines(message.buttons)
    if not buttons:
        return f"message #{number} has no buttons now"
    if not 1 <= int(position) <= len(buttons):
        return f"message #{number} has buttons 1-{len(buttons)}, not {position}"
    return message, buttons[int(position) - 1]


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
        case "topic":
            if len(rest.strip()) > TOPIC_NAME_MAX:
                say(terminal.note(f"a topic's name has at most {TOPIC_NAME_MAX} characters"))
                return
            await session.enter_topic(" ".join(args))
            await session.settle()
            say(terminal.note(f"you are now {session.where()}"))
            if not args:
                say(terminal.note(f"topics: {', '.join(session.topics())} (:topic NAME goes in)"))
        case "rename":
            refused = session.rename_topic(" ".join(args))
            if refused is not None:
                say(terminal.note(refused))
                return
            await session.settle()
        case "private" | "p":
            session.enter_private()
            say(terminal.note(f"you are now {session.where()}, in your private chat"))
        case "as" if len(args) >= 2:
            before, where, thread = session.me, session.chat, session.thread
            assert before is not None and where is not None
            # What the bot says in their private chat (switch_user goes there from yours, a
            # link they follow too) is headed "→ NAME (private)": it is not your own chat.
            visiting, session.visiting = session.visiting, True
            try:
                session.switch_user(session.user(args[0]))
                await handle(session, rest.split(maxsplit=1)[1])
            finally:
                session.visiting = visiting
                session.come_back(before, where, thread)
        case "tap" | "t" if args:
            found = _message_button(session, " ".join(args))
            if isinstance(found, str):
                say(terminal.note(found))
                return
            await _tap(session, *found)
            await session.settle()
        case "reply" | "r" if len(args) >= 2 and args[0].lstrip("#").isdigit():
            message = session.message(int(args[0].lstrip("#")))
            if message is None:
                say(terminal.note(f"no message #{args[0].lstrip('#')} from the bot in this chat"))
                return
            await session.reply(message, rest.split(maxsplit=1)[1])
            await session.settle()
        case "menu" | "m":
            listed = [f"  /{name} - {description}" for name, description in session.menu()]
            say(terminal.note(f'the command menu ("/" on a phone) as {session.where()} sees it:'))
            say("\n".join(listed) if listed else terminal.note("(no menu here)"))
        case "dashboard" | "d":
            say(terminal.note(f"open in a browser: {session.dashboard_url()}"))
        case "upload" if rest:
            path = Path(rest.strip()).expanduser()
            if not path.is_file():
                say(terminal.note(f"no file at {path}"))
                return
            name = session.me.state.first_name if session.me else ""
            say(
                terminal.note(
                    f"{name} {terminal.verb(name, 'send')} "
                    f"{path.name} ({path.stat().st_size} bytes) with /upload"
                )
            )
            await session.upload(path)
            await session.settle()
        case "inline" | "i":
            await sharing.inline(session, rest)
            await session.settle()
        case "addvia" if args:
            await sharing.addvia(session, args[0])
        case "say" if rest:
            await session.say(rest)
            await session.settle()
        case _:
            say(terminal.note(f"unknown or incomplete command :{text}; :help lists them"))
