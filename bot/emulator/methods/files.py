"""getFile: where a known file can be downloaded (the server serves `/file/bot<token>/<path>`)."""

from __future__ import annotations

from typing import Any

from .. import errors
from ..params import Params
from ..world import World
from .registry import method

MAX_DOWNLOAD = 20 * 1024 * 1024  # bots may download files up to 20 MB


@method("getFile")
async def get_file(world: World, p: Params) -> dict[str, Any]:
    file_id = p.get_str("file_id") or ""
    if not file_id:
        raise errors.bad_request("file_id is empty")
    upload = world.files.get(file_id)
    if upload is None:
        raise errors.bad_request("invalid file_id")
    info: dict[str, Any] = {
        "file_id": file_id,
        "file_unique_id": f"u{file_id}",
        "file_size": len(upload.data),
    }
    if len(upload.data) > MAX_DOWNLOAD:
        raise errors.bad_request("file is too big")
    info["file_path"] = world.file_path(file_id)
    return info
