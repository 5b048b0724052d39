"""Time as the code sees it: a function returning Unix seconds, so tests move time by hand."""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]
