"""Number questions in the private chat: asking them (question + ForceReply prompt) and the
learner's typed reply, bound to their own open question by
`usecases.private_replies.TypedAnswers`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, Update
from telegram.error import BadRequest

from bot.core.engine import Attempt
from bot.core.models import Quiz
from bot.i18n import Translator
from bot.tg import flashcard_render, number_render, question_render
from bot.tg import private_render as render
from bot.tg.context import BotContext
from bot.tg.screen_render import Screen
from bot.tg.wire import calls
from bot.tg.wire.photos import PhotoSender, send_screen
from bot.usecases import private_replies as pq
from bot.usecases.outcomes import Asked, NotAsked, OldQuestion, Unreadable
from bot.usecases.private_answers import InExam

log = logging.getLogger(__name__)

Handler = Callable[[Update, BotContext], Awaitable[None]]
# A round's number card taking the text first (round_reply_handlers.TypedCards.reply);
# False: none open.
CardReply = Callable[[Update, BotContext], Awaitable[bool]]


async def show_question(
    bot: Bot,
    chat_id: int,
    tr: Translator,
    quiz: Quiz,
    attempt: Attempt,
    index: int,
    lang: str,
    typed: pq.TypedAnswers,
    photos: PhotoSender | None = None,
    selected: frozenset[int] = frozenset(),
) -> None:
    """Send question `index`: with buttons (a captioned photo when it has a picture, see
    bot/tg/wire/photos.py), or (a number question) as the question and then the ForceReply prompt
    whose reply is the answer (`selected`: a select-all question's ticks, when continued)."""
    question = quiz.questions[index]
    if question.flashcard:
        await send_screen(
            bot, chat_id, flashcard_render.front(tr, quiz, attempt, index, lang), photos
        )
        return
    if not question.typed:
        screen = question_render.question(tr, quiz, attempt, index, lang, selected)
        await send_screen(bot, chat_id, screen, photos)
        return
    asked = number_render.question(tr, quiz, index, lang)
    message = await calls.send_text(bot, chat_id, asked.text)
    # Bound before the prompt goes out: a quick reply to the prompt must find its question.
    earlier = await typed.asked(attempt.id, Asked(index, message))
    text, placeholder = number_render.prompt(tr, question)
    prompt = await calls.send_force_reply(bot, chat_id, text, placeholder)
    await typed.prompted(attempt.id, index, prompt)
    if earlier is not None:  # the same question asked again (Continue): one prompt is enough
        await delete_prompt(bot, chat_id, earlier.prompt_message)


async def delete_prompt(bot: Bot, chat_id: int, message_id: int) -> None:
    """Delete a number question's ForceReply prompt once it is answered or asked again (a
    private quiz's or a round's card); 0: none known."""
    if not message_id:
        return
    try:
        await calls.delete_message(bot, chat_id, message_id)
    except BadRequest as exc:  # already gone, or too old to delete (48 h): it only prompted
        log.info("prompt not deleted: %s", exc)


class TypedReplies:
    """A private text that is not a command: the answer to the learner's open number question,
    else handed on to `otherwise` (the "I only understand commands" hint, or a handler that
    chains in front of it)."""

    def __init__(
        self, typed: pq.TypedAnswers, otherwise: Handler, cards: CardReply | None = None
    ) -> None:
        self.typed = typed
        self.otherwise = otherwise
        self.cards = cards  # number questions of review and practice rounds

    async def reply(self, update: Update, context: BotContext) -> None:
        message = update.effective_message
        if message is None or message.text is None:
            return
        if self.cards is not None and await self.cards(update, context):
            return  # the answer to an open review or practice card
        learner, tr = context.learner, context.tr
        replied = message.reply_to_message
        reply_to = replied.message_id if replied is not None else None
        outcome = await self.typed.answer(
            learner.user_id, message.text, reply_to, learner.lang, tr.decimal_separator
        )
        bot, chat_id = message.get_bot(), message.chat_id
        match outcome:
            case NotAsked():
                await self.otherwise(update, context)
            case OldQuestion():
                text = tr._(
                    "That question is closed: your reply was not counted. "
                    "/start shows where your quiz stands."
                )
                await calls.send_text(bot, chat_id, text)
            case Unreadable(question, ambiguous):
                await calls.send_text(
                    bot, chat_id, number_render.unreadable(tr, question, learner.lang, ambiguous)
                )
            case InExam():  # not counted: the question and its prompt wait for the exam's end
                await calls.send_text(bot, chat_id, render.in_exam(tr))
            case pq.TypedAnswered(quiz, attempt, index, typed, right, asked, _):
                screen, separate = number_render.answered(
                    tr, quiz, attempt.id, index, typed, right, learner.lang
                )
                # The prompt first: once the verdict shows, nothing asks for a reply any more.
                await delete_prompt(bot, chat_id, asked.prompt_message)
                if not await _edit(bot, chat_id, asked.question_message, screen):
                    # Gone or too old to edit: a new message, never a learner without Next.
                    await calls.send_text(bot, chat_id, screen.text, screen.keyboard)
                if separate is not None:
                    await calls.send_text(bot, chat_id, separate.text, separate.keyboard)


async def _edit(bot: Bot, chat_id: int, message_id: int, screen: Screen) -> bool:
    try:
        await calls.edit_text(bot, chat_id, message_id, screen.text, screen.keyboard)
    except BadRequest as exc:
        log.info("edit refused: %s", exc)
        return False
    return True
