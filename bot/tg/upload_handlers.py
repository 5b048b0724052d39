"""`/upload` in a group: an admin's quiz file, downloaded, checked and answered in their language.

The file is either the message's own document (caption `/upload`) or the document the command
replies to. Admins only (an anonymous admin posts as the group and counts as one); the size
Telegram declares is judged before anything is downloaded. Answers go to the group, worded in
the uploader's language (the group's for an anonymous admin). A file whose quiz id the group
already has waits (in the store, by its Telegram file_id) for its sender's choice: replace,
keep both, or cancel; the buttons are bound to that sender and that group.

A private `/upload` offers the groups where the sender was seen, checked with Telegram (a few at
most, never every group). A group Telegram answers "chat not found" for, or that the bot was
removed from unseen, is marked gone (only that: its data stays, and the next update from it
lists it again); any other error skips the group this time only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace

from telegram import Bot, CallbackQuery, Document, Message, Update
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError
from telegram.ext import filters

from bot.content.uploads import CheckedUpload
from bot.core.models import GuidePath, Quiz
from bot.i18n import Translator, translator
from bot.tg import callbacks as cb
from bot.tg import own_quizzes_render as own_render
from bot.tg import upload_choice_render as choice_render
from bot.tg import upload_render as render
from bot.tg.context import BotContext
from bot.tg.group_run_handlers import GroupRunner
from bot.tg.screen_render import Screen, quiz_title
from bot.tg.screen_send import acknowledge, drop_keyboard, edit
from bot.tg.topics import chat_gone
from bot.usecases.group_admins import AdminCache
from bot.usecases.group_settings import GroupSettingsCases
from bot.usecases.learner_profile import Learner
from bot.usecases.quiz_uploads import Choice, PendingFile, QuizUploads, Replaces, ShippedId

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
        guides: Callable[[], Mapping[str, GuidePath]] = dict,
    ) -> None:
        self.serve = serve  # the bot's catalogue starts serving a new quiz (or version)
        self.shipped_ids = shipped_ids
        self.guides = guides  # the deployment's, in guides.yaml's order (the guide buttons')
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
        # An anonymous admin's file is the group's: any of its admins may choose for it.
        source = PendingFile(user_id or message.chat_id, document.file_id,
                             document.file_name or "quiz", document.file_size, 0.0)  # fmt: skip
        await self._process(context.bot, message.chat_id, message.chat_id, user_id, source, tr)

    async def _process(
        self,
        bot: Bot,
        reply_to: int,
        group_id: int,
        user_id: int | None,
        source: PendingFile,
        tr: Translator,
        choice: Choice | None = None,
    ) -> None:
        """Admit, download, check and keep a file for `group_id`; answer in `reply_to` (the
        group itself, or the uploader's private chat). A file with the id of a quiz the group
        has is kept only with the sender's `choice`; without one they are asked."""
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
            self.uploads.refused(group_id)
            await say(Screen(render.refusal(tr, checked)))
            return
        if checked.quiz is None:
            self.uploads.refused(group_id)
            await say(Screen(render.problems(tr, name, checked, limits)))
            return
        stored = await self.uploads.accept(
            group_id, user_id, name, data, checked, self.shipped_ids(), choice
        )
        if isinstance(stored, ShippedId):
            await say(Screen(render.shipped_id(tr, stored.quiz_id)))
        elif isinstance(stored, Replaces):
            token = await self.uploads.remember(replace(source, at=self.uploads.clock(),
                                                        chat_id=group_id))  # fmt: skip
            await say(
                choice_render.confirm_replace(tr, name, stored, group_id, token, in_group=in_group)
            )
        else:
            self.serve(stored.quiz)
            if in_group:
                await say(render.stored(tr, name, stored, limits, group_id))
            else:
                group = await self.settings.settings(group_id)
                await say(render.stored_privately(tr, name, stored, limits, group.title, group_id))

    async def upload_private(self, update: Update, context: BotContext) -> None:
        """A file sent privately with /upload: which of the sender's groups is it for? Only the
        groups where the bot saw them are checked with Telegram, a few at most."""
        message = update.effective_message
        user = message.from_user if message is not None else None
        if message is None or user is None:
            return
        tr = context.tr
        document = _document(message)
        if document is None:
            await message.reply_text(choice_render.how_to_upload_private(tr))
            return
        mine = [
            (chat_id, title)
            for chat_id, title in await self.uploads.groups_seen(user.id)
            if await self._administers(chat_id, user.id)
        ][: render.MAX_GROUP_BUTTONS]
        if not mine:
            await message.reply_text(choice_render.no_groups(tr))
            return
        token = await self.uploads.remember(
            PendingFile(user.id, document.file_id, document.file_name or "quiz",
                        document.file_size, self.uploads.clock())
        )  # fmt: skip
        screen = choice_render.choose_group(tr, mine, token)
        await message.reply_text(screen.text, reply_markup=screen.keyboard)

    async def file_private(self, update: Update, context: BotContext) -> None:
        """A file sent privately without /upload: how to upload it (it was met with silence);
        nothing is downloaded."""
        if update.effective_message is not None:
            await update.effective_message.reply_text(choice_render.file_without_upload(context.tr))

    async def _administers(self, chat_id: int, user_id: int) -> bool | None:
        """Whether the user administers the group, as Telegram says; None when Telegram could
        not say: a group it no longer knows (or the bot was removed from unseen) is marked
        gone, a supergroup upgrade followed, any other error skips it this time only."""
        try:
            return await self.admins.is_admin(chat_id, user_id)
        except ChatMigrated as exc:
            log.info("group %s became %s: moving it", chat_id, exc.new_chat_id)
            await self.runner.migrated(chat_id, exc.new_chat_id)
        except (BadRequest, Forbidden) as exc:
            if chat_gone(exc):
                log.info("group %s is out of reach (%s): marked gone", chat_id, exc)
                await self.uploads.gone(chat_id)
                self.admins.forget_chat(chat_id)
            else:  # e.g. "user not found": not an admin there
                log.info("group %s: no member status for a user: %s", chat_id, exc)
                return False
        except TelegramError as exc:
            log.info("group %s skipped this time: %s", chat_id, exc)
        return None

    async def chosen(self, query: CallbackQuery, learner: Learner, data: cb.UploadFor) -> None:
        """A group-choice button (the router checked it is a private chat): the file must be
        this tapper's, and they must still administer the chosen group."""
        tr = translator(learner.lang)
        pending = await self.uploads.take(data.token, learner.user_id)
        if pending is None:
            await acknowledge(query, tr._("This button has expired."))
            return
        admin = await self._administers(data.chat_id, learner.user_id)
        if admin is None:
            await acknowledge(query, choice_render.unreachable(tr), show_alert=True)
            return
        if not admin:
            refusal = tr._("Sorry, only the group's admins can do that.")
            await acknowledge(query, refusal, show_alert=True)
            return
        await acknowledge(query)
        private = query.message.chat.id if query.message is not None else learner.user_id
        await self._process(query.get_bot(), private, data.chat_id, learner.user_id, pending, tr)

    async def confirmed(
        self, query: CallbackQuery, learner: Learner, data: cb.UploadChoice
    ) -> None:
        """An answer to "Replace …?" in a private chat: the tapper's own file, for that group,
        and they still administer it."""
        tr = translator(learner.lang)
        pending = await self.uploads.take(data.token, learner.user_id, data.chat_id)
        if pending is None:
            await acknowledge(query, tr._("This button has expired."))
            return
        choice = Choice(data.choice)
        if choice is Choice.CANCEL:
            await acknowledge(query)
            await query.get_bot().send_message(learner.user_id, choice_render.cancelled(tr))
            return
        admin = await self._administers(data.chat_id, learner.user_id)
        if not admin:
            why = choice_render.unreachable(tr) if admin is None else tr._(
                "Sorry, only the group's admins can do that.")  # fmt: skip
            await acknowledge(query, why, show_alert=True)
            return
        await acknowledge(query)
        private = query.message.chat.id if query.message is not None else learner.user_id
        await self._process(query.get_bot(), private, data.chat_id, learner.user_id, pending, tr,
                            choice)  # fmt: skip

    async def quizzes(self, update: Update, context: BotContext) -> None:
        """/quizzes in a group: the group's own quizzes (admins only, like the picker)."""
        message = update.effective_message
        if message is None or not await self._is_admin(message):
            return
        group = await self.settings.settings(message.chat_id, message.chat.title or "")
        tr = translator(group.language)
        own = self.uploads.own(message.chat_id)
        await self.runner.send(message.chat_id, own_render.own_quizzes(tr, own, group.language))

    async def deletequiz(self, update: Update, context: BotContext) -> None:
        """/deletequiz ID: asks for a confirmation button (any admin's tap confirms)."""
        message = update.effective_message
        if message is None or not await self._is_admin(message):
            return
        group = await self.settings.settings(message.chat_id, message.chat.title or "")
        tr = translator(group.language)
        typed = context.args[0] if context.args else ""
        if not typed:
            await self._say(
                message, own_render.deletequiz_usage(tr, self.uploads.own(message.chat_id))
            )
            return
        quiz = self.uploads.own(message.chat_id).get(typed)
        if quiz is None:
            own = self.uploads.own(message.chat_id)
            await self._say(message, own_render.no_such_quiz(tr, typed, own))
            return
        await self.runner.send(
            message.chat_id,
            own_render.confirm_delete(tr, message.chat_id, typed, quiz, group.language),
        )

    async def button(
        self, query: CallbackQuery, chat_id: int, key: str, value: str, member: Learner,
        tr: Translator,
    ) -> None:  # fmt: skip
        """A Schedule, delete-confirmation or replace-choice button (the group handler checked
        the chat and that the tapper is an admin; a replace choice is the sender's only)."""
        if key in render.REPLACE_KEYS:
            await self._replace_choice(query, chat_id, render.REPLACE_KEYS[key], value, member, tr)
            return
        if key in render.GUIDE_KEYS:
            await self._guide_choice(query, chat_id, render.GUIDE_KEYS[key], value, tr)
            return
        await acknowledge(query)
        if key == "sched":
            await self.runner.send(chat_id, Screen(own_render.schedule_hint(tr, value)))
            return
        # The delete confirmation is answered once, either way: its buttons go first, so a
        # second tap finds nothing to press (one in flight is answered and says nothing).
        shown = query.message
        if isinstance(shown, Message) and shown.reply_markup is None:
            return
        await drop_keyboard(query)
        if key == "delx":
            await self.runner.send(chat_id, Screen(choice_render.cancelled(tr)))
        elif (deleted := await self.uploads.delete(chat_id, value)) is not None:
            dropped = await self.runner.scheduled.drop_quiz(chat_id, value)
            title = quiz_title(deleted, tr.lang)
            await self.runner.send(chat_id, Screen(own_render.deleted(tr, title, dropped)))
        else:
            await self.runner.send(chat_id, Screen(own_render.no_such_quiz(tr, value, {})))

    async def _replace_choice(
        self, query: CallbackQuery, chat_id: int, choice: Choice, token: str, member: Learner,
        tr: Translator,
    ) -> None:  # fmt: skip
        mine = translator(member.language_in(tr.lang))  # the popup is the tapper's to read
        # The sender's file; or the group's own, sent by an anonymous admin (any admin chooses).
        pending = await self.uploads.take(token, member.user_id, chat_id)
        if pending is None:
            pending = await self.uploads.take(token, chat_id, chat_id)
        if pending is None:
            taken = await self.uploads.waiting(token, chat_id)
            popup = (
                choice_render.not_your_file(mine) if taken else mine._("This button has expired.")
            )
            await acknowledge(query, popup, show_alert=taken)
            return
        await acknowledge(query)
        anonymous = pending.user_id == chat_id
        said = tr if anonymous else mine  # as the upload was answered: the sender's language
        if choice is Choice.CANCEL:
            await self.runner.send(chat_id, Screen(choice_render.cancelled(said)))
            return
        user_id = None if anonymous else member.user_id
        await self._process(query.get_bot(), chat_id, chat_id, user_id, pending, said, choice)

    async def guide_chosen(
        self, query: CallbackQuery, learner: Learner, data: cb.UploadGuide
    ) -> None:
        """A guide button of a privately sent file's summary (the router checked it is a private
        chat): the tapper must still administer the group."""
        tr = translator(learner.lang)
        admin = await self._administers(data.chat_id, learner.user_id)
        if not admin:
            why = choice_render.unreachable(tr) if admin is None else tr._(
                "Sorry, only the group's admins can do that.")  # fmt: skip
            await acknowledge(query, why, show_alert=True)
            return
        index = None if data.index < 0 else data.index
        await self._guide_choice(query, data.chat_id, index, data.quiz_id, tr, in_group=False)

    async def _guide_choice(
        self,
        query: CallbackQuery,
        chat_id: int,
        index: int | None,
        typed: str,
        tr: Translator,
        *,
        in_group: bool = True,
    ) -> None:
        """A guide button of an upload's summary (an admin's tap): the quiz links to that guide
        (or to none) from now on, in the store for every worker and restart."""
        guides = list(self.guides().values())
        guide = guides[index] if index is not None and index < len(guides) else None
        served = None
        if index is None or guide is not None:
            served = await self.uploads.set_guide(chat_id, typed, guide)
        if served is None:  # the quiz was replaced or deleted since, or guides.yaml changed
            await acknowledge(query, tr._("This button has expired."))
            return
        self.serve(served)
        await acknowledge(query)
        shown = query.message
        text = shown.text_html if isinstance(shown, Message) and shown.text else ""
        await edit(query, render.guide_picked(tr, text, chat_id, typed, served, in_group=in_group))

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
