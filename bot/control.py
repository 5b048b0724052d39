"""A local control socket: `quizbot content reload` asks the running bot to reload its content,
and `quizbot forget USER_ID` to drop what it keeps in memory of a user it deleted.

A Unix socket beside the database (`<db>.sock`, mode 0600: only the bot's own user can use it)
rather than a signal: the command gets the bot's answer back (what changed, or every content
error by file, line and key) and no process id file can go stale. One request per connection:
a command word on one line, maybe followed by a space and its argument; the reply's first line
is `ok` or `error`, the rest is text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

log = logging.getLogger(__name__)
Command = Callable[[str], Awaitable[tuple[bool, str]]]  # its argument ("" if none)
MAX_REQUEST = 64
REPLY_TIMEOUT = 120.0


def socket_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".sock")


class ControlServer:
    def __init__(self, path: Path, commands: dict[str, Command]) -> None:
        self.path = path
        self.commands = commands
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        if self.path.exists() or self.path.is_symlink():
            self.path.unlink()  # left by a bot that was killed: nobody listens on it
        old = os.umask(0o177)
        try:
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        finally:
            os.umask(old)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), 10)
            request = line[:MAX_REQUEST].decode("ascii", "replace").strip()
            word, _, argument = request.partition(" ")
            command = self.commands.get(word)
            if command is None:
                ok, text = False, f"unknown command {word!r} (known: {', '.join(self.commands)})"
            else:
                ok, text = await command(argument.strip())
            writer.write(f"{'ok' if ok else 'error'}\n{text}\n".encode())
            await writer.drain()
        except (TimeoutError, ConnectionError) as exc:
            log.info("control socket: %s", exc)
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


async def send(path: Path, command: str, timeout: float = REPLY_TIMEOUT) -> tuple[bool, str]:
    """Ask the bot listening on `path`; (ok, text). Raises OSError if no bot listens there."""
    reader, writer = await asyncio.open_unix_connection(str(path))
    try:
        writer.write(f"{command}\n".encode())
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    status, _, text = data.decode("utf-8", "replace").partition("\n")
    return status == "ok", text.rstrip("\n")
