"""Use cases of a private quiz, called by the Telegram adapter: language, start, answer, stop.

The service joins the pure core (rules) and the store (what is durable). It keeps the active
attempts and users' languages in memory after first use: the process is the only writer, so the
cache cannot go stale, and a tap then costs one SQLite write and no read.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TypeVar

from bot.core.clock import Clock
from bot.core.engine import (
    AnswerOutcome,
    Attempt,
    Score,
    Status,
    Verdict,
    apply_answer,
    new_attempt,
    orders_match,
    score,
)
from bot.core.models import Catalog, Quiz
from bot.i18n import choose_language
from bot.store import LearnerStore

CACHE_SIZE = 10_000
V = TypeVar("V")


class _Lru(OrderedDict[int, V]):
    """A bounded map: the oldest entries go first once it is full."""

    def remember(self, key: int, value: V) -> None:
        self[key] = value
        self.move_to_end(key)
        if len(self) > CACHE_SIZE:
            self.popitem(last=False)


@dataclass(frozen=True, slots=True)
class TapResult:
    """What a tap on an answer button did, with what the adapter needs to render it."""

    outcome: AnswerOutcome
    quiz: Quiz | None
    score: Score | None = None  # set when this answer finished the attempt

    @property
    def verdict(self) -> Verdict:
        return self.outcome.verdict


class QuizService:
    def __init__(
        self,
        catalog: Catalog,
        learners: LearnerStore,
        *,
        default_language: str = "en",
        clock: Clock = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.catalog = catalog
        self.learners = learners
        self.default_language = default_language
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self._languages: dict[int, str | None] = {}
        self._attempts: _Lru[Attempt] = _Lru()
        self._shown: _Lru[int] = _Lru()  # attempt id -> highest question index shown
        # user -> ids of their attempts cached as active: forgetting them must not scan the cache.
        self._active_ids: dict[int, set[int]] = {}

    # -- learners -------------------------------------------------------------------------

    async def greet(
        self, user_id: int, first_name: str, telegram_language: str | None, *, private: bool
    ) -> tuple[str, bool]:
        """Record the user; return their reply language and whether they ever chose one."""
        user = await self.learners.touch_user(
            user_id, first_name, telegram_language, self.clock(), private=private
        )
        self._languages[user_id] = user.language
        lang = choose_language(
            stored=user.language, telegram_code=telegram_language, default=self.default_language
        )
        return lang, user.language is not None

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the user picked, if any; read once, then kept (this is the only writer)."""
        if user_id not in self._languages:
            user = await self.learners.user(user_id)
            self._languages[user_id] = user.language if user else None
        return self._languages[user_id]

    async def language(
        self, user_id: int, telegram_language: str | None, default: str | None = None
    ) -> str:
        """The language to reply to this user in (see `bot.i18n.choose_language`); `default`
        replaces the configured one, e.g. a group's language for a member's popup."""
        return choose_language(
            stored=await self.chosen_language(user_id),
            telegram_code=telegram_language,
            default=default or self.default_language,
        )

    async def set_language(self, user_id: int, lang: str) -> None:
        await self.learners.set_language(user_id, lang, self.clock())
        self._languages[user_id] = lang

    # -- attempts -------------------------------------------------------------------------

    async def start(self, user_id: int, quiz: Quiz) -> Attempt:
        """Start `quiz` for the learner, abandoning whatever they had running."""
        probe = new_attempt(0, user_id, quiz, self.rng)
        attempt_id = await self.learners.start_attempt(user_id, quiz.id, probe.orders, self.clock())
        attempt = Attempt(attempt_id, user_id, quiz.id, probe.orders, probe.answers)
        self._forget_active(user_id)
        self._remember(attempt)
        return attempt

    async def attempt(self, attempt_id: int) -> Attempt | None:
        cached = self._attempts.get(attempt_id)
        if cached is not None:
            return cached
        attempt = await self.learners.attempt(attempt_id)
        if attempt is not None:
            self._remember(attempt)
        return attempt

    async def active(self, user_id: int) -> tuple[Attempt, Quiz] | None:
        """The learner's running attempt, if its quiz still exists and still fits it."""
        attempt = await self.learners.active_attempt(user_id)
        if attempt is None:
            return None
        quiz = self.catalog.quiz(attempt.quiz_id)
        if quiz is None or not orders_match(quiz, attempt.orders):
            # The content changed under a running attempt: it cannot be continued faithfully.
            await self.learners.abandon(user_id, self.clock())
            return None
        cached = await self.attempt(attempt.id)
        return (cached or attempt), quiz

    async def answer(
        self, user_id: int, attempt_id: int, question_index: int, position: int, lang: str
    ) -> TapResult:
        """Apply a tap; the answer is durable before this returns ACCEPTED."""
        attempt = await self.attempt(attempt_id)
        if attempt is None or attempt.user_id != user_id:
            # Someone else's attempt, or an id that never existed: nothing to change.
            return TapResult(AnswerOutcome(Verdict.CLOSED, _closed(user_id)), None)
        quiz = self.catalog.quiz(attempt.quiz_id)
        if quiz is None or not orders_match(quiz, attempt.orders):
            return TapResult(AnswerOutcome(Verdict.CLOSED, attempt), None)
        outcome = apply_answer(attempt, quiz, question_index, position)
        if outcome.verdict is not Verdict.ACCEPTED or outcome.judgement is None:
            return TapResult(outcome, quiz)
        stored = await self.learners.record_answer(
            attempt,
            question_index,
            outcome.judgement.option_index,
            outcome.judgement.is_correct,
            lang,
            self.clock(),
            finishes=outcome.finished,
        )
        if not stored:
            # Lost a race with a double tap or with /stop: reload the truth from the store.
            self._attempts.pop(attempt_id, None)
            fresh = await self.attempt(attempt_id)
            verdict = (
                Verdict.ALREADY_ANSWERED
                if fresh and fresh.answers[question_index] is not None
                else Verdict.CLOSED
            )
            return TapResult(AnswerOutcome(verdict, fresh or attempt), quiz)
        self._remember(outcome.attempt)
        final = score(quiz, outcome.attempt.answers) if outcome.finished else None
        return TapResult(outcome, quiz, final)

    def claim_showing(self, attempt_id: int, question_index: int) -> bool:
        """True the first time a screen of an attempt is asked for; False for a repeat tap.

        Kept in memory only: after a restart a repeated "Next" may show a question twice, which
        is harmless (its buttons carry the same data).
        """
        if self._shown.get(attempt_id, -1) >= question_index:
            return False
        self._shown.remember(attempt_id, question_index)
        return True

    async def stop(self, user_id: int) -> bool:
        """Abandon the learner's running attempt; False when there was none."""
        stopped = await self.learners.abandon(user_id, self.clock())
        self._forget_active(user_id)
        return stopped is not None

    def _remember(self, attempt: Attempt) -> None:
        self._attempts.remember(attempt.id, attempt)
        if attempt.status is Status.ACTIVE:
            self._active_ids.setdefault(attempt.user_id, set()).add(attempt.id)
        elif attempt.user_id in self._active_ids:
            self._active_ids[attempt.user_id].discard(attempt.id)

    def _forget_active(self, user_id: int) -> None:
        for key in self._active_ids.pop(user_id, ()):
            value = self._attempts.get(key)
            if value is not None and value.status is Status.ACTIVE:
                self._attempts.pop(key, None)


def _closed(user_id: int) -> Attempt:
    return Attempt(0, user_id, "", (), (), Status.ABANDONED)
