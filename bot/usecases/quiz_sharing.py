"""Passing a quiz on: the inline mode's search (`@bot words` in any chat) and the quiz a
`startgroup` link names when the bot is added to a group with it.

Only the listed (shipped) quizzes are ever offered to outsiders: a group's own uploaded quizzes
are served by id and version only (`Catalog.with_versions`) and never iterated here, so neither a
search nor a link from another chat can reach them. A group's own link to its own quiz (its
admins typed `/start@bot <its id>`) is found through that group only.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.limits import DEEP_LINK_PAYLOAD
from bot.core.models import Catalog, Quiz
from bot.store.quiz_plays import QuizPlays
from bot.usecases.catalog_ref import CatalogRef, ServesCatalog, catalog_ref
from bot.usecases.group_run_outcomes import UnknownQuiz, closest_quiz

QUERY_MAX_CHARS = 256  # Telegram's own bound on an inline query; longer ones are cut, not refused
MAX_RESULTS = 20
PLAYS_FRESH_SECONDS = 300.0  # the most-played order may lag this much behind


@dataclass(frozen=True, slots=True)
class Invited:
    """The quiz a startgroup link named (`typed`: the id `/push` takes in that group);
    `guessed_from`: the unknown id typed, when this is only the closest quiz."""

    quiz: Quiz
    typed: str
    guessed_from: str | None = None


def fold(text: str) -> str:
    """Case and accents folded, so "révision" finds "Revision" and the reverse."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    cleaned = "".join(c if c.isprintable() else " " for c in text[:QUERY_MAX_CHARS])
    return fold(cleaned).split()


class QuizSharing(ServesCatalog):
    def __init__(
        self,
        catalog: Catalog | CatalogRef,
        plays: QuizPlays,
        *,
        clock: Clock = time.time,
        own_quizzes: Callable[[int], Mapping[str, Quiz]] | None = None,
    ) -> None:
        self._catalog_ref = catalog_ref(catalog)
        self.plays = plays
        self.clock = clock
        # A group's own (uploaded) quizzes by the id typed in the group; set by the uploads.
        self.own_quizzes: Callable[[int], Mapping[str, Quiz]] = own_quizzes or (lambda _: {})
        self._counts: dict[str, int] = {}
        self._counted_at: float | None = None

    async def _play_counts(self) -> dict[str, int]:
        now = self.clock()
        if self._counted_at is None or now - self._counted_at > PLAYS_FRESH_SECONDS:
            self._counts = await self.plays.counts()
            self._counted_at = now
        return self._counts

    async def search(self, query: str, lang: str) -> list[Quiz]:
        """The listed quizzes matching every word of `query` (cut to 256 characters) in their
        title (in `lang` or English), id or description; an id typed whole first, then title
        matches. No word: the most played. At most MAX_RESULTS."""
        words = _words(query)
        listed = list(self.catalog)
        if not words:
            counts = await self._play_counts()
            order = {quiz.id: n for n, quiz in enumerate(listed)}
            listed.sort(key=lambda quiz: (-counts.get(quiz.id, 0), order[quiz.id]))
            return listed[:MAX_RESULTS]
        ranked: list[tuple[int, int, Quiz]] = []
        for n, quiz in enumerate(listed):
            title = fold(f"{quiz.title.get(lang)} {quiz.title.get('en')}")
            rest = fold(f"{quiz.id} {quiz.description.get(lang)} {quiz.description.get('en')}")
            if not all(word in title or word in rest for word in words):
                continue
            exact = fold(quiz.id) in words
            in_title = sum(word in title for word in words)
            ranked.append((-(exact * 100 + in_title), n, quiz))
        ranked.sort(key=lambda row: row[:2])
        return [quiz for _, _, quiz in ranked[:MAX_RESULTS]]

    def invited(self, chat_id: int, payload: str) -> Invited | UnknownQuiz:
        """The quiz of `/start@bot <payload>` in a group: the group's own quiz of that id, a
        listed one, else the closest listed one (as `/push` suggests), else none."""
        own = self.own_quizzes(chat_id)
        if DEEP_LINK_PAYLOAD.fullmatch(payload):
            found = own.get(payload)
            if found is not None:
                return Invited(found, payload)
            listed = self.catalog.quiz(payload)
            if listed is not None:
                return Invited(listed, listed.id)
        typed = payload[:64]
        close = closest_quiz(typed, [quiz.id for quiz in self.catalog] + list(own))
        if close is None:
            return UnknownQuiz()
        quiz = own.get(close) or self.catalog.quiz(close)
        return Invited(quiz, close, typed) if quiz is not None else UnknownQuiz()
