"""Handlers of the private chat: parse the update, call one use case, render its outcome."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import tzinfo

from telegram import CallbackQuery, Message, Update

from bot.core.engine import Judgement, SetJudgement
from bot.core.kinds import QuestionKind
from bot.core.models import Catalog
from bot.i18n import SUPPORTED_LANGUAGES, Translator, normalize, translator
from bot.tg import callbacks as cb
from bot.tg import flashcard_render, question_render, result_render, select_render
from bot.tg import private_render as render
from bot.tg.context import BotContext
from bot.tg.number_handlers import show_question
from bot.tg.quiz_links import QuizLinks
from bot.tg.screen_render import Screen, popup, quiz_title
from bot.tg.screen_send import acknowledge, drop_keyboard, edit, is_photo, reply, send
from bot.tg.wire.photos import PhotoSender
from bot.usecases import private_answers as pa
from bot.usecases import private_quiz as pq
from bot.usecases import private_replies as pr
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.learner_profile import Learner, Learners
from bot.usecases.learner_stats import LearnerStatsCases
from bot.usecases.outcomes import AlreadyAnswered, Closed, NothingSelected

log = logging.getLogger(__name__)


def _message(query: CallbackQuery) -> Message | None:
    """The tapped message, when it is one the bot can answer under (not an inline one)."""
    return query.message if isinstance(query.message, Message) else None


def _in_own_chat(query: CallbackQuery, user_id: int) -> bool:
    """Whether the tapped message sits in the tapper's own private chat: only there may a tap
    change a message (a replayed button must never edit someone else's)."""
    return query.message is not None and query.message.chat.id == user_id


class PrivateHandlers(ServesCatalog):
    def __init__(
        self,
        quiz: pq.PrivateQuiz,
        learners: Learners,
        catalog: Catalog | CatalogRef,
        stats: LearnerStatsCases | None = None,
        typed: pr.TypedAnswers | None = None,
        photos: PhotoSender | None = None,
        selections: pa.PrivateSelections | None = None,
    ) -> None:
        self.quiz = quiz
        self.learners = learners
        self._catalog_ref = catalog_ref(catalog)
        self.stats = stats
        self.photos = photos  # content pictures (bot/tg/wire/photos.py); None: text only
        self.typed = typed or pr.TypedAnswers(quiz)
        self.selections = selections
        # The learner's zone (SpacedReview.zone), for a rated flashcard's next review day.
        self.zone: Callable[[int], Awaitable[tzinfo]] | None = None

    async def _ask(
        self, message: Message | None, tr: Translator, show: pq.ShowQuestion, lang: str
    ) -> None:
        """Question `show.index` in the chat of `message` (buttons, or a number question's
        question and reply prompt)."""
        if message is None:
            return
        bot, chat_id = message.get_bot(), message.chat_id
        quiz, attempt, index = show.quiz, show.attempt, show.index
        selected: frozenset[int] = frozenset()
        if self.selections is not None and quiz.questions[index].kind is QuestionKind.MULTIPLE:
            # A continued quiz shows what the learner already ticked (kept in the store).
            selected = await self.selections.selection(attempt, index)
        await show_question(
            bot, chat_id, tr, quiz, attempt, index, lang, self.typed, self.photos, selected
        )

    async def _list(self, user_id: int, tr: Translator, lang: str, intro: str = "") -> Screen:
        """The quiz list with where this learner stands on each quiz."""
        marks = None
        if self.stats is not None:
            running = await self.quiz.running(user_id)
            best = await self.stats.best_scores(user_id)
            marks = render.ListMarks(best, running.quiz.id if running else None)
        return render.quiz_list(tr, self.catalog, lang, intro, marks)

    # -- commands ---------------------------------------------------------------------------

    async def start(self, update: Update, context: BotContext) -> None:
        message = update.effective_message
        if message is None:
            return
        learner = await self.learners.greet(context.learner)
        lang, tr = learner.lang, translator(learner.lang)
        payload = context.args[0] if context.args else None
        if payload is not None:
            match self.quiz.linked(payload):
                case pq.UnknownQuiz(near):
                    guess = self.catalog.quiz(near) if near else None
                    title = quiz_title(guess, lang) if guess else None
                    intro = render.unknown_link(tr, payload, title)
                    await send(message, await self._list(learner.user_id, tr, lang, intro))
                case quiz:
                    await self._begin(message, learner, quiz.id, ask=True)
            return
        # A running quiz comes first, even before a language was ever chosen (a learner who came
        # by a deep link): after a crash or a lost message, /start is the way back to it.
        running = await self.quiz.running(learner.user_id)
        if running is not None:
            await send(message, render.resume_offer(tr, running.quiz, running.attempt, lang))
            return
        if learner.chosen is None:
            # Telegram's language ticked, or the one spoken when the bot has none of it.
            ticked = normalize(learner.telegram_language) or lang
            await send(message, render.language_picker(tr, ticked))
            return
        intro = render.welcome(tr, learner.first_name)
        await send(message, await self._list(learner.user_id, tr, lang, intro))

    async def _begin(
        self,
        message: Message | None,
        learner: Learner,
        quiz_id: str,
        *,
        ask: bool = False,
        query: CallbackQuery | None = None,
        drop: bool = False,
    ) -> None:
        """Start a quiz for the learner who asked (never the chat: a chat is not a user).

        With `ask`, a quiz already answered in part is not dropped silently: the learner chooses
        to continue it or to start (over), wherever the start came from (list, link, Retake).
        A button's `query` is answered here: with the refusal as a popup during an exam (then
        its buttons stay, `drop` or not: nothing changed).
        """
        tr = translator(learner.lang)
        if message is None:  # an inline or inaccessible message: nowhere to ask the question
            if query is not None:
                await acknowledge(query)
            return
        started = await self.quiz.start(learner.user_id, quiz_id, ask=ask)
        if query is not None:
            waits = isinstance(started, pa.InExam)
            await acknowledge(query, render.in_exam(tr) if waits else None, show_alert=waits)
            if drop and not waits:
                await drop_keyboard(query)
        match started:
            case pq.StartChoice(running, wanted):
                choice = render.start_choice(
                    tr, running.quiz, running.attempt, wanted, learner.lang
                )
                await send(message, choice)
            case pq.ShowQuestion():
                await self._ask(message, tr, started, learner.lang)
            case pq.UnknownQuiz():
                await send(message, Screen(tr._("That quiz is no longer available.")))
            case pa.InExam() if query is None:
                await send(message, Screen(render.in_exam(tr)))

    async def quizzes(self, update: Update, context: BotContext) -> None:
        if update.effective_message is not None:
            lang, tr = context.learner.lang, context.tr
            listing = await self._list(context.learner.user_id, tr, lang)
            await send(update.effective_message, listing)

    async def stop(self, update: Update, context: BotContext) -> None:
        if update.effective_message is None:
            return
        tr = context.tr
        if await self.quiz.stop(context.learner.user_id):
            text = tr._("Quiz abandoned. Your answers so far are kept. /quizzes to pick another.")
        else:
            text = tr._("You have no quiz running. /quizzes to pick one.")
        await send(update.effective_message, Screen(text))

    async def language(self, update: Update, context: BotContext) -> None:
        if update.effective_message is not None:
            picker = render.language_picker(context.tr, context.learner.lang)
            await send(update.effective_message, picker)

    async def help(self, update: Update, context: BotContext) -> None:
        if update.effective_message is not None:
            await send(update.effective_message, Screen(render.help_text(context.tr)))

    async def unknown(self, update: Update, context: BotContext) -> None:
        """Text or a command we do not know: say what we understand instead of staying silent."""
        if update.effective_message is not None:
            text = context.tr._(
                "I only understand commands and buttons. /help lists what I can do."
            )
            await send(update.effective_message, Screen(text))

    # -- buttons ----------------------------------------------------------------------------

    async def callback(self, query: CallbackQuery, learner: Learner, data: cb.Callback) -> None:
        """A private button (the router checked it was tapped in a private chat)."""
        lang, tr, user_id = learner.lang, translator(learner.lang), learner.user_id
        closed = tr._("This question is closed.")
        match data:
            case cb.Answer(attempt_id, question, position):
                outcome = await self.quiz.answer(user_id, attempt_id, question, position, lang)
                await self._answered(query, outcome, lang, tr)
            case cb.Flip(attempt_id, question):
                match await self.quiz.flip(user_id, attempt_id, question):
                    case pq.ShowQuestion(quiz, attempt, index):
                        await acknowledge(query)
                        # A front sent as a captioned photo holds 1024 characters.
                        caption = is_photo(query.message)
                        await self._show_answered(
                            query,
                            flashcard_render.back(tr, quiz, attempt, index, lang, caption=caption),
                        )
                    case pa.InExam():
                        await acknowledge(query, render.in_exam(tr), show_alert=True)
                    case _:
                        await acknowledge(query, closed)
            case cb.Toggle() | cb.Submit() if self.selections is not None:
                await self._select(query, learner, data, self.selections)
            case cb.Lang(code) if code in SUPPORTED_LANGUAGES:
                learner = await self.learners.choose(learner, code)
                tr = translator(code)
                await acknowledge(query, tr._("Language: {name}", name=tr.language_name(code)))
                intro = render.welcome(tr, learner.first_name)
                running = await self.quiz.running(user_id)
                if running is not None:
                    intro = "\n\n".join([intro, render.waiting_quiz(tr, running.quiz, code)])
                await edit(query, await self._list(user_id, tr, code, intro))
            case cb.ShowQuiz(quiz_id) if (found := self.catalog.quiz(quiz_id)) is not None:
                await acknowledge(query)
                links = QuizLinks.of(query.get_bot())  # a group, 📤 Share (inline mode on)
                await edit(query, render.quiz_card(tr, found, lang, links))  # list becomes card
            case cb.BackToList():
                await acknowledge(query)
                await edit(query, await self._list(user_id, tr, lang))
            case cb.StartQuiz(quiz_id) if self.catalog.quiz(quiz_id) is not None:
                await self._begin(_message(query), learner, quiz_id, ask=True, query=query)
            case cb.StartOver(quiz_id) if self.catalog.quiz(quiz_id) is not None:
                await self._begin(_message(query), learner, quiz_id, query=query, drop=True)
            case cb.QuizList():
                await acknowledge(query)
                await reply(query, await self._list(user_id, tr, lang))
            case cb.Next(attempt_id, question):
                match await self.quiz.next(user_id, attempt_id, question):
                    case pq.ShowQuestion() as show:
                        await acknowledge(query)
                        await self._ask(_message(query), tr, show, lang)
                    case pq.ShowResult(quiz, attempt, final):
                        await acknowledge(query)
                        links = QuizLinks.of(query.get_bot())
                        screen = result_render.result(tr, quiz, attempt, final, lang, links)
                        await reply(query, screen)
                    case pq.AlreadyShown():
                        # Leaving the button in place saves a request per question (BENCHMARKS.md).
                        await acknowledge(query)
                    case pa.InExam():
                        await acknowledge(query, render.in_exam(tr), show_alert=True)
                    case _:
                        await acknowledge(query, closed)
            case cb.Continue(attempt_id):
                match await self.quiz.resume(user_id, attempt_id):
                    case pq.ShowQuestion() as show:
                        await acknowledge(query)
                        await drop_keyboard(query)
                        await self._ask(_message(query), tr, show, lang)
                    case pa.InExam():  # the offer keeps its buttons: after the exam, they work
                        await acknowledge(query, render.in_exam(tr), show_alert=True)
                    case outcome:
                        await acknowledge(
                            query, tr._("This quiz is over. /quizzes to start another.")
                        )
                        if isinstance(outcome, Closed) and _in_own_chat(query, user_id):
                            await drop_keyboard(query)  # its buttons can no longer do anything
            case cb.Abandon(attempt_id):
                match await self.quiz.abandon(user_id, attempt_id):
                    case pq.Abandoned():
                        await acknowledge(query)
                        done = Screen(tr._("Quiz abandoned. /quizzes to pick another."))
                        await edit(query, done)
                    case Closed():
                        await acknowledge(query, closed)
                        if _in_own_chat(query, user_id):
                            await drop_keyboard(query)
                    case _:
                        await acknowledge(query, closed)
            case cb.Review(attempt_id):
                match await self.quiz.mistakes(user_id, attempt_id):
                    case pq.Mistakes(quiz, attempt, missed, typed):
                        await acknowledge(query)
                        mistakes = result_render.review(tr, quiz, attempt, missed, lang, typed)
                        await reply(query, mistakes)
                    case pa.InExam():
                        await acknowledge(query, render.in_exam(tr), show_alert=True)
                    case _:
                        await acknowledge(query, closed)
            case _:
                await acknowledge(query, tr._("This button has expired. /quizzes to start again."))

    async def _select(
        self,
        query: CallbackQuery,
        learner: Learner,
        data: cb.Toggle | cb.Submit,
        selections: pa.PrivateSelections,
    ) -> None:
        """A select-all question's toggle (redraws the learner's own buttons) or Submit."""
        lang, tr, user_id = learner.lang, translator(learner.lang), learner.user_id
        if isinstance(data, cb.Submit):
            outcome = await selections.submit(user_id, data.attempt_id, data.question, lang)
            if isinstance(outcome, NothingSelected):
                await acknowledge(query, select_render.nothing_selected(tr), show_alert=True)
            else:
                await self._answered(query, outcome, lang, tr)
            return
        match await selections.toggle(user_id, data.attempt_id, data.question, data.position):
            case pa.Toggled(quiz, attempt, index, selected):
                # The redraw goes before the popup: a Submit tapped right after this toggle
                # then edits the message after it, and its verdict is never drawn over.
                if _in_own_chat(query, user_id):
                    await edit(
                        query, question_render.question(tr, quiz, attempt, index, lang, selected)
                    )
                await acknowledge(query)
            case AlreadyAnswered():
                await acknowledge(query, tr._("You already answered this question."))
            case pa.InExam():
                await acknowledge(query, render.in_exam(tr), show_alert=True)
            case _:
                await acknowledge(query, tr._("This question is closed."))

    async def _answered(
        self, query: CallbackQuery, outcome: pa.AnswerOutcome, lang: str, tr: Translator
    ) -> None:
        match outcome:
            case pa.Answered(quiz, attempt, judgement) if isinstance(judgement, SetJudgement):
                order = attempt.orders[judgement.question_index]
                await acknowledge(query, popup(select_render.verdict(tr, judgement, order)))
                await self._show_answered(
                    query, select_render.answered(tr, quiz, attempt, judgement, lang)
                )
            case pa.Answered(quiz, attempt, judgement, _, due) if (
                isinstance(judgement, Judgement)
                and quiz.questions[judgement.question_index].flashcard
            ):
                rating, index = judgement.option_index, judgement.question_index
                await acknowledge(query, flashcard_render.rated_popup(tr, rating))
                tz = await self.zone(query.from_user.id) if self.zone and due else None
                screen = flashcard_render.rated(tr, quiz, attempt, index, rating, due, tz, lang)
                await self._show_answered(query, (screen, None))
            case pa.Answered(quiz, attempt, judgement) if isinstance(judgement, Judgement):
                # The answer is stored: now the learner may see the verdict.
                await acknowledge(query, question_render.verdict_popup(tr, judgement))
                # A captioned photo holds 1024 characters: the explanation may follow on its own.
                caption = is_photo(query.message)
                await self._show_answered(
                    query,
                    question_render.answered(tr, quiz, attempt, judgement, lang, caption=caption),
                )
            case AlreadyAnswered():
                await acknowledge(query, tr._("You already answered this question."))
            case pa.InExam():  # no verdict: the question stays open for after the exam
                await acknowledge(query, render.in_exam(tr), show_alert=True)
            case _:
                await acknowledge(query, tr._("This question is closed."))

    async def _show_answered(
        self, query: CallbackQuery, screens: tuple[Screen, Screen | None]
    ) -> None:
        """The answered question in place of the question (one message per question)."""
        asked, separate = screens
        if separate is None:
            # One message per question: the explanation and Next join the question.
            if not await edit(query, asked):
                await reply(query, asked)  # never leave the learner without Next
        else:  # too long for one message: the explanation follows on its own
            await asyncio.gather(edit(query, asked), reply(query, separate, self.photos))
