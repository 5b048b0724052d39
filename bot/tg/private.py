"""Handlers of the private chat: parse the update, call the service, send what `render` drew."""

from __future__ import annotations

import asyncio
import logging

from telegram import CallbackQuery, Message, Update, User
from telegram.error import BadRequest
from telegram.ext import ContextTypes

from bot.core.engine import Status, Verdict, score
from bot.core.limits import DEEP_LINK_PAYLOAD
from bot.core.models import Catalog
from bot.i18n import SUPPORTED_LANGUAGES, Translator, normalize, translator
from bot.tg import callbacks as cb
from bot.tg import render
from bot.tg.render import Screen
from bot.tg.retry import patiently
from bot.usecases.private_quiz import QuizService

log = logging.getLogger(__name__)
Context = ContextTypes.DEFAULT_TYPE


async def send(message: Message, screen: Screen) -> Message:
    bot = message.get_bot()
    return await patiently(
        lambda: bot.send_message(message.chat_id, screen.text, reply_markup=screen.keyboard)
    )


async def acknowledge(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a callback query; one Telegram no longer accepts (too old) must not stop the work
    that follows, such as showing the explanation of an answer already stored."""
    try:
        await patiently(lambda: query.answer(text))
    except BadRequest as exc:
        log.info("callback answer refused: %s", exc)


async def edit(query: CallbackQuery, screen: Screen) -> None:
    """Edit the tapped message; an edit Telegram refuses (gone, unchanged) is not worth failing."""
    try:
        await patiently(lambda: query.edit_message_text(screen.text, reply_markup=screen.keyboard))
    except BadRequest as exc:
        log.info("edit refused: %s", exc)


async def drop_keyboard(query: CallbackQuery) -> None:
    try:
        await patiently(lambda: query.edit_message_reply_markup(None))
    except BadRequest as exc:
        log.info("keyboard removal refused: %s", exc)


async def reply_language(service: QuizService, user: User) -> tuple[str, Translator]:
    """The language to answer this user in, and its translator (one rule: `choose_language`)."""
    lang = await service.language(user.id, user.language_code)
    return lang, translator(lang)


class PrivateHandlers:
    def __init__(self, service: QuizService, catalog: Catalog) -> None:
        self.service = service
        self.catalog = catalog

    async def _lang(self, user: User) -> tuple[str, Translator]:
        return await reply_language(self.service, user)

    # -- commands ---------------------------------------------------------------------------

    async def start(self, update: Update, context: Context) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        lang, chosen = await self.service.greet(
            user.id, user.first_name, user.language_code, private=True
        )
        tr = translator(lang)
        payload = context.args[0] if context.args else None
        if payload is not None:
            await self._deep_link(message, user.id, payload, lang, tr)
            return
        # A running quiz comes first, even before a language was ever chosen (a learner who came
        # by a deep link): after a crash or a lost message, /start is the way back to it.
        running = await self.service.active(user.id)
        if running:
            attempt, quiz = running
            await send(message, render.resume_offer(tr, quiz, attempt, lang))
            return
        if not chosen:
            await send(message, render.language_picker(tr, normalize(user.language_code)))
            return
        intro = render.welcome(tr, user.first_name)
        await send(message, render.quiz_list(tr, self.catalog, lang, intro))

    async def _deep_link(
        self, message: Message, user_id: int, payload: str, lang: str, tr: Translator
    ) -> None:
        quiz = self.catalog.quiz(payload) if DEEP_LINK_PAYLOAD.fullmatch(payload) else None
        if quiz is None:
            intro = tr._("I don't know that quiz. Here are the ones I have:")
            await send(message, render.quiz_list(tr, self.catalog, lang, intro))
            return
        await self._begin(message, user_id, quiz.id, lang, tr)

    async def _begin(
        self, message: Message, user_id: int, quiz_id: str, lang: str, tr: Translator
    ) -> None:
        """Start a quiz for `user_id`, the user who asked (never the chat: a chat is not a user)."""
        quiz = self.catalog.quiz(quiz_id)
        if quiz is None:
            await send(message, Screen(tr._("That quiz is no longer available.")))
            return
        attempt = await self.service.start(user_id, quiz)
        await send(message, render.question(tr, quiz, attempt, 0, lang))

    async def quizzes(self, update: Update, context: Context) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        lang, tr = await self._lang(user)
        await send(message, render.quiz_list(tr, self.catalog, lang))

    async def stop(self, update: Update, context: Context) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        _, tr = await self._lang(user)
        if await self.service.stop(user.id):
            text = tr._("Quiz abandoned. Your answers so far are kept. /quizzes to pick another.")
        else:
            text = tr._("You have no quiz running. /quizzes to pick one.")
        await send(message, Screen(text))

    async def language(self, update: Update, context: Context) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        lang, tr = await self._lang(user)
        await send(message, render.language_picker(tr, lang))

    async def help(self, update: Update, context: Context) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        _, tr = await self._lang(user)
        await send(message, Screen(render.help_text(tr)))

    async def unknown(self, update: Update, context: Context) -> None:
        """Text or a command we do not know: say what we understand instead of staying silent."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        _, tr = await self._lang(user)
        text = tr._("I only understand commands and buttons. /help lists what I can do.")
        await send(message, Screen(text))

    # -- buttons ----------------------------------------------------------------------------

    async def callback(self, query: CallbackQuery, user: User, data: cb.Callback) -> None:
        """A private button (the router checked it was tapped in a private chat)."""
        lang, tr = await self._lang(user)
        match data:
            case cb.Answer():
                await self._answer(query, user, data, lang, tr)
            case cb.Lang(code) if code in SUPPORTED_LANGUAGES:
                await self.service.set_language(user.id, code)
                lang, tr = code, translator(code)
                await acknowledge(query, tr._("Language: {name}", name=tr.language_name(code)))
                intro = render.welcome(tr, user.first_name)
                await edit(query, render.quiz_list(tr, self.catalog, lang, intro))
            case cb.ShowQuiz(quiz_id) if self.catalog.quiz(quiz_id):
                await acknowledge(query)
                quiz = self.catalog.quiz(quiz_id)
                assert quiz is not None
                await self._reply(query, render.quiz_card(tr, quiz, lang))
            case cb.StartQuiz(quiz_id) if self.catalog.quiz(quiz_id):
                await acknowledge(query)
                if isinstance(query.message, Message):
                    await self._begin(query.message, user.id, quiz_id, lang, tr)
            case cb.QuizList():
                await acknowledge(query)
                await self._reply(query, render.quiz_list(tr, self.catalog, lang))
            case cb.Next():
                await self._next(query, user, data, lang, tr)
            case cb.Continue(attempt_id):
                await self._continue(query, user, attempt_id, lang, tr)
            case cb.Abandon(attempt_id):
                attempt = await self.service.attempt(attempt_id)
                if attempt and attempt.user_id == user.id and attempt.status is Status.ACTIVE:
                    await self.service.stop(user.id)
                    await acknowledge(query)
                    await edit(query, Screen(tr._("Quiz abandoned. /quizzes to pick another.")))
                else:
                    await acknowledge(query, tr._("This question is closed."))
            case cb.Review(attempt_id):
                await self._review(query, user, attempt_id, lang, tr)
            case _:
                await acknowledge(query, tr._("This button has expired. /quizzes to start again."))

    async def _reply(self, query: CallbackQuery, screen: Screen) -> None:
        if isinstance(query.message, Message):
            await send(query.message, screen)

    async def _answer(
        self, query: CallbackQuery, user: User, data: cb.Answer, lang: str, tr: Translator
    ) -> None:
        result = await self.service.answer(
            user.id, data.attempt_id, data.question, data.position, lang
        )
        judgement = result.outcome.judgement
        if result.verdict is Verdict.ALREADY_ANSWERED:
            await acknowledge(query, tr._("You already answered this question."))
            return
        if result.verdict is not Verdict.ACCEPTED or judgement is None or result.quiz is None:
            await acknowledge(query, tr._("This question is closed."))
            return
        # The answer is stored: now the learner may see the verdict.
        await acknowledge(query, render.verdict_popup(tr, judgement))
        quiz, attempt = result.quiz, result.outcome.attempt
        # Independent messages: edit the question and post the explanation at the same time.
        await asyncio.gather(
            edit(query, render.answered_question(tr, quiz, attempt, judgement, lang)),
            self._reply(query, render.explanation(tr, quiz, attempt, judgement, lang)),
        )

    async def _next(
        self, query: CallbackQuery, user: User, data: cb.Next, lang: str, tr: Translator
    ) -> None:
        attempt = await self.service.attempt(data.attempt_id)
        quiz = self.catalog.quiz(attempt.quiz_id) if attempt else None
        if attempt is None or quiz is None or attempt.user_id != user.id:
            await acknowledge(query, tr._("This question is closed."))
            return
        finished = attempt.status is Status.FINISHED and data.question >= len(quiz)
        current = attempt.status is Status.ACTIVE and data.question == attempt.current
        if (finished or current) and not self.service.claim_showing(attempt.id, data.question):
            # A second tap on the same "Next": what it shows is already in the chat. Leaving
            # the button in place saves a request per question (see BENCHMARKS.md).
            await acknowledge(query)
        elif finished:
            await acknowledge(query)
            final = score(quiz, attempt.answers)
            await self._reply(query, render.result(tr, quiz, attempt, final, lang))
        elif current:
            await acknowledge(query)
            await self._reply(query, render.question(tr, quiz, attempt, data.question, lang))
        else:
            await acknowledge(query, tr._("This question is closed."))

    async def _continue(
        self, query: CallbackQuery, user: User, attempt_id: int, lang: str, tr: Translator
    ) -> None:
        running = await self.service.active(user.id)
        if running is None or running[0].id != attempt_id:
            await acknowledge(query, tr._("This quiz is over. /quizzes to start another."))
            return
        attempt, quiz = running
        await acknowledge(query)
        await drop_keyboard(query)
        self.service.claim_showing(attempt.id, attempt.current)
        await self._reply(query, render.question(tr, quiz, attempt, attempt.current, lang))

    async def _review(
        self, query: CallbackQuery, user: User, attempt_id: int, lang: str, tr: Translator
    ) -> None:
        attempt = await self.service.attempt(attempt_id)
        quiz = self.catalog.quiz(attempt.quiz_id) if attempt else None
        if attempt is None or quiz is None or attempt.user_id != user.id:
            await acknowledge(query, tr._("This question is closed."))
            return
        await acknowledge(query)
        final = score(quiz, attempt.answers)
        await self._reply(query, render.review(tr, quiz, attempt, final.missed, lang))
