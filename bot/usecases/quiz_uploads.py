"""Study-group admins upload quiz files: admission (size, rate) and the bounded check.

Why a use case of its own: the size is judged twice (the size Telegram declares, before any
download; then the bytes), uploads per group are rate-limited, and the parse runs in a worker
thread under a time bound so one hostile file cannot hold the event loop that serves every
other chat. The chat layer downloads and renders; this layer decides.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from bot.content.uploads import UPLOAD_LIMITS, CheckedUpload, UploadLimits, check_upload
from bot.core.clock import Clock


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


class QuizUploads:
    """Admission and checking of uploaded quiz files, per group."""

    def __init__(
        self,
        guides_from: Path,
        *,
        clock: Clock,
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
