"""Handlers of study groups: membership, admin commands, answer taps and settings buttons.

Admin commands are checked before anything else (creator, administrator, or an anonymous admin
posting as the group); refusals and everything posted in the group use the group's language,
while answer popups use the language of the member who tapped.
"""

from __future__ import annotations

import html
import logging
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from telegram import CallbackQuery, Chat, Message, Update
from telegram.error import BadRequest

from bot.core.engine import Verdict
from bot.core.models import Catalog
from bot.core.schedule import ScheduleError, parse_schedule
from bot.i18n import SUPPORTED_LANGUAGES, Translator, translator
from bot.store import GroupSettings
from bot.tg import callbacks as cb
from bot.tg import calls
from bot.tg import group_render as gr
from bot.tg.context import BotContext
from bot.tg.jobs import GroupRunner
from bot.tg.render import Screen
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_runs import SECONDS_CHOICES, GroupService
from bot.usecases.learner_profile import Learner

log = logging.getLogger(__name__)
Context = BotContext
IN_GROUP = frozenset({"member", "administrator", "creator", "restricted"})


class GroupHandlers:
    def __init__(
        self, service: GroupService, runner: GroupRunner, admins: AdminCache, catalog: Catalog
    ) -> None:
        self.service = service
        self.runner = runner
        self.admins = admins
        self.catalog = catalog

    async def _admin_command(
        self, update: Update
    ) -> tuple[Message, Chat, GroupSettings, Translator] | None:
        """The message, chat, settings and translator when an admin sent it; else refuse."""
        message, chat = update.effective_message, update.effective_chat
        if message is None or chat is None:
            return None
        user = message.from_user
        settings = await self.service.settings(
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
            settings = await self.service.settings(
                chat.id, chat.title or "", change.from_user.language_code
            )
            await self._say(chat.id, gr.how_to(translator(settings.language)))
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
        chat = update.effective_chat
        if chat is not None:
            settings = await self.service.settings(chat.id, chat.title or "")
            await self._say(chat.id, gr.how_to(translator(settings.language)))

    # -- admin commands ---------------------------------------------------------------------

    async def push(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        message, chat, settings, tr = checked
        if not context.args:
            await self._say(chat.id, gr.quiz_picker(tr, self.catalog, chat.id, settings.language))
            return
        quiz = await self.service.pick_quiz(chat.id, context.args[0])
        if quiz is None:
            await self._say(chat.id, tr._("I don't know that quiz. /quiz shows the list."))
            return
        await self._start(chat.id, quiz.id, message.from_user.id if message.from_user else None, tr)

    async def _start(self, chat_id: int, quiz_id: str, user_id: int | None, tr: Translator) -> bool:
        quiz = self.catalog.quiz(quiz_id)
        if quiz is None:
            return False
        if await self.runner.push(chat_id, quiz, user_id) is None:
            await self._say(chat_id, tr._("A quiz is already running here. /stop ends it."))
            return False
        return True

    async def quiz(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            await self._say(chat.id, gr.quiz_picker(tr, self.catalog, chat.id, settings.language))

    async def stop(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, _, tr = checked
            if not await self.runner.stop(chat.id):
                await self._say(chat.id, tr._("No quiz is running here."))

    async def settings(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            await self._say(chat.id, gr.settings(tr, settings))

    async def timezone(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        _, chat, settings, tr = checked
        name = context.args[0] if context.args and len(context.args) == 1 else ""
        try:
            if not name or ("/" not in name and name != "UTC"):
                raise ZoneInfoNotFoundError(name)
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            await self._say(
                chat.id,
                tr._(
                    "Usage: /timezone Area/City, for example /timezone Africa/Dakar. "
                    "Current time zone: {zone}",
                    zone=html.escape(settings.timezone),
                ),
            )
            return
        await self.service.update(chat.id, "timezone", name)
        await self.runner.reschedule(chat.id)
        await self._say(chat.id, tr._("Time zone set to {zone}.", zone=html.escape(name)))

    async def schedule(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        message, chat, settings, tr = checked
        try:
            spec = parse_schedule(context.args or [], [q.id for q in self.catalog])
        except ScheduleError as exc:
            reasons = {
                "quiz": tr._("I don't know the quiz {name}.", name=html.escape(exc.value)),
                "days": tr._("I can't read the days {days}.", days=html.escape(exc.value)),
                "time": tr._("I can't read the time {time}.", time=html.escape(exc.value)),
            }
            reason = reasons.get(exc.field, "")
            await self._say(chat.id, "\n".join(filter(None, [reason, gr.schedule_usage(tr)])))
            return
        user_id = message.from_user.id if message.from_user else None
        item = await self.service.add_schedule(chat.id, spec, user_id)
        self.runner.register(item, settings.timezone)
        listed = await self.service.schedules(chat.id)
        await self._say(chat.id, gr.schedule_list(tr, listed, settings.timezone))

    async def schedules(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is not None:
            _, chat, settings, tr = checked
            listed = await self.service.schedules(chat.id)
            await self._say(chat.id, gr.schedule_list(tr, listed, settings.timezone))

    async def unschedule(self, update: Update, context: Context) -> None:
        checked = await self._admin_command(update)
        if checked is None:
            return
        _, chat, settings, tr = checked
        arg = context.args[0] if context.args and len(context.args) == 1 else ""
        removed = await self.service.remove_schedule(chat.id, int(arg)) if arg.isdigit() else None
        if removed is None:
            usage = tr._(
                "Usage: /unschedule <n>, where n is a number from /schedules. "
                "Example: /unschedule 1"
            )
            await self._say(chat.id, html.escape(usage, quote=False))
            return
        self.runner.unregister(removed.id)
        listed = await self.service.schedules(chat.id)
        await self._say(chat.id, gr.schedule_list(tr, listed, settings.timezone))

    # -- buttons ----------------------------------------------------------------------------

    async def answer(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.GroupAnswer
    ) -> None:
        """A member's tap (the router checked it comes from a group): stored first, then the
        popup in that member's language. Whoever sees the question in the run's own chat may
        answer; membership is not checked per tap (a Bot API call each, see README)."""
        group_lang = (await self.service.settings(chat.id)).language
        tap = await self.service.answer(
            chat.id,
            data.run_id,
            data.question,
            data.position,
            member,
            group_lang,
        )
        tr = translator(tap.lang)
        bot = query.get_bot()
        if tap.verdict is Verdict.ACCEPTED and tap.judgement and tap.quiz:
            text = gr.popup(tr, tap.quiz, tap.judgement, tap.lang)
            await calls.answer_query(bot, query.id, text, show_alert=True)
        elif tap.verdict is Verdict.ALREADY_ANSWERED:
            await calls.answer_query(bot, query.id, tr._("You already answered this question."))
        elif tap.verdict is Verdict.NOT_YOURS:
            await calls.answer_query(bot, query.id, tr._("This button belongs to another chat."))
        else:
            await calls.answer_query(bot, query.id, tr._("This question is closed."))

    async def setting(
        self, query: CallbackQuery, member: Learner, chat: Chat, data: cb.Setting
    ) -> None:
        """A settings button (the router checked it comes from a group): admins only, and only
        for the group it was tapped in."""
        settings = await self.service.settings(chat.id)
        tr = translator(settings.language)
        if data.chat_id != chat.id:
            await query.answer(tr._("This button has expired."))
            return
        if not await self.admins.is_admin(chat.id, member.user_id):
            await query.answer(tr._("Sorry, only the group's admins can do that."), show_alert=True)
            return
        await self._apply(query, data, settings, tr)

    async def _apply(
        self, query: CallbackQuery, data: cb.Setting, settings: GroupSettings, tr: Translator
    ) -> None:
        key, value, chat_id = data.key, data.value or "", data.chat_id
        if key == "push":
            await query.answer()
            await self._start(chat_id, value, query.from_user.id, tr)
            return
        stored: str | int
        if key == "lang" and value in SUPPORTED_LANGUAGES:
            column, stored = "language", value
        elif key == "seconds" and value.isdigit() and int(value) in SECONDS_CHOICES:
            column, stored = "seconds_per_question", int(value)
        elif key == "shuffle" and value in ("on", "off"):
            column, stored = "shuffle", int(value == "on")
        else:
            await query.answer(tr._("This button has expired."))
            return
        updated = await self.service.update(chat_id, column, stored) or settings
        tr = translator(updated.language)
        await query.answer(tr._("Saved."))
        screen = gr.settings(tr, updated)
        try:
            await query.edit_message_text(screen.text, reply_markup=screen.keyboard)
        except BadRequest as exc:  # e.g. "message is not modified" on a repeated tap
            log.info("settings edit refused: %s", exc)
