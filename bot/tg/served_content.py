"""The catalogue the bot serves, swapped whole (`ServedContent`, a part of `QuizBot`): content
reloaded while running (`/reload`, `quizbot content reload` through the control socket) and
groups' uploaded quizzes joining it, synced from the store when several workers share it.

Several workers follow one content generation (`BotOptions.content_versions`): a reload that
one worker checked and served moves it, and every other worker, comparing it with its own every
UPLOAD_SYNC_SECONDS, reloads its own files. So an owner's /reload reaches every worker, not the
one that happened to receive it, and no two workers serve different content for longer than
that (docs/caches.md). A worker notes the generation just after loading its files at start, so
a reload announced in between (files edited and reloaded within those seconds) is one it may
miss until the next reload.
"""

from __future__ import annotations

import asyncio
import logging

from bot.content import default_content_dir
from bot.content.reload import ReloadResult, reload_catalog
from bot.core.models import Catalog, Quiz
from bot.tg.options import BotOptions
from bot.usecases.catalog_ref import CatalogRef
from bot.usecases.quiz_uploads import QuizUploads

log = logging.getLogger(__name__)
UPLOAD_SYNC_SECONDS = 5.0  # several workers: another worker's upload is served here this soon


class ServedContent:
    """What `QuizBot` (bot/tg/app.py) serves; it sets what is read here when it is built."""

    options: BotOptions
    catalog_ref: CatalogRef
    uploads: QuizUploads
    _reload_lock: asyncio.Lock
    _content_generation: int | None = None  # several workers: the generation served here

    async def reload_content(self) -> ReloadResult:
        """Load and check the content again; serve it only if it has no error; with several
        workers, tell the others to reload too.

        Attempts and group runs already under way keep the quiz version they started with (the
        new catalogue remembers the old versions); new ones start on the new content.
        """
        result = await self._reload_files()
        versions = self.options.content_versions
        if result.ok and versions is not None:
            try:
                self._content_generation = await versions.advance()
            except Exception as exc:  # the store briefly unreachable: this worker alone
                log.warning(
                    "content reloaded by this worker only: the others could not be told (%s)", exc
                )
        return result

    async def _follow_content(self) -> None:
        """Several workers: reload this worker's files when another worker's reload moved the
        content generation (the first look only notes the generation served since start)."""
        versions = self.options.content_versions
        if versions is None:
            return
        generation = await versions.current()
        if self._content_generation is None:
            self._content_generation = generation
        elif generation != self._content_generation:
            self._content_generation = generation  # one try per reload, even one refused here
            log.info("content generation %d: another worker reloaded, reloading", generation)
            await self._reload_files()

    async def _reload_files(self) -> ReloadResult:
        async with self._reload_lock:
            path = self.options.content_dir or default_content_dir()
            result = await asyncio.to_thread(
                reload_catalog,
                path,
                self.catalog_ref.current,
                guide_base_url=self.options.guide_base_url,
            )
            if result.ok:
                self._serve(result.catalog)
                log.info("content reloaded from %s: %s", path, result.summary())
            else:
                log.warning("content reload refused:\n%s", result.summary())
            return result

    async def _sync_uploads(self) -> None:
        """Several workers: another worker's content reload, and a group's quiz uploaded or
        deleted through another worker, are served (or no longer) here within
        UPLOAD_SYNC_SECONDS (docs/caches.md)."""
        while True:
            await asyncio.sleep(UPLOAD_SYNC_SECONDS)
            try:
                await self._follow_content()
                if served := await self.uploads.sync():
                    self._serve_uploaded(*served)
            except Exception as exc:  # the store briefly unreachable: the next round retries
                log.warning("uploaded quizzes not synced from the store: %s", exc)

    def _serve_uploaded(self, *quizzes: Quiz) -> None:
        """A group's uploaded quizzes join the served catalogue by id and version (never listed;
        earlier versions stay for the runs still playing them)."""
        self._serve(self.catalog_ref.current.with_versions(quizzes))

    def _serve(self, catalog: Catalog) -> None:
        """Serve a new catalogue: one swap, seen by every holder from its next read on
        (`options.catalog` follows, for whoever reads the bot's options)."""
        self.catalog_ref.current = self.options.catalog = catalog

    async def _reload_command(self, argument: str = "") -> tuple[bool, str]:
        result = await self.reload_content()
        return result.ok, result.summary()
