"""Group burst and fan-out: they need group runs (`/push`, `g:<run>:<q>:<pos>` taps, reveals).

Group runs (bot/tg/group.py, bot/groups/) landed while the private benchmark was being built;
the drivers for these two phases are not written yet, so the report says so instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

IMPLEMENTED = False
UNAVAILABLE = "not yet available: the group burst and fan-out drivers are not written yet"


def available() -> bool:
    root = Path(__file__).resolve().parents[1]
    return IMPLEMENTED and (root / "tg" / "group.py").is_file()


async def burst(members: int, workdir: Path) -> dict[str, Any]:
    raise NotImplementedError(UNAVAILABLE)


async def fanout(groups: int, workdir: Path) -> dict[str, Any]:
    raise NotImplementedError(UNAVAILABLE)
