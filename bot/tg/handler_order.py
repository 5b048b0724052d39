"""Every handler of the bot, registered in the order PTB tries them (`register_handlers`).

PTB runs at most one handler per group: in group 0 the first whose `check_update` matches takes
the update, so order matters wherever two handlers could match the same update (a deep link's
/start before plain /start, a startgroup link's before a group's /start, the hint last).

Button taps come first. A `CallbackQueryHandler` matches only callback queries, and no other
handler here matches one: every command and message handler has a message filter (a chat
type, a status update), which PTB checks on `update.message` (or a channel post, an edit), never
on the message under a tapped button; the inline and member handlers read other fields. So
their place changes which handler takes no update, and a tap, most of what a bot receives, is
matched in one or two checks instead of forty-odd (14.6 µs per tap; BENCHMARKS.md, issue 32).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from telegram import Update
from telegram.constants import UpdateType
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    BaseHandler,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.tg.buttons import ButtonRouter
from bot.tg.channel_handlers import ChannelHandlers, ChannelMembership
from bot.tg.context import LearnerResolver
from bot.tg.flood_handlers import PrivateFloods
from bot.tg.forget_handlers import CALLBACK_PATTERN as FORGET_CALLBACKS
from bot.tg.forget_handlers import ForgetHandlers
from bot.tg.group_answer_handlers import GroupAnswerHandlers
from bot.tg.group_handlers import GroupHandlers
from bot.tg.member_replies import CourtesyReplies
from bot.tg.menus import GROUP_ONLY, PRIVATE_ONLY
from bot.tg.number_handlers import TypedReplies
from bot.tg.owner import OwnerHandlers
from bot.tg.practice_handlers import PracticeHandlers
from bot.tg.private_handlers import PrivateHandlers
from bot.tg.progress_handlers import ProgressHandlers
from bot.tg.reminder_handlers import ReminderHandlers
from bot.tg.rounds_handlers import RoundHandlers
from bot.tg.share_handlers import GROUP_START_WITH_QUIZ, ShareHandlers
from bot.tg.standings_handlers import StandingsHandlers
from bot.tg.topic_handlers import TopicHandlers
from bot.tg.upload_handlers import UploadCaption, UploadHandlers
from bot.tg.wrong_chat_handlers import DEEP_LINK, CaptionCommand, WrongChat

# The update types the handlers act on (below), and no other: Telegram sends
# what a bot asks for, and an administrator bot asking for every type would be sent every
# reaction, edit, join request and boost of its groups, each read and dropped. chat_member is
# asked for by name (Telegram leaves it out unless asked): it is how an administrator bot
# learns departures in groups that hide service messages. Edits are left out: the bot acts on
# none (`edit_ignored`, should one come anyway).
ALLOWED_UPDATES: list[str] = [
    UpdateType.MESSAGE,
    UpdateType.CALLBACK_QUERY,
    UpdateType.INLINE_QUERY,
    UpdateType.MY_CHAT_MEMBER,
    UpdateType.CHAT_MEMBER,
]
log = logging.getLogger(__name__)
App = Application[Any, Any, Any, Any, Any, Any]
Callback = Callable[[Update, Any], Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Handlers:
    """What `register_handlers` adds, built once by `QuizBot._make_handlers`
    (bot/tg/handler_set.py)."""

    drop_repeated: Callback  # group -2: an update delivered again is handled once
    floods: PrivateFloods | None  # group -1: a burst in a private chat held (core/bursts.py)
    resolver: LearnerResolver  # group -1: the sender and their language
    buttons: ButtonRouter
    forget: ForgetHandlers
    private: PrivateHandlers
    stop: Callback  # /stop in private: a round, an exam or the quiz (QuizBot.stop_command)
    wrong_chat: WrongChat
    owner: OwnerHandlers
    courtesy: CourtesyReplies  # its `guard` wraps every group command
    upload: UploadHandlers
    group: GroupHandlers
    channels: ChannelHandlers  # the bot added to a channel: it leaves
    group_answers: GroupAnswerHandlers
    topics: TopicHandlers  # a forum topic's name, created or renamed
    share: ShareHandlers
    standings: StandingsHandlers
    progress: ProgressHandlers
    rounds: RoundHandlers
    reminders: ReminderHandlers
    practice: PracticeHandlers
    typed_replies: TypedReplies


def register_handlers(app: App, h: Handlers) -> None:
    """Add every handler in `h` to `app`, in order."""
    # Group -2 runs before every handler: an update Telegram delivers again (a webhook
    # retry, a poller that died before confirming it) is handled once.
    app.add_handler(TypeHandler(Update, h.drop_repeated), group=-2)
    # Group -1: an edit stops here (`edit_ignored`), as does a private message past its
    # sender's burst (`floods`); else who sent the update and their language, once for every
    # handler after it (PTB runs one handler per group).
    app.add_handler(MessageHandler(filters.UpdateType.EDITED, edit_ignored), group=-1)
    app.add_handler(UnaskedKind(), group=-1)
    # A private message past its sender's burst: one notice, then dropped, before any lookup.
    if h.floods is not None:
        app.add_handler(h.floods, group=-1)
    app.add_handler(TypeHandler(Update, h.resolver), group=-1)
    # Group 0, first: button taps (see the module's docstring). /forget's confirmation buttons
    # before the router, which takes every other button, whatever its chat.
    app.add_handler(CallbackQueryHandler(h.forget.callback, pattern=FORGET_CALLBACKS))
    app.add_handler(CallbackQueryHandler(h.buttons))
    _private_commands(app, h)
    _group_handlers(app, h)
    _progress_commands(app, h)
    _last(app, h)


async def edit_ignored(update: Update, context: object) -> None:
    """An edited message (or channel post) is not a new one: Telegram sends the edit of any text
    the bot saw, days later if the user likes, and PTB's command and message handlers take edits
    too. Acting on it would run an old /stop against the quiz open now, or take an old text as
    the answer to the question open now; so the bot acts on new messages only."""
    message = update.effective_message
    where = message.chat_id if message is not None else "?"
    log.info("edited message in %s: not acted on", where)
    raise ApplicationHandlerStop


class UnaskedKind(BaseHandler[Update, Any, None]):
    """Group -1: an update of a type the bot never asks for (`ALLOWED_UPDATES`), should one
    come anyway (a webhook set by another tool, an update the poller could not read and left
    bare: bot/tg/wire/polling.py, a type newer than PTB): no handler takes it, so it stops
    here, deliberately, in one debug line, before the sender is looked up."""

    def __init__(self) -> None:
        super().__init__(self._ignored)

    def check_update(self, update: object) -> bool:
        return isinstance(update, Update) and not any(
            getattr(update, kind) is not None for kind in ALLOWED_UPDATES
        )

    @staticmethod
    async def _ignored(update: Update, context: object) -> None:
        kinds = [k for k, v in update.to_dict().items() if k != "update_id" and v is not None]
        log.debug("update %d (%s): of a type the bot does not act on", update.update_id,
                  ", ".join(kinds) or "nothing")  # fmt: skip
        raise ApplicationHandlerStop


def _private_commands(app: App, h: Handlers) -> None:
    private, chat = h.private, filters.ChatType.PRIVATE
    # A command's deep link back here from a group (/start cmd-stats) runs the command,
    # before /start takes it.
    deep_link = chat & filters.Regex(re.compile(DEEP_LINK, re.IGNORECASE))
    app.add_handler(CommandHandler("start", h.wrong_chat.opened, filters=deep_link))
    app.add_handler(CommandHandler("start", private.start, filters=chat))
    app.add_handler(CommandHandler("quizzes", private.quizzes, filters=chat))
    app.add_handler(CommandHandler("stop", h.stop, filters=chat))
    app.add_handler(CommandHandler("language", private.language, filters=chat))
    app.add_handler(CommandHandler("help", private.help, filters=chat))
    app.add_handler(CommandHandler("reload", h.owner.reload, filters=chat))


def _group_handlers(app: App, h: Handlers) -> None:
    """Study groups: every handler filtered to groups (uploads also in private)."""
    upload, group, guard = h.upload, h.group, h.courtesy.guard
    groups, private_chat = filters.ChatType.GROUPS, filters.ChatType.PRIVATE
    caption = UploadCaption()
    app.add_handler(
        MessageHandler(private_chat & filters.Document.ALL & caption, upload.upload_private)
    )
    app.add_handler(CommandHandler("upload", upload.upload_private, filters=private_chat))
    # Every group command goes through `guard`: a member's reply is a courtesy reply, decided
    # before the command runs (bot/core/courtesy.py) and sent after the run's own sends.
    # Upload answers are worded in the uploader's language, refusals too.
    in_group_upload = guard("upload", upload.upload, admins_only=True, own_words=True)
    app.add_handler(MessageHandler(groups & filters.Document.ALL & caption, in_group_upload))
    # Any other command as a caption (a photo captioned /top): how to send it, not silence.
    in_caption = guard("caption", h.wrong_chat.in_caption)
    app.add_handler(MessageHandler(groups & CaptionCommand(), in_caption))
    for name, callback in [
        ("quizzes", upload.quizzes),
        ("deletequiz", upload.deletequiz),
        ("upload", upload.upload),
    ]:
        command = guard(name, callback, admins_only=True, own_words=name == "upload")
        app.add_handler(CommandHandler(name, command, filters=groups))
    # The bot added to a channel leaves it (channel_handlers.py); to a group, it says how to play.
    app.add_handler(ChannelMembership(h.channels))
    app.add_handler(ChatMemberHandler(group.my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    # Replies answer a number question; a number sent without one gets a hint (its filter
    # is every text: the handler looks further only at what reads as a number).
    typed = h.group_answers
    app.add_handler(MessageHandler(groups & filters.TEXT & ~filters.COMMAND, typed.reply))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, group.migrated))
    # A forum topic's name, told only when it is created or renamed (kept for /schedules).
    named = filters.StatusUpdate.FORUM_TOPIC_CREATED | filters.StatusUpdate.FORUM_TOPIC_EDITED
    app.add_handler(MessageHandler(named, h.topics.named))
    for name, callback in [
        ("push", group.push),
        ("quiz", group.quiz),
        ("stop", group.stop),
        ("settings", group.settings),
        ("timezone", group.timezone),
        ("schedule", group.schedule),
        ("schedules", group.schedules),
        ("unschedule", group.unschedule),
    ]:
        command = guard(name, callback, admins_only=True)
        app.add_handler(CommandHandler(name, command, filters=groups))
    # The bot added by a startgroup link: `/start@bot <quiz id>` (before plain /start).
    share = h.share
    with_quiz = groups & filters.Regex(re.compile(GROUP_START_WITH_QUIZ, re.IGNORECASE))
    app.add_handler(
        CommandHandler("start", guard("start-quiz", share.group_start), filters=with_quiz)
    )
    app.add_handler(InlineQueryHandler(share.inline_query))  # `@bot words` in any chat
    for name in ("help", "start"):  # the same answer: the same command for the rules
        app.add_handler(CommandHandler(name, guard("help", group.help), filters=groups))
    # /top and /me in groups, members leaving or joining.
    standings = h.standings
    app.add_handler(CommandHandler("top", guard("top", standings.top), filters=groups))
    app.add_handler(CommandHandler("me", guard("me", standings.me), filters=groups))
    members = filters.StatusUpdate.LEFT_CHAT_MEMBER | filters.StatusUpdate.NEW_CHAT_MEMBERS
    app.add_handler(MessageHandler(members, standings.membership))
    app.add_handler(ChatMemberHandler(standings.chat_member, ChatMemberHandler.CHAT_MEMBER))


def _progress_commands(app: App, h: Handlers) -> None:
    """/stats, /review, /remind, /timezone in private, /groupstats in groups."""
    private, groups = filters.ChatType.PRIVATE, filters.ChatType.GROUPS
    progress, rounds = h.progress, h.rounds
    app.add_handler(CommandHandler("stats", progress.stats, filters=private))
    app.add_handler(CommandHandler("review", rounds.review, filters=private))
    groupstats = h.courtesy.guard("groupstats", progress.groupstats, admins_only=True)
    app.add_handler(CommandHandler("groupstats", groupstats, filters=groups))
    # /timezone and /remind in private (a group's /timezone is the group handlers').
    reminders = h.reminders
    app.add_handler(CommandHandler("remind", reminders.remind, filters=private))
    app.add_handler(CommandHandler("timezone", reminders.timezone, filters=private))


def _last(app: App, h: Handlers) -> None:
    """/forget, /practice, /exam, commands in the wrong chat, then whatever is left."""
    chat = filters.ChatType.PRIVATE
    app.add_handler(CommandHandler("forget", h.forget.command, filters=chat))
    practice = h.practice
    app.add_handler(CommandHandler("practice", practice.practice, filters=chat))
    app.add_handler(CommandHandler("exam", practice.exam, filters=chat))
    app.add_handler(CommandHandler(GROUP_ONLY, h.wrong_chat.in_private, filters=chat))
    # In a group, behind the courtesy rules like every group command (one topic for all:
    # a member trying /stats, /review, /exam in a row gets the pointer once a minute).
    in_group = h.courtesy.guard("private-only", h.wrong_chat.in_group)
    app.add_handler(CommandHandler(PRIVATE_ONLY, in_group, filters=filters.ChatType.GROUPS))
    # A text that is no command: the answer to an open number question (a quiz's, or a
    # review card's), else a waiting report's sentence, else handed on (the hint below).
    app.add_handler(MessageHandler(chat & filters.TEXT & ~filters.COMMAND, h.typed_replies.reply))
    # A file without /upload as its caption (one with it was taken above): how to upload it.
    app.add_handler(MessageHandler(chat & filters.Document.ALL, h.upload.file_private))
    # Last: anything else said or sent privately (a sticker, a photo, a voice note...) gets a
    # hint rather than silence; a service message is no one speaking to the bot.
    app.add_handler(MessageHandler(chat & ~filters.StatusUpdate.ALL, h.private.unknown))
