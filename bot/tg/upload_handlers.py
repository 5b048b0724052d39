"""`/upload` in a group: an admin's quiz file, downloaded, checked and answered in their language.

The file is either the message's own document (caption `/upload`) or the document the command
replies to. Admins only (an anonymous admin posts as the group and counts as one); the size
Telegram declares is judged before anything is downloaded. Answers go to the group, worded in
the uploader's language (the group's for an anonymous admin).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Bot, CallbackQuery, Document, Message, Update
from telegram.error import TelegramError
from telegram.ext import filters

from bot.content.uploads import CheckedUpload
from bot.core.models import Quiz
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import upload_render as render
from bot.tg.context import BotContext
from bot.tg.jobs import GroupRunner
from bot.tg.private import acknowledge
from bot.tg.render import Screen
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.learner_profile import Learner
from bot.usecases.quiz_uploads import PendingFile, QuizUploads, ShippedId

log = logging.getLogger(__name__)


class UploadCaption(filters.MessageFilter):
    """A caption that starts with `/upload` or `/upload@<this bot>`. An admin bot sees every
    message, so `/upload@otherbot` (a command for another bot) must not be taken as ours."""

    def filter(self, message: Message) -> bool:
        words = (message.caption or "").split(maxsplit=1)
        command, _, addressee = (words[0] if words else "").partition("@")
        if command != "/upload":
            return False
        return not addressee or addressee.lower() == (message.get_bot().username or "").lower()


class UploadHandlers:
    def __init__(
        self,
        uploads: QuizUploads,
        settings: GroupSettingsCases,
        admins: AdminCache,
        runner: GroupRunner,
        serve: Callable[[Quiz], None],
        shipped_ids: Callable[[], set[str]],
    ) -> None:
        self.serve = serve  # the bot's catalogue starts serving a new quiz (or version)
        self.shipped_ids = shipped_ids
        self.uploads = uploads
        self.settings = settings
        self.admins = admins
        self.runner = runner

    async def _translator(self, message: Message, context: BotContext) -> Translator:
        if message.sender_chat is not None or message.from_user is None:
            group = await self.settings.settings(message.chat_id, message.chat.title or "")
            return translator(group.language)
        return context.tr

    async def _say(self, message: Message, text: str) -> None:
        await self.runner.send(message.chat_id, Screen(text))

    async def upload(self, update: Update, context: BotContext) -> None:
        message = update.effective_message
        if message is None:
            return
        tr = await self._translator(message, context)
        user = message.from_user
        sender_chat = message.sender_chat.id if message.sender_chat else None
        if not await self.admins.is_admin(message.chat_id, user.id if user else 0, sender_chat):
            await self._say(message, tr._("Sorry, only the group's admins can do that."))
            return
        document = _document(message)
        if document is None:
            await self._say(message, render.how_to_upload(tr))
            return
        user_id = user.id if user is not None and sender_chat is None else None
        source = PendingFile(user_id or 0, document.file_id, document.file_name or "quiz",
                             document.file_size, 0.0)  # fmt: skip
        await self._process(context.bot, message.chat_id, message.chat_id, user_id, source, tr)

    async def _process(
        self,
        bot: Bot,
        reply_to: int,
        group_id: int,
        user_id: int | None,
        source: PendingFile,
        tr: Translator,
    ) -> None:
        """Admit, download, check and keep a file for `group_id`; answer in `reply_to` (the
        group itself, or the uploader's private chat)."""
        in_group = reply_to == group_id

        async def say(screen: Screen) -> None:
            if in_group:
                await self.runner.send(reply_to, screen)
            else:
                await bot.send_message(reply_to, screen.text, reply_markup=screen.keyboard)

        refused = self.uploads.admit(group_id, source.file_size)
        if refused is not None:
            await say(Screen(render.refusal(tr, refused)))
            return
        name = source.file_name
        try:
            file = await bot.get_file(source.file_id)
            data = bytes(await file.download_as_bytearray())
        except TelegramError as exc:  # too big for bots, gone, or the network failed
            log.info("upload for chat %s: download failed: %s", group_id, exc)
            await say(Screen(render.download_failed(tr)))
            return
        checked = await self.uploads.check(name, data)
        limits = self.uploads.limits
        if not isinstance(checked, CheckedUpload):
            await say(Screen(render.refusal(tr, checked)))
        elif checked.quiz is None:
            await say(Screen(render.problems(tr, name, checked, limits)))
        else:
            stored = await self.uploads.accept(
                group_id, user_id, name, data, checked, self.shipped_ids()
            )
            if isinstance(stored, ShippedId):
                await say(Screen(render.shipped_id(tr, stored.quiz_id)))
                return
            self.serve(stored.quiz)
            if in_group:
                await say(render.stored(tr, name, stored, limits, group_id))
            else:
                group = await self.settings.settings(group_id)
                await say(render.stored_privately(tr, name, stored, limits, group.title))

    async def upload_private(self, update: Update, context: BotContext) -> None:
        """A file sent privately with /upload: which of the sender's groups is it for?"""
        message = update.effective_message
        user = message.from_user if message is not None else None
        if message is None or user is None:
            return
        tr = context.tr
        document = _document(message)
        if document is None:
            await message.reply_text(render.how_to_upload_private(tr))
            return
        mine = [
            (chat_id, title)
            for chat_id, title in await self.uploads.groups_present()
            if await self.admins.is_admin(chat_id, user.id)
        ][: render.MAX_GROUP_BUTTONS]
        if not mine:
            await message.reply_text(render.no_groups(tr))
            return
        token = await self.uploads.remember(
            PendingFile(user.id, document.file_id, document.file_name or "quiz",
                        document.file_size, self.uploads.clock())
        )  # fmt: skip
        screen = render.choose_group(tr, mine, token)
        await message.reply_text(screen.text, reply_markup=screen.keyboard)

    async def chosen(self, query: CallbackQuery, learner: Learner, data: cb.UploadFor) -> None:
        """A group-choice button (the router checked it is a private chat): the file must be
        this tapper's, and they must still administer the chosen group."""
        tr = translator(learner.lang)
        pending = await self.uploads.take(data.token, learner.user_id)
        if pending is None:
            await acknowledge(query, tr._("This button has expired."))
            return
        if not await self.admins.is_admin(data.chat_id, learner.user_id):
            refusal = tr._("Sorry, only the group's admins can do that.")
            await acknowledge(query, refusal, show_alert=True)
            return
        await acknowledge(query)
        private = query.message.chat.id if query.message is not None else learner.user_id
        await self._process(query.get_bot(), private, data.chat_id, learner.user_id, pending, tr)

    async def quizzes(self, update: Update, context: BotContext) -> None:
        """/quizzes in a group: the group's own quizzes (admins only, like the picker)."""
        message = update.effective_message
        if message is None or not await self._is_admin(message):
            return
        group = await self.settings.settings(message.chat_id, message.chat.title or "")
        tr = translator(group.language)
        own = self.uploads.own(message.chat_id)
        await self.runner.send(message.chat_id, render.own_quizzes(tr, own, group.language))

    async def deletequiz(self, update: Update, context: BotContext) -> None:
        """/deletequiz ID: asks for a confirmation button (any admin's tap confirms)."""
        message = update.effective_message
        if message is None or not await self._is_admin(message):
            return
        group = await self.settings.settings(message.chat_id, message.chat.title or "")
        tr = translator(group.language)
        typed = context.args[0] if context.args else ""
        quiz = self.uploads.own(message.chat_id).get(typed)
        if quiz is None:
            own = self.uploads.own(message.chat_id)
            await self._say(message, render.no_such_quiz(tr, typed, own))
            return
        await self.runner.send(
            message.chat_id, render.confirm_delete(tr, message.chat_id, typed, quiz, group.language)
        )

    async def button(
        self, chat_id: int, key: str, typed: str, user_id: int, tr: Translator
    ) -> None:
        """A Schedule or a delete-confirmation button (the group handler checked chat and admin)."""
        if key == "sched":
            await self.runner.send(chat_id, Screen(render.schedule_hint(tr, typed)))
        elif await self.uploads.delete(chat_id, typed):
            await self.runner.send(chat_id, Screen(render.deleted(tr, typed)))
        else:
            await self.runner.send(chat_id, Screen(render.no_such_quiz(tr, typed, {})))

    async def _is_admin(self, message: Message) -> bool:
        user = message.from_user
        sender_chat = message.sender_chat.id if message.sender_chat else None
        if await self.admins.is_admin(message.chat_id, user.id if user else 0, sender_chat):
            return True
        group = await self.settings.settings(message.chat_id, message.chat.title or "")
        refusal = translator(group.language)._("Sorry, only the group's admins can do that.")
        await self._say(message, refusal)
        return False


def _document(message: Message) -> Document | None:
    if message.document is not None:
        return message.document
    replied = message.reply_to_message
    return replied.document if replied is not None else None
