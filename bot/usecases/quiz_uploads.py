"""Study-group admins upload quiz files: admission (size, rate) and the bounded check.

Why a use case of its own: the size is judged twice (the size Telegram declares, before any
download; then the bytes), uploads per group are rate-limited (only a stored quiz counts: a
refused or failed file costs the group nothing), and the parse runs in a worker thread under a
time bound so one hostile file cannot hold the event loop that serves every other chat. A file
whose quiz id the group already has is not stored until the admin who sent it chooses to
replace that quiz or keep both (`Replaces`). The chat layer downloads and renders; this layer
decides.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path

from bot.content.formats.draft import unique
from bot.content.kept_ids import KeptIds, keep_ids, with_ids
from bot.content.upload_limits import UPLOAD_LIMITS, UploadLimits
from bot.content.uploads import (
    CheckedUpload,
    check_upload,
    source_bytes,
    stored_source,
)
from bot.core.clock import Clock
from bot.core.models import GuidePath, Quiz, Text
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


@dataclass(frozen=True, slots=True)
class TooManyRefused:
    """The group sent too many files that were refused: each cost a download and a parse."""

    minutes: int  # until another upload is looked at in this group


Refusal = TooBig | TooFrequent | TooSlow | TooManyRefused


@dataclass(frozen=True, slots=True)
class Stored:
    """The quiz is the group's now: `quiz` as served (its id scoped to the group)."""

    quiz: Quiz
    typed_id: str  # the id in the file, which the group's admins type
    version: int  # 1 for a new quiz, more for a new version of the group's quiz
    checked: CheckedUpload
    # A new version: which questions kept their ids (None for a quiz id new to the group).
    kept: KeptIds | None = None


@dataclass(frozen=True, slots=True)
class ShippedId:
    """The file's quiz id is a shipped quiz's: the group could never reach its own."""

    quiz_id: str


@dataclass(frozen=True, slots=True)
class Replaces:
    """The group already has a quiz with the file's id: nothing is stored until the admin who
    sent the file chooses (replace it, keep both with the file's quiz under `free_id`, or
    neither)."""

    typed_id: str
    current_title: Text  # of the group's quiz the file would replace
    incoming: Quiz  # the file's, as checked
    free_id: str  # the id "keep both" would store it under


class Choice(StrEnum):
    """The answer to `Replaces`, as its buttons carry it."""

    REPLACE = "r"
    KEEP_BOTH = "n"
    CANCEL = "x"


@dataclass(frozen=True, slots=True)
class PendingFile:
    """A file waiting for its sender: to choose the group (sent privately, `chat_id` None), or
    to confirm a replacement in group `chat_id`. `user_id` is the sender, or the group's own id
    for an anonymous admin (then any admin of the group may choose)."""

    user_id: int
    file_id: str
    file_name: str
    file_size: int | None
    at: float
    chat_id: int | None = None


PENDING_SECONDS = 3600.0  # a group-choice or replace button lives this long
PENDING_PER_USER = 5
MAX_GROUP_CHECKS = 10  # groups a private upload asks Telegram about (getChatMember), at most
SEEN_REFRESH_SECONDS = 3600.0
MAX_SEEN_ENTRIES = 10_000


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
        refused_per_window: int = 30,
        window_seconds: float = 3600.0,
        parse_seconds: float = 20.0,
    ) -> None:
        self.guides_from = guides_from
        self.clock = clock
        self.limits = limits
        self.per_window = per_window
        # Refused files do not count toward `per_window` (a teacher fixing a file must not be
        # locked out), but each costs a download and a bounded parse: a cap of their own.
        self.refused_per_window = refused_per_window
        self.window_seconds = window_seconds
        self.parse_seconds = parse_seconds
        self._recent: dict[int, deque[float]] = {}
        self._refused: dict[int, deque[float]] = {}
        self.store = store
        self._own: dict[int, dict[str, Quiz]] = {}  # chat -> typed id -> the latest, served
        self._versions: dict[tuple[int, str], int] = {}  # (chat, typed id) -> version seen
        # (chat, typed id) -> the guide an admin picked, as last read (None: none picked)
        self._picked: dict[tuple[int, str], str | None] = {}
        self._named: set[tuple[int, str]] = set()  # whose file names its own guide
        self._seen_at: dict[tuple[int, int], float] = {}  # (chat, user) -> last `seen` write
        # files sent privately, waiting for a group to be chosen (any worker may take them)
        self.pending = PendingUploadStore(store.db) if store is not None else None

    async def remember(self, file: PendingFile) -> str:
        """A token for the group-choice buttons of a privately sent file. Kept in the store, so
        the tap may reach another worker, or the bot after a restart; a few per user, an hour at
        most: storage stays bounded whatever a user sends."""
        assert self.pending is not None
        token = secrets.token_hex(4)
        row = PendingRow(file.user_id, file.file_id, file.file_name, file.file_size, file.at,
                         file.chat_id)  # fmt: skip
        await self.pending.add(
            token, row, since=self.clock() - PENDING_SECONDS, keep=PENDING_PER_USER
        )
        return token

    async def take(
        self, token: str, user_id: int, chat_id: int | None = None
    ) -> PendingFile | None:
        """The file behind a group-choice button (`chat_id` None) or a replace button of group
        `chat_id`, for the one who sent it only (once)."""
        if self.pending is None:
            return None
        since = self.clock() - PENDING_SECONDS
        row = await self.pending.take(token, user_id, since=since, chat_id=chat_id)
        if row is None:
            return None
        return PendingFile(row.user_id, row.file_id, row.file_name, row.file_size, row.created_at,
                           row.chat_id)  # fmt: skip

    async def waiting(self, token: str, chat_id: int) -> bool:
        """Whether a file (someone's) waits for a replace choice under `token` in `chat_id`."""
        if self.pending is None:
            return False
        return await self.pending.waiting(token, chat_id, since=self.clock() - PENDING_SECONDS)

    async def groups_seen(self, user_id: int) -> list[tuple[int, str]]:
        """The groups a private upload by `user_id` may go to, to be checked with Telegram:
        those the bot is in where it saw them, the most recent `MAX_GROUP_CHECKS`. Never every
        group: a stranger's /upload would cost one getChatMember call per group."""
        if self.store is None:
            return []
        return await self.store.groups_seen(user_id, MAX_GROUP_CHECKS)

    async def seen(self, chat_id: int, user_id: int) -> None:
        """`user_id` added the bot to the group, or was confirmed as one of its admins: kept in
        the store, at most once an hour per person and group (an admin's every command would
        otherwise be a write; the order of the groups offered needs no finer time)."""
        now = self.clock()
        last = self._seen_at.get((chat_id, user_id))
        if self.store is None or (last is not None and now - last < SEEN_REFRESH_SECONDS):
            return
        if len(self._seen_at) >= MAX_SEEN_ENTRIES:
            self._seen_at.clear()
        self._seen_at[(chat_id, user_id)] = now
        await self.store.seen(chat_id, user_id, now)

    async def gone(self, chat_id: int) -> None:
        """Telegram no longer knows the group (or the bot is out of it): not offered again
        until the group is heard from. Its data stays (`UploadStore.gone`)."""
        if self.store is not None:
            await self.store.gone(chat_id, self.clock())

    def own(self, chat_id: int) -> Mapping[str, Quiz]:
        """The group's own quizzes by the id its admins type, latest version of each."""
        return self._own.get(chat_id, {})

    def moved(self, old_id: int, new_id: int) -> None:
        """The group became a supergroup: its quizzes follow it (the store moved the rows)."""
        if old_id in self._own:
            self._own[new_id] = self._own.pop(old_id)
        for chat_id, typed_id in [key for key in self._versions if key[0] == old_id]:
            self._versions[(new_id, typed_id)] = self._versions.pop((chat_id, typed_id))
            self._picked[(new_id, typed_id)] = self._picked.pop((chat_id, typed_id), None)
            if (chat_id, typed_id) in self._named:
                self._named.discard((chat_id, typed_id))
                self._named.add((new_id, typed_id))

    def _name(self, chat_id: int, typed_id: str, checked: CheckedUpload) -> None:
        """Whether the group's quiz `typed_id` names its own guide (then no admin picks one)."""
        if checked.names_guide:
            self._named.add((chat_id, typed_id))
        else:
            self._named.discard((chat_id, typed_id))

    def _serve(
        self, chat_id: int, typed_id: str, quiz: Quiz, version: int, picked: str | None
    ) -> Quiz:
        served = replace(quiz, id=served_id(chat_id, typed_id))
        self._versions[(chat_id, typed_id)] = version
        self._picked[(chat_id, typed_id)] = picked
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
        choice: Choice | None = None,
    ) -> Stored | ShippedId | Replaces:
        """Keep a checked quiz as the group's. If the group has a quiz with that id, only with
        the sender's `choice`: a new version of it (REPLACE), or a quiz of its own under a free
        id (KEEP_BOTH); without one, `Replaces` asks and nothing is stored."""
        assert checked.quiz is not None and self.store is not None
        typed_id = checked.quiz.id
        if typed_id in shipped_ids:
            return ShippedId(typed_id)
        current = await self._current_title(chat_id, typed_id)
        if current is not None:
            if choice is None or choice is Choice.CANCEL:
                free = await self._free_id(chat_id, typed_id, shipped_ids)
                return Replaces(typed_id, current, checked.quiz, free)
            if choice is Choice.KEEP_BOTH:
                typed_id = await self._free_id(chat_id, typed_id, shipped_ids)
        kept = await self._kept(chat_id, typed_id, checked.quiz, checked.fmt)
        row = await self.store.add(
            chat_id,
            typed_id,
            file_name,
            checked.fmt,
            stored_source(file_name, data),
            user_id,
            self.clock(),
            question_ids=kept.stored() if kept is not None else None,
            removed=kept.removed if kept is not None else (),
            served_id=served_id(chat_id, typed_id),
        )
        self._count(chat_id)
        quiz = _with_guide(checked, with_ids(checked.quiz, row.question_ids), row.guide)
        self._name(chat_id, typed_id, checked)
        served = self._serve(chat_id, typed_id, quiz, row.version, row.guide)
        return Stored(served, typed_id, row.version, checked, kept)

    async def _kept(self, chat_id: int, typed_id: str, quiz: Quiz, fmt: str) -> KeptIds | None:
        """A new version of the group's quiz `typed_id` (deleted or not): its questions matched
        to the last version's (`kept_ids`). None for a quiz id new to the group."""
        assert self.store is not None
        last = await self.store.latest(chat_id, typed_id)
        if last is None:
            return None
        old = self.own(chat_id).get(typed_id)
        if old is None or self._versions.get((chat_id, typed_id)) != last.version:
            rebuilt = await self._rebuild(last)  # deleted, or another worker's version
            old = rebuilt[1] if rebuilt is not None else None
        served = served_id(chat_id, typed_id)
        used = await self.store.used_question_ids(chat_id, typed_id, served)
        if old is not None:
            used |= {q.id for q in old.questions}
        options = await self.store.used_option_ids(chat_id, typed_id, served)
        return keep_ids(old, quiz, fmt, used, options)

    async def set_guide(self, chat_id: int, typed_id: str, guide: GuidePath | None) -> Quiz | None:
        """An admin picked the guide of the group's quiz `typed_id`, whose file names none
        (None: no guide). The quiz as served now, for the catalogue; None when the group has
        no such quiz any more, or its file names its own guide (then that one stands)."""
        own = self.own(chat_id).get(typed_id)
        version = self._versions.get((chat_id, typed_id))
        if own is None or version is None or self.store is None:
            return None
        if (chat_id, typed_id) in self._named:
            return None
        picked = guide.id if guide is not None else None
        if not await self.store.set_guide(chat_id, typed_id, version, picked):
            return None
        self._picked[(chat_id, typed_id)] = picked
        served = replace(own, guide=guide)
        self._own[chat_id][typed_id] = served
        return served

    async def _current_title(self, chat_id: int, typed_id: str) -> Text | None:
        """The title of the group's quiz `typed_id` (its id if only the store knows it yet:
        another worker's upload of the last seconds), None if the group has none."""
        own = self.own(chat_id).get(typed_id)
        if own is not None:
            return own.title
        assert self.store is not None
        if (chat_id, typed_id) in await self.store.current_versions():  # (version, guide)
            return Text.plain(typed_id)
        return None

    async def _free_id(self, chat_id: int, typed_id: str, shipped_ids: set[str]) -> str:
        """`typed_id-2`, `-3`...: taken by no quiz of the group (deleted ones included, whose
        numbering would continue) nor by a shipped quiz."""
        assert self.store is not None
        taken = {*await self.store.quiz_ids(chat_id), *self.own(chat_id), *shipped_ids}
        return unique(typed_id, taken)

    async def delete(self, chat_id: int, typed_id: str) -> Quiz | None:
        """Hide the group's quiz; answers given keep their history. The quiz deleted (its
        title names it to the admins), or None if the group has no quiz of that id."""
        quiz = self.own(chat_id).get(typed_id)
        if quiz is None or self.store is None:
            return None
        await self.store.delete(chat_id, typed_id, self.clock(), served_id(chat_id, typed_id))
        del self._own[chat_id][typed_id]
        self._versions.pop((chat_id, typed_id), None)
        return quiz

    async def load(self) -> list[Quiz]:
        """Start-up: every group's latest versions, checked again as on upload (the checker or
        the guides may have changed since: a quiz that no longer passes is left out, logged)."""
        if self.store is None:
            return []
        served = []
        for row in await self.store.current():
            quiz = await self._reload(row)
            if quiz is not None:
                served.append(self._serve(row.chat_id, row.quiz_id, quiz, row.version, row.guide))
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
        for (chat_id, typed_id), (version, picked) in current.items():
            seen = self._versions.get((chat_id, typed_id)) == version
            if seen and self._picked.get((chat_id, typed_id)) == picked:
                continue
            self._versions[(chat_id, typed_id)] = version  # checked once, even if it fails
            self._picked[(chat_id, typed_id)] = picked
            row = await self.store.version(chat_id, typed_id, version)
            quiz = await self._reload(row) if row is not None else None
            if quiz is None:
                self._own.get(chat_id, {}).pop(typed_id, None)
                continue
            served.append(self._serve(chat_id, typed_id, quiz, version, picked))
        return served

    async def _rebuild(self, row: UploadedQuiz) -> tuple[CheckedUpload, Quiz] | None:
        """A stored version checked again, under the question ids kept with it."""
        checked = await self.check(row.file_name, source_bytes(row.source))
        if isinstance(checked, CheckedUpload) and checked.quiz is not None:
            return checked, with_ids(checked.quiz, row.question_ids)
        return None

    async def _reload(self, row: UploadedQuiz) -> Quiz | None:
        rebuilt = await self._rebuild(row)
        if rebuilt is not None:
            checked, quiz = rebuilt
            self._name(row.chat_id, row.quiz_id, checked)
            return _with_guide(checked, quiz, row.guide)
        log.warning("uploaded quiz %s of chat %s no longer passes the checks: not served",
                    row.quiz_id, row.chat_id)  # fmt: skip
        return None

    def admit(self, chat_id: int, declared_size: int | None) -> Refusal | None:
        """Before downloading: the size Telegram declares, then the group's upload rate (only
        stored quizzes count: `accept` counts them)."""
        if declared_size is not None and declared_size > self.limits.max_bytes:
            return TooBig(self.limits.max_bytes // 1024)
        wait = self._wait(self._refused, chat_id, self.refused_per_window)
        if wait is not None:
            return TooManyRefused(wait)
        wait = self._wait(self._recent, chat_id, self.per_window)
        return TooFrequent(wait) if wait is not None else None

    def _wait(self, log_: dict[int, deque[float]], chat_id: int, most: int) -> int | None:
        """Minutes until the group's window in `log_` has room again, None if it has now."""
        now = self.clock()
        recent = log_.setdefault(chat_id, deque())
        while recent and now - recent[0] >= self.window_seconds:
            recent.popleft()
        if len(recent) < most:
            return None
        return max(1, int((self.window_seconds - (now - recent[0])) // 60) + 1)

    def refused(self, chat_id: int) -> None:
        """A file of the group was refused after its download (problems, or too slow)."""
        self._refused.setdefault(chat_id, deque()).append(self.clock())

    def _count(self, chat_id: int) -> None:
        self._recent.setdefault(chat_id, deque()).append(self.clock())

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


def _with_guide(checked: CheckedUpload, quiz: Quiz, picked: str | None) -> Quiz:
    """The quiz with the guide its file names, else the one an admin picked (if the deployment
    still has it), else none."""
    if checked.names_guide:
        return quiz
    return replace(quiz, guide=checked.guides.get(picked) if picked is not None else None)
