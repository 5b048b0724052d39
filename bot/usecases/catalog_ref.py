"""The catalogue being served, in one holder that every use case and handler reads.

A content reload (`/reload`, `quizbot content reload`) swaps `CatalogRef.current` once, so
every reader sees the new catalogue from its next read on, with no object rewritten and none
forgotten (the dashboard beside the bot once kept the catalogue it started with). Attempts and
runs already under way keep the quiz version they started with: they hold their own `Quiz`.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.models import Catalog


class CatalogRef:
    __slots__ = ("current",)

    def __init__(self, catalog: Catalog) -> None:
        self.current = catalog


def catalog_ref(catalog: Catalog | CatalogRef) -> CatalogRef:
    """The holder itself, or a holder of its own for a fixed catalogue (tests, tools)."""
    return catalog if isinstance(catalog, CatalogRef) else CatalogRef(catalog)


class ServesCatalog:
    """For classes that read the served catalogue: `self.catalog` is always the current one,
    and it cannot be set (swap the holder's `current` instead)."""

    _catalog_ref: CatalogRef

    @property
    def catalog(self) -> Catalog:
        return self._catalog_ref.current


class ContentVersions(Protocol):
    """Several workers: the content generation they all serve (bot/store/pg/content_generation.py).
    A reload checked by one worker `advance`s it; the others reload when `current` moved."""

    async def current(self) -> int: ...

    async def advance(self) -> int: ...
