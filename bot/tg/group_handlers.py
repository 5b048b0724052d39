"""Handlers of study groups: membership, admin commands and settings buttons.

Admin commands are checked before anything else (creator, administrator, or an anonymous admin
posting as the group); refusals and everything posted in the group use the group's language,
while popups use the language of the member who tapped. Each handler calls one use case and
renders its outcome. Members' answers in a run are `group_answer_handlers.py`.
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime

from telegram import CallbackQuery, Chat, InlineKeyboardMarkup, Message, Update
from telegram.error import BadRequest

from bot.core.models import Catalog
from bot.core.schedule import parse_listed
from bot.i18n import Translator, translator
from bot.store import GroupSettings
from bot.tg import callbacks as cb
from bot.tg import group_render as gr
from bot.tg import group_run_render, group_schedule_render
from bot.tg.context import BotContext
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.member_replies import Say
from bot.tg.private_render import unknown_zone, zone_label
from bot.tg.quiz_links import PLAIN_GROUP_START
from bot.tg.screen_render import Screen, button, typed_back
from bot.tg.screen_send import acknowledge
from bot.tg.topics import reply_thread, topic_name
from bot.tg.upload_render import BUTTON_KEYS as UPLOAD_KEYS
from bot.usecases import group_runs as runs
from bot.usecases import group_schedules as sched
from bot.usecases import group_settings as gs
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.group_admins import AdminCache
from bot.usecases.learner_profile import Learner

log = logging.getLogger(__name__)
Context = BotContext
# (the tap, chat id, key, value, tapper, the group's translator): the upload handler answers
# the tap itself (a replace choice may be someone else's, or spent).
UploadButtons = Callable[[CallbackQuery, int, str, str, Learner, Translator], Awaitable[None]]
IN_GROUP = frozenset({"member", "administrator", "creator", "restricted"})
# Whether the how-to is due (chat id, just added): bot/usecases/group_courtesy.py.
Welcome = Callable[[int, bool], Awaitable[bool]]
_PLAIN_GROUP_START = re.compile(PLAIN_GROUP_START, re.IGNORECASE)


class GroupHandlers(ServesCatalog):
    def __init__(
        self,
        settings: gs.GroupSettingsCases,
        runs_: runs.GroupRuns,
        schedules: sched.GroupSchedules,
        runner: GroupRunner,
        admins: AdminCache,
        catalog: Catalog | CatalogRef,
    ) -> None:
        self.settings_ = settings
        self.runs = runs_
        self.schedules_ = schedules
        self.runner = runner
        self.admins = admins
        self._catalog_ref = catalog_ref(catalog)
        # The group's own quizzes' buttons (schedule hint, delete confirmation): set by uploads.
        self.upload_buttons: UploadButtons | None = None
        # Whoever adds the bot is seen in the group (chat id, user id): set by uploads.
        self.on_added: Callable[[int, int], Awaitable[None]] | None = None
        # Replies to members' commands (bot/tg/member_replies.py); set by the app.
        self.say: Say | None = None
        # Whether the how-to is due; set by the app (none: always).
        self.welcome: Welcome | None = None
        # A group's forum topics' names as last heard, by thread id; set by the app.
        self.topic_names: Callable[[int], Awaitable[Mapping[int, str]]] | None = None

    async def _admin_command(
        self, update: Update
    ) -> tuple[Message, Chat, GroupSettings, Translator] | None:
        """The message, chat, settings and translator when an admin sent it; else refuse."""
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None:
            return None
        user = message.from_user
        settings = await self.settings_.settings(
            chat.id, chat.title or "", user.language_code if user else None
        )
        tr = translator(settings.language)
        sender_chat = message.sender_chat.id if message.sender_chat else None
        if not await self.admins.is_admin(chat.id, user.id if user else 0, sender_chat):
            await self._say(chat.id, tr._("Sorry, only the group's admins can do that."))
            return None
        return message, chat, settings, tr

    async def _say(self, chat_id: int, content: str | Screen) -> None:
        await self.runner.send(chat_id, Screen(content) if isinstance(content, str) else content)

    # -- membership -------------------------------------------------------------------------

    async def my_chat_member(self, update: Update, context: Context) -> None:
        change = update.my_chat_member
        if change is None or change.chat.type not in (Chat.GROUP, Chat.SUPERGROUP):
            return
        chat = change.chat
        was_in = change.old_chat_member.status in IN_GROUP
        now_in = change.new_chat_member.status in IN_GROUP
        if now_in and not was_in:
            if self.on_added is not None:
                await self.on_added(chat.id, change.from_user.id)
            settings = await self.settings_.settings(
                chat.id, chat.title or "", change.from_user.language_code
            )
            if self.welcome is not None:
                await self.welcome(chat.id, True)  # remembered: the link's /start follows
            tr = translator(settings.language)
            await self._say(chat.id, gr.how_to(tr))
            # Back after a removal: what stopped then is said once, not restarted unasked
            # (the admins may have removed the bot to stop it).
            if stopped := await self.schedules_.stopped(chat.id):
                own = self.runs.own_quizzes(chat.id)
                text = group_schedule_render.stopped_schedules(tr, self.catalog, stopped, own)
                await self._say(chat.id, text)
        elif was_in and not now_in:
            await self.runner.removed(chat.id)

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup: its settings, schedules and history follow it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            await self.runner.migrated(message.chat_id, message.migrate_to_chat_id)
        elif message.migrate_from_chat_id:
            await self.runner.migrated(message.migrate_from_chat_id, message.chat_id)

    async def help(self, update: Update, context: Context) -> None:
        """/help and /start in a group: how the bot works here (a member's: a courtesy reply)."""
        chat, message = update.effective_chat, update.effective_message
        if chat is None:
            return
        if (
            message is not None
            and _PLAIN_GROUP_START.match(message.text or "")
            and self.welcome is not None
            and not await self.welcome(chat.id, False)
        ):
            # "➕ Add me to a group": the bot posted its how-to on joining a moment ago.
            log.info("the add link's /start in %s: the how-to was just posted", chat.id)
            return
        if self.say is not None:
            await self.say(update, context, gr.how_to)
            return
        settings = await self.settings_.settings(chat.id, chat.title or "")
        await self._say(chat.id, gr.how_to(translator(settings.language)))

    # -- admin commands ---------------------------------------------------------------------

    async def push(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        message, chat, settings, tr = checked
        if not context.args:
            await self._say(
                chat.id,
                gr.quiz_picker(
                    tr, self.catalog, chat.id, settings.language, self.runs.own_quizzes(chat.id)
                ),
            )
            return
        user_id = message.from_user.id if message.from_user else None
        await self._start(chat.id, context.args[0], user_id, tr)

    async def _start(self, chat_id: int, which: str, user_id: int | None, tr: Translator) -> None:
        """A run in the topic the command or tap came from (bot/tg/topics.py); one per topic."""
        match await self.runs.start(chat_id, user_id, which, reply_thread(chat_id)):
            case runs.Started() as started:
                await self.runner.play(started)
            case runs.Busy():
                await self._say(chat_id, tr._("A quiz is already running here. /stop ends it."))
            case runs.NothingToAsk():
                await self._say(chat_id, group_run_render.nothing_to_ask(tr))
            case runs.UnknownQuiz(suggestion):
                await self._say(chat_id, gr.unknown_quiz(tr, which, suggestion))

    async def quiz(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            running = await self.runs.active_run(chat.id, reply_thread(chat.id))
            quiz = self.runs.quiz_of(running) if running is not None else None
            if quiz is not None:
                await self._say(
                    chat.id, group_run_render.run_in_progress(tr, quiz, settings.language)
                )
                return
            await self._say(
                chat.id,
                gr.quiz_picker(
                    tr, self.catalog, chat.id, settings.language, self.runs.own_quizzes(chat.id)
                ),
            )

    async def stop(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, _, tr = checked
            here = reply_thread(chat.id)
            if not await self.runner.stop(chat.id, here):
                elsewhere = await self.runs.playing_elsewhere(chat.id, here)
                names = await self.topic_names(chat.id) if elsewhere and self.topic_names else {}
                text = group_run_render.nothing_to_stop(tr, chat.id, elsewhere, names)
                await self._say(chat.id, text)

    async def settings(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            await self._say(chat.id, gr.settings(tr, settings))

    async def timezone(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        _, chat, _, tr = checked
        name = context.args[0] if context.args and len(context.args) == 1 else ""
        match await self.settings_.set_timezone(chat.id, name):
            case gs.UnknownZone(current) if not name:
                usage = tr._(
                    "Usage: /timezone Area/City, for example /timezone Africa/Dakar. "
                    "Current time zone: {zone}",
                    zone=html.escape(current),
                )
                await self._say(chat.id, usage)
            case gs.UnknownZone(_, suggestion):
                # The suggestion is a button, as in private (an admin's tap sets it).
                keyboard = (
                    InlineKeyboardMarkup(
                        [[button(zone_label(suggestion), cb.Setting(chat.id, "tz", suggestion))]]
                    )
                    if suggestion is not None
                    else None
                )
                await self._say(chat.id, Screen(unknown_zone(tr, name, suggestion), keyboard))
            case gs.Saved():
                await self.runner.reschedule(chat.id)
                await self._say(chat.id, tr._("Time zone set to {zone}.", zone=html.escape(name)))

    async def _zone_tapped(
        self, query: CallbackQuery, chat_id: int, zone: str, tr: Translator, mine: Translator
    ) -> None:
        """The suggested time zone's button under /timezone: set it, and say so in place."""
        match await self.settings_.set_timezone(chat_id, zone):
            case gs.Saved():
                await self.runner.reschedule(chat_id)
                text = tr._("Time zone set to {zone}.", zone=html.escape(zone))
                try:
                    await query.edit_message_text(text)
                except BadRequest as exc:  # a repeated tap: already says so
                    log.info("time zone edit refused: %s", exc)
                # After the edit: in the old chat of a group that became a supergroup the edit
                # raises ChatMigrated (the error handler says so), and "Saved." is not true.
                await acknowledge(query, mine._("Saved."))
            case _:
                await acknowledge(query, mine._("This button has expired."))

    async def schedule(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        message, chat, settings, tr = checked
        user_id = message.from_user.id if message.from_user else None
        made = self.schedules_.add(
            chat.id, context.args or [], user_id, reply_thread(chat.id), topic_name(update)
        )
        match await made:
            case sched.Unreadable(field, value):
                value = html.escape(typed_back(value))
                reasons = {
                    "quiz": tr._("I don't know the quiz {name}.", name=value),
                    "days": tr._("I can't read the days {days}.", days=value),
                    "time": tr._("I can't read the time {time}.", time=value),
                }
                reason = reasons.get(field, "")
                await self._say(
                    chat.id,
                    "\n".join(filter(None, [reason, group_schedule_render.schedule_usage(tr)])),
                )
            case sched.Duplicate(number):
                again = tr._(
                    "Schedule {n} already does exactly that. /schedules lists them.",
                    n=tr.number(number),
                )
                await self._say(chat.id, again)
            case sched.TooMany(limit):
                await self._say(chat.id, group_schedule_render.too_many_schedules(tr, limit))
            case sched.Scheduled(added, listed):
                await self.runner.register(added, settings.timezone)
                number = next((n for n, s in enumerate(listed, 1) if s.id == added.id), 0)
                own = self.runs.own_quizzes(chat.id)
                text = group_schedule_render.scheduled(
                    tr, self.catalog, added, number, settings.timezone, self._now(), own
                )
                await self._say(chat.id, text)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.schedules_.clock(), UTC)

    async def schedules(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            listed = await self.schedules_.listed(chat.id)
            own = self.runs.own_quizzes(chat.id)
            text = group_schedule_render.schedule_list(
                tr, self.catalog, listed, settings.timezone, self._now(), own=own
            )
            await self._say(chat.id, text)

    async def unschedule(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        _, chat, settings, tr = checked
        arg = context.args[0] if context.args and len(context.args) == 1 else ""
        number = parse_listed(arg)
        if number is None:
            usage = tr._(
                "Usage: /unschedule <n>, where n is a number from /schedules. "
                "Example: /unschedule 1"
            )
            await self._say(chat.id, html.escape(usage, quote=False))
            return
        match await self.schedules_.remove(chat.id, number):
            case sched.Unscheduled(removed, listed):
                await self.runner.unregister(removed.id)
                now, zone = self._now(), settings.timezone
                own = self.runs.own_quizzes(chat.id)
                text = group_schedule_render.unscheduled(
                    tr, self.catalog, removed, number, listed, zone, now, own
                )
                await self._say(chat.id, text)
            case sched.NoSuchSchedule():
                missing = tr._(
                    "There is no schedule {n}. /schedules lists them.", n=tr.number(number)
                )
                await self._say(chat.id, missing)

    # -- buttons ----------------------------------------------------------------------------

    async def setting(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.Setting
    ) -> None:
        """A settings button (the router checked it comes from a group): admins only, and only
        for the group it was tapped in."""
        settings = await self.settings_.settings(chat.id)
        tr = translator(settings.language)
        # A popup is read by the member who tapped: their language, not the group's.
        mine = translator(member.language_in(settings.language))
        if data.chat_id != chat.id:
            await acknowledge(query, mine._("This button has expired."))
            return
        if not await self.admins.is_admin(chat.id, member.user_id):
            refusal = mine._("Sorry, only the group's admins can do that.")
            await acknowledge(query, refusal, show_alert=True)
            return
        if data.key in UPLOAD_KEYS and self.upload_buttons is not None:
            await self.upload_buttons(query, chat.id, data.key, data.value or "", member, tr)
            return
        if data.key == "push":
            await acknowledge(query)
            await self._start(chat.id, data.value or "", member.user_id, tr)
            return
        if data.key == "tz":
            await self._zone_tapped(query, chat.id, data.value or "", tr, mine)
            return
        match await self.settings_.change(chat.id, data.key, data.value or ""):
            case gs.Invalid():
                await acknowledge(query, mine._("This button has expired."))
            case gs.Saved(updated):
                tr = translator(updated.language)
                screen = gr.settings(tr, updated)
                try:
                    await query.edit_message_text(screen.text, reply_markup=screen.keyboard)
                except BadRequest as exc:  # e.g. "message is not modified" on a repeated tap
                    log.info("settings edit refused: %s", exc)
                # After the edit, as for a time zone's button above.
                await acknowledge(query, mine._("Saved."))
