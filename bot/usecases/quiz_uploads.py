"""Study-group admins upload quiz files: admission (size, rate) and the bounded check.

Why a use case of its own: the size is judged twice (the size Telegram declares, before any
download; then the bytes), uploads per group are rate-limited, and the parse runs in a worker
thread under a time bound so one hostile file cannot hold the event loop that serves every
other chat. The chat layer downloads and renders; this layer decides.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from bot.content.uploads import UPLOAD_LIMITS, CheckedUpload, UploadLimits, check_upload
from bot.core.clock import Clock
from bot.core.models import Quiz
from bot.store.pending_uploads import PendingRow, PendingUploadStore
from bot.store.uploads import UploadedQuiz, UploadStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TooBig:
    limit_kb: int


@dataclass(frozen=True, slots=True)
class TooFrequent:
    minutes: int  # until another upload is accepted in this group


@dataclass(frozen=True, slots=True)
class TooSlow:
    seconds: int


Refusal = TooBig | TooFrequent | TooSlow


@dataclass(frozen=True, slots=True)
class Stored:
    """The quiz is the group's now: `quiz` as served (its id scoped to the group)."""

    quiz: Quiz
    typed_id: str  # the id in the file, which the group's admins type
    version: int  # 1 for a new quiz, more for a new version of the group's quiz
    checked: CheckedUpload


@dataclass(frozen=True, slots=True)
class ShippedId:
    """The file's quiz id is a shipped quiz's: the group could never reach its own."""

    quiz_id: str


@dataclass(frozen=True, slots=True)
class PendingFile:
    """A file sent in a private chat, waiting for its sender to choose the group."""

    user_id: int
    file_id: str
    file_name: str
    file_size: int | None
    at: float


PENDING_SECONDS = 3600.0  # a group-choice button lives this long
PENDING_PER_USER = 5


def served_id(chat_id: int, quiz_id: str) -> str:
    """The id a group's quiz is served (and its answers stored) under: unique across groups and
    the shipped quizzes, in the characters callback data and the store take."""
    return f"g{abs(chat_id)}-{quiz_id}"


class QuizUploads:
    """Admission and checking of uploaded quiz files, per group."""

    def __init__(
        self,
        guides_from: Path,
        *,
        clock: Clock,
        store: UploadStore | None = None,
        limits: UploadLimits = UPLOAD_LIMITS,
        per_window: int = 10,
        window_seconds: float = 3600.0,
        parse_seconds: float = 20.0,
    ) -> None:
        self.guides_from = guides_from
        self.clock = clock
        self.limits = limits
        self.per_window = per_window
        self.window_seconds = window_seconds
        self.parse_seconds = parse_seconds
        self._recent: dict[int, deque[float]] = {}
        self.store = store
        self._own: dict[int, dict[str, Quiz]] = {}  # chat -> typed id -> the latest, served
        self._versions: dict[tuple[int, str], int] = {}  # (chat, typed id) -> version seen
        # files sent privately, waiting for a group to be chosen (any worker may take them)
        self.pending = PendingUploadStore(store.db) if store is not None else None

    async def remember(self, file: PendingFile) -> str:
        """A token for the group-choice buttons of a privately sent file. Kept in the store, so
        the tap may reach another worker, or the bot after a restart; a few per user, an hour at
        most: storage stays bounded whatever a user sends."""
        assert self.pending is not None
        token = secrets.token_hex(4)
        row = PendingRow(file.user_id, file.file_id, file.file_name, file.file_size, file.at)
        await self.pending.add(
            token, row, since=self.clock() - PENDING_SECONDS, keep=PENDING_PER_USER
        )
        return token

    async def take(self, token: str, user_id: int) -> PendingFile | None:
        """The file behind a group-choice button, for the user who sent it only (once)."""
        if self.pending is None:
            return None
        row = await self.pending.take(token, user_id, since=self.clock() - PENDING_SECONDS)
        if row is None:
            return None
        return PendingFile(row.user_id, row.file_id, row.file_name, row.file_size, row.created_at)

    async def groups_present(self) -> list[tuple[int, str]]:
        """Every group the bot is in, (chat id, title): where a private upload may go."""
        return await self.store.groups_present() if self.store is not None else []

    def own(self, chat_id: int) -> Mapping[str, Quiz]:
        """The group's own quizzes by the id its admins type, latest version of each."""
        return self._own.get(chat_id, {})

    def moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its quizzes follow it (the store moved the rows)."""
        if old_id in self._own:
            self._own[new_id] = self._own.pop(old_id)
        for chat_id, typed_id in [key for key in self._versions if key[0] == old_id]:
            self._versions[(new_id, typed_id)] = self._versions.pop((chat_id, typed_id))

    def _serve(self, chat_id: int, typed_id: str, quiz: Quiz, version: int) -> Quiz:
        served = replace(quiz, id=served_id(chat_id, typed_id))
        self._versions[(chat_id, typed_id)] = version
        self._own.setdefault(chat_id, {})[typed_id] = served
        return served

    async def accept(
        self,
        chat_id: int,
        user_id: int | None,
        file_name: str,
        data: bytes,
        checked: CheckedUpload,
        shipped_ids: set[str],
    ) -> Stored | ShippedId:
        """Keep a checked quiz as the group's (a new version if the group has that id)."""
        assert checked.quiz is not None and self.store is not None
        typed_id = checked.quiz.id
        if typed_id in shipped_ids:
            return ShippedId(typed_id)
        row = await self.store.add(
            chat_id, typed_id, file_name, checked.fmt, data.decode("utf-8"), user_id, self.clock()
        )
        served = self._serve(chat_id, typed_id, checked.quiz, row.version)
        return Stored(served, typed_id, row.version, checked)

    async def delete(self, chat_id: int, typed_id: str) -> bool:
        """Hide the group's quiz; answers given keep their history. False if it has none."""
        if typed_id not in self.own(chat_id) or self.store is None:
            return False
        await self.store.delete(chat_id, typed_id, self.clock())
        del self._own[chat_id][typed_id]
        self._versions.pop((chat_id, typed_id), None)
        return True

    async def load(self) -> list[Quiz]:
        """Start-up: every group's latest versions, checked again as on upload (the checker or
        the guides may have changed since: a quiz that no longer passes is left out, logged)."""
        if self.store is None:
            return []
        served = []
        for row in await self.store.current():
            quiz = await self._reload(row)
            if quiz is not None:
                served.append(self._serve(row.chat_id, row.quiz_id, quiz, row.version))
        return served

    async def sync(self) -> list[Quiz]:
        """Several workers: what another worker accepted or deleted since, from the store (the
        truth; `_own` is this worker's copy). Returns the quizzes newly served, for the
        catalogue; only those are read and checked again."""
        if self.store is None:
            return []
        current = await self.store.current_versions()
        for chat_id, typed_id in [key for key in self._versions if key not in current]:
            del self._versions[(chat_id, typed_id)]  # deleted, or moved with a migration
            self._own.get(chat_id, {}).pop(typed_id, None)
        served = []
        for (chat_id, typed_id), version in current.items():
            if self._versions.get((chat_id, typed_id)) == version:
                continue
            self._versions[(chat_id, typed_id)] = version  # checked once, even if it fails
            row = await self.store.version(chat_id, typed_id, version)
            quiz = await self._reload(row) if row is not None else None
            if quiz is None:
                self._own.get(chat_id, {}).pop(typed_id, None)
                continue
            served.append(self._serve(chat_id, typed_id, quiz, version))
        return served

    async def _reload(self, row: UploadedQuiz) -> Quiz | None:
        checked = await self.check(row.file_name, row.source.encode("utf-8"))
        if isinstance(checked, CheckedUpload) and checked.quiz is not None:
            return checked.quiz
        log.warning("uploaded quiz %s of chat %s no longer passes the checks: not served",
                    row.quiz_id, row.chat_id)  # fmt: skip
        return None

    def admit(self, chat_id: int, declared_size: int | None) -> Refusal | None:
        """Before downloading: the size Telegram declares, then the group's upload rate (an
        upload counts once admitted, whatever the file turns out to hold)."""
        if declared_size is not None and declared_size > self.limits.max_bytes:
            return TooBig(self.limits.max_bytes // 1024)
        now = self.clock()
        recent = self._recent.setdefault(chat_id, deque())
        while recent and now - recent[0] >= self.window_seconds:
            recent.popleft()
        if len(recent) >= self.per_window:
            wait = self.window_seconds - (now - recent[0])
            return TooFrequent(max(1, int(wait // 60) + 1))
        recent.append(now)
        return None

    async def check(self, file_name: str, data: bytes) -> CheckedUpload | Refusal:
        """The file checked as shipped content is, in a worker thread under a time bound."""
        if len(data) > self.limits.max_bytes:  # Telegram's declared size is not trusted alone
            return TooBig(self.limits.max_bytes // 1024)
        work = asyncio.to_thread(check_upload, file_name, data, self.guides_from, self.limits)
        try:
            return await asyncio.wait_for(work, self.parse_seconds)
        except TimeoutError:
            # The thread finishes on its own (every parser is bounded); its result is dropped.
            return TooSlow(int(self.parse_seconds))
