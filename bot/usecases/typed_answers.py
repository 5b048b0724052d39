"""A typed reply in the private chat, bound to the learner's own open `number` question.

The reply text alone proves nothing (anyone can type "64", and a learner may reply to an old
message), so the question it answers is decided here from the attempt's state: the learner's
running attempt, its current question, and whether that question was asked (its message was
sent and remembered by `asked`). A reply to a message older than the open question's is a
reply to an old question and changes nothing. While the learner is in an exam the reply is not
taken (`InExam`: bot/usecases/private_quiz.py says why), and the question stays open.

The asked question's messages are kept in memory, and the question's message id in the store
too (`attempts.typed_message_id`, cleared once answered, and its prompt's `typed_prompt_id`), so
a reply still binds, and the prompt is deleted, after a restart or on another worker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.engine import Attempt, Score, Verdict, apply_number, score
from bot.core.kinds import ambiguous_number, parse_number
from bot.core.models import Question, Quiz
from bot.usecases.private_quiz import CACHE_SIZE, InExam, PrivateQuiz


@dataclass(frozen=True, slots=True)
class Asked:
    """The messages of an asked number question: the question (edited once answered) and the
    ForceReply prompt (deleted once answered; 0 when unknown, after a restart)."""

    index: int
    question_message: int
    prompt_message: int = 0


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


@dataclass(frozen=True, slots=True)
class Unreadable:
    """Not a number: nothing stored, the question stays open."""

    question: Question
    ambiguous: str = ""  # the reply, when it is "1,000": thousands or decimals? (its own hint)


@dataclass(frozen=True, slots=True)
class OldQuestion:
    """A reply to an earlier message than the open question's, or to a question answered."""


@dataclass(frozen=True, slots=True)
class NotAsked:
    """No number question is open for this learner: the text is not an answer."""


TypedOutcome = TypedAnswered | Unreadable | OldQuestion | NotAsked | InExam


def units(question: Question, lang: str) -> tuple[str, ...]:
    """The units a reply may end with: the learner's language's and the English one."""
    found = (question.unit.get(lang), question.unit.get("en"))
    return tuple(dict.fromkeys(u for u in found if u))


def unreadable(question: Question, typed: str, separator: str, lang: str) -> Unreadable:
    """Why a reply is not taken: no number, or one whose thousands separator could be a
    decimal mark ("1,000"), which has its own message."""
    doubt = ambiguous_number(typed, separator, units(question, lang))
    return Unreadable(question, typed if doubt else "")


class TypedAnswers:
    def __init__(self, quiz: PrivateQuiz) -> None:
        self.quiz = quiz
        self._asked: dict[int, Asked] = {}  # attempt id -> its open number question's messages

    async def asked(self, attempt_id: int, asked: Asked) -> Asked | None:
        """The number question `asked.index` was sent; returns the earlier prompt of the same
        question, if any (sent again by Continue): the caller deletes it."""
        before = self._asked.get(attempt_id)
        if len(self._asked) >= CACHE_SIZE:  # abandoned attempts' entries: the store has them
            self._asked.clear()
        self._asked[attempt_id] = asked
        await self.quiz.learners.typed_question_sent(attempt_id, asked.question_message)
        if before is not None and before.index == asked.index and before.prompt_message:
            return before
        return None

    async def prompted(self, attempt_id: int, index: int, prompt_message: int) -> None:
        """The question's reply prompt went out (deleted once the question is answered, by
        whichever worker takes the reply: its id is stored too)."""
        known = self._asked.get(attempt_id)
        if known is not None and known.index == index:
            self._asked[attempt_id] = replace(known, prompt_message=prompt_message)
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
        value = parse_number(typed, separator, units(question, lang))
        if value is None:
            return unreadable(question, typed, separator, lang)
        outcome = apply_number(attempt, quiz, index, value)
        if outcome.verdict is not Verdict.ACCEPTED or outcome.judgement is None:
            return OldQuestion()
        stored = await self.quiz.learners.record_answer(
            attempt,
            index,
            outcome.judgement.option_index,
            outcome.judgement.is_correct,
            lang,
            self.quiz.clock(),
            question_id=question.id,
            option_id="",
            typed=(typed, value),
        )
        if not stored:  # a second reply raced this one, or /stop did
            self.quiz.forget_attempt(attempt.id)
            return OldQuestion()
        self._asked.pop(attempt.id, None)
        await self.quiz.learners.typed_question_sent(attempt.id, None)
        self.quiz.remember(outcome.attempt)
        final = None
        if outcome.finished:  # select-all answers count by their submitted sets
            final = score(quiz, outcome.attempt.answers, outcome.attempt.selections)
        return TypedAnswered(
            quiz, outcome.attempt, index, typed, outcome.judgement.is_correct, asked, final
        )

    async def _open(self, attempt: Attempt, index: int) -> Asked | None:
        """The open number question's messages, when question `index` was asked. With several
        workers (`shared`) another process may have asked it: the store is read every time."""
        known = None if self.quiz.shared else self._asked.get(attempt.id)
        if known is not None:
            return known if known.index == index else None
        # After a restart: the store keeps the asked question's message until it is answered.
        stored = await self.quiz.learners.typed_prompt(attempt.id)
        return None if stored is None else Asked(index, *stored)

    def forget_cached(self, user_id: int) -> None:
        """After /forget: nothing of the user's stays here (attempt ids are looked up lazily)."""
        del user_id
        self._asked.clear()
