"""A command sent in the wrong kind of chat says where it works, instead of a generic hint
(privately) or silence (in a group); so does a command sent as a photo's or a file's caption
in a group (`CaptionCommand`), which no command handler reads.

Which commands live where is read from the command menus (`bot/tg/menus.py`: PRIVATE_ONLY and
GROUP_ONLY), so these replies and the menus cannot drift. A private-only command in a group is
answered in the sender's language with a t.me button that opens the private chat on that very
command (`/start cmd-<name>`, which `QuizBot` routes to the command's own handler).
"""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, Update
from telegram.ext import filters

from bot.i18n import Translator
from bot.tg.context import BotContext
from bot.tg.menus import PRIVATE_ONLY
from bot.tg.quiz_links import add_to_group_keyboard
from bot.tg.screen_render import Screen
from bot.usecases.learner_profile import Learner

Handler = Callable[[Update, BotContext], Awaitable[None]]
# bot/tg/member_replies.py's `say`: a member's reply where the group's courtesy rules put it
# (in the group, or privately while a run plays), `own_words` in the sender's language.
Say = Callable[..., Awaitable[None]]

# The deep-link payload that opens a command privately: "cmd-stats" runs /stats.
PAYLOAD_PREFIX = "cmd-"
# The /start such a link sends (a quiz id never matches it first: this handler is narrower).
DEEP_LINK = rf"^/start(@\w+)?\s+{PAYLOAD_PREFIX}({'|'.join(sorted(PRIVATE_ONLY))})\s*$"


class CaptionCommand(filters.MessageFilter):
    """A caption that starts with a command for this bot (unaddressed, or `@<this bot>`): a
    Telegram client marks it as a bot_command caption entity, and delivers it to a bot in
    privacy mode too, but PTB's CommandHandler reads only a message's text."""

    def filter(self, message: Message) -> bool:
        entities = message.caption_entities
        if not entities or entities[0].type != MessageEntity.BOT_COMMAND or entities[0].offset:
            return False
        _, _, addressee = (message.caption or "")[: entities[0].length].partition("@")
        return not addressee or addressee.lower() == (message.get_bot().username or "").lower()


def command_typed(update: Update) -> str:
    """The command as typed, without its arguments or @botname ("/stats")."""
    message = update.effective_message
    words = ((message.text or "") if message is not None else "").split()
    return (words[0] if words else "/").partition("@")[0]


class WrongChat:
    """The two replies, and the private handlers a deep link can open (filled by the app)."""

    def __init__(self, say: Say, greet: Callable[[Learner], Awaitable[object]]) -> None:
        self.say = say
        self.greet = greet  # the learners' `greet`, as /start's: this is a /start too
        self.openers: dict[str, Handler] = {}

    async def in_private(self, update: Update, context: BotContext) -> None:
        """A group-only command sent privately: it works in a group, and a button adds the bot
        to one."""
        message = update.effective_message
        if message is None:
            return
        tr = context.tr
        text = tr._(
            "{command} works in a group: add me to one, then send it there.",
            command=command_typed(update),
        )
        keyboard = add_to_group_keyboard(tr, context.bot.username)
        await message.reply_text(html.escape(text), reply_markup=keyboard)

    async def in_group(self, update: Update, context: BotContext) -> None:
        """A private-only command sent in a group: in the sender's language (it is theirs, not
        the group's business), with a button to the private chat that runs it there."""
        name = command_typed(update)
        link = f"https://t.me/{context.bot.username}"
        if name[1:].lower() in self.openers:
            link += f"?start={PAYLOAD_PREFIX}{name[1:].lower()}"

        def render(tr: Translator) -> Screen:
            text = tr._("{command} works in a private chat with me, not in a group.", command=name)
            keyboard = InlineKeyboardMarkup(
                [[InlineKeyboardButton(tr._("💬 Open a private chat with me"), url=link)]]
            )
            return Screen(html.escape(text), keyboard)

        await self.say(update, context, render, own_words=True)

    async def in_caption(self, update: Update, context: BotContext) -> None:
        """A command as a photo's or a file's caption in a group (/upload with a file was taken
        before): not run, since a picture captioned /stop is more likely a joke than a wish to
        end the quiz, and answered with how to send it, in the sender's language."""
        message = update.effective_message
        if message is None:
            return
        words = (message.caption or "").split()
        name = (words[0] if words else "/").partition("@")[0]

        def render(tr: Translator) -> Screen:
            if message.document is not None:
                text = tr._("{command} in a file's caption is not read: send it as a message "
                            "of its own.", command=name)  # fmt: skip
            else:
                text = tr._("{command} in a photo's caption is not read: send it as a message "
                            "of its own.", command=name)  # fmt: skip
            return Screen(html.escape(text))

        await self.say(update, context, render, own_words=True)

    async def opened(self, update: Update, context: BotContext) -> None:
        """`/start cmd-<name>` (the button above): run that private command, without arguments.

        It is how the private chat starts when a member taps the button, so the learner is
        greeted as by /start: from then on the bot may write to them (a group's review notice)."""
        await self.greet(context.learner)
        payload = context.args[0] if context.args else ""
        handler = self.openers.get(payload.removeprefix(PAYLOAD_PREFIX))
        if handler is not None:
            context.args = []
            await handler(update, context)
