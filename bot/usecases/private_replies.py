"""A number typed in reply in the private chat, bound to the learner's own open question and
taken as its answer (`TypedAnswers`). A button carries its question in its callback data; a
reply does not, so binding it is this module's job: which question was asked, with which
messages, and whether the reply answers it. Judged by `bot.core.answers.judge` and kept by
`PrivateQuiz.keep` (private_answers.py), as a tap is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core import answers
from bot.core.answers import Typed
from bot.core.engine import Attempt, Score, Verdict
from bot.core.kinds import parse_number
from bot.core.models import Quiz
from bot.usecases.kept_asked import KeptAsked
from bot.usecases.outcomes import Asked, NotAsked, OldQuestion, Unreadable, unreadable
from bot.usecases.private_answers import InExam
from bot.usecases.private_quiz import PrivateQuiz


@dataclass(frozen=True, slots=True)
class TypedAnswered:
    """The typed answer is durable: show the verdict in the question's message."""

    quiz: Quiz
    attempt: Attempt
    index: int
    typed: str
    right: bool
    asked: Asked
    score: Score | None  # set when this answer finished the attempt


TypedOutcome = TypedAnswered | Unreadable | OldQuestion | NotAsked | InExam


class TypedAnswers:
    """A typed reply in the private chat, bound to the learner's own open `number` question.

    The reply text alone proves nothing (anyone can type "64", and a learner may reply to an
    old message), so the question it answers is decided here from the attempt's state: the
    learner's running attempt, its current question, and whether that question was asked (its
    message was sent and remembered by `asked`). A reply to a message older than the open
    question's is a reply to an old question and changes nothing. While the learner is in an
    exam the reply is not taken (`InExam`), and the question stays open.

    The asked question's messages are kept in memory (`asked`, chosen by the composition root:
    believed by one process, only a hint with several workers, bot/usecases/kept_asked.py), and
    the question's message id in the store too (`attempts.typed_message_id`, cleared once
    answered, and its prompt's `typed_prompt_id`), so a reply still binds, and the prompt is
    deleted, after a restart or on another worker.
    """

    def __init__(self, quiz: PrivateQuiz, asked: KeptAsked[Asked] | None = None) -> None:
        self.quiz = quiz
        # attempt id -> its open number question's messages
        self._asked: KeptAsked[Asked] = asked if asked is not None else KeptAsked()

    async def asked(self, attempt_id: int, asked: Asked) -> Asked | None:
        """The number question `asked.index` was sent; returns the earlier prompt of the same
        question, if any (sent again by Continue): the caller deletes it."""
        before = self._asked.last(attempt_id)
        self._asked.remember(attempt_id, asked)  # abandoned attempts' go when full: stored
        await self.quiz.learners.typed_question_sent(attempt_id, asked.question_message)
        if before is not None and before.index == asked.index and before.prompt_message:
            return before
        return None

    async def prompted(self, attempt_id: int, index: int, prompt_message: int) -> None:
        """The question's reply prompt went out (deleted once the question is answered, by
        whichever worker takes the reply: its id is stored too)."""
        known = self._asked.last(attempt_id)
        if known is not None and known.index == index:
            self._asked.update(attempt_id, replace(known, prompt_message=prompt_message))
        await self.quiz.learners.typed_prompt_sent(attempt_id, prompt_message)

    async def answer(
        self, user_id: int, text: str, reply_to: int | None, lang: str, separator: str
    ) -> TypedOutcome:
        """A text from the learner: the answer to their open number question, or why not."""
        running = await self.quiz.running(user_id)
        if running is None:
            return OldQuestion() if reply_to is not None else NotAsked()
        quiz, attempt, index = running.quiz, running.attempt, running.index
        asked = await self._open(attempt, index)
        if asked is None or index >= len(quiz) or not quiz.questions[index].typed:
            return OldQuestion() if reply_to is not None else NotAsked()
        if reply_to is not None and reply_to < asked.question_message:
            return OldQuestion()
        if await self.quiz.in_exam(user_id):
            return InExam()
        question = quiz.questions[index]
        typed = text.strip()
        value = parse_number(typed, separator, answers.units(question, lang))
        if value is None:
            return unreadable(question, typed, separator, lang)
        outcome = answers.apply(attempt, quiz, index, Typed(value))
        judgement = outcome.judgement
        if outcome.verdict is not Verdict.ACCEPTED or judgement is None:
            return OldQuestion()
        if not await self.quiz.keep(
            attempt, quiz, outcome, lang, self.quiz.clock(), (typed, value)
        ):
            self.quiz.forget_attempt(attempt.id)  # a second reply raced this one, or /stop did
            return OldQuestion()
        self._asked.forget(attempt.id)
        await self.quiz.learners.typed_question_sent(attempt.id, None)
        answered = self.quiz.accepted(quiz, outcome, judgement)
        return TypedAnswered(
            quiz, answered.attempt, index, typed, judgement.is_correct, asked, answered.score
        )

    async def _open(self, attempt: Attempt, index: int) -> Asked | None:
        """The open number question's messages, when question `index` was asked. With several
        workers another process may have asked it: nothing is believed, the store is read."""
        known = self._asked.believed(attempt.id)
        if known is not None:
            return known if known.index == index else None
        # After a restart: the store keeps the asked question's message until it is answered.
        stored = await self.quiz.learners.typed_prompt(attempt.id)
        return None if stored is None else Asked(index, *stored)

    def forget_cached(self, user_id: int) -> None:
        """After /forget: nothing of the user's stays here (attempt ids are looked up lazily)."""
        del user_id
        self._asked.clear()
