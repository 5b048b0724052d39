"""`quizbot forget USER_ID` run beside a live bot on the same SQLite file: the rows go at once,
and the bot, told through its control socket, keeps nothing of the user in memory either (it
used to answer them in the language it had kept until its next restart)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bot.cli import forget as forget_cli
from bot.control import send, socket_path
from bot.emulator import Emulator
from bot.tg.options import BotOptions
from tests.e2e.harness import TOKEN, Harness, shipped_catalog

LEARNER = 3101


@dataclass
class SocketHarness(Harness):
    def options(self) -> BotOptions:
        return replace(super().options(), control_socket=socket_path(self.db_path))


async def test_forget_beside_the_running_bot_drops_what_it_keeps_of_the_user(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], store_engine: str
) -> None:
    """On PostgreSQL (QUIZBOT_E2E_ENGINES=postgresql) the command deletes through the database,
    whose notifications clear the running bot's copy (docs/caches.md); no socket is asked."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = SocketHarness(emu, tmp_path / "quizbot.sqlite3", shipped_catalog())
        await h.start_bot()
        try:
            awa = emu.user(LEARNER, "Awa", language_code="en")
            mark = awa.private.mark()
            await awa.send("/language")
            picker = await awa.private.next_message(after=mark)
            mark = awa.private.mark()
            await awa.tap(picker, "Français")
            await awa.private.wait_for(lambda m: "Bienvenue" in m.text)  # the picker, edited
            mark = awa.private.mark()
            await awa.send("/help")
            french = (await awa.private.next_message(after=mark)).text
            assert french == await _help_in(h, "fr")  # the choice, kept in memory
            code = await asyncio.to_thread(forget_cli.main, [str(LEARNER), "--db", h.store])
            assert code == 0
            out = capsys.readouterr().out
            if store_engine == "sqlite":  # told through the control socket beside the file
                assert "running bot: user 3101: nothing of them kept in memory" in out
            else:
                assert "user 3101: profile deleted" in out
            mark = awa.private.mark()
            await awa.send("/help")  # in Telegram's language again: no choice is kept
            english = (await awa.private.next_message(after=mark)).text
            assert english == await _help_in(h, "en") != french
            ok, text = await send(socket_path(h.db_path), "forget x")
            assert not ok and "positive number" in text
        finally:
            await h.stop_bot()


async def _help_in(h: Harness, lang: str) -> str:
    """/help as a newcomer in `lang` gets it."""
    other = h.emu.user(LEARNER + {"en": 1, "fr": 2}[lang], "Ndeye", language_code=lang)
    mark = other.private.mark()
    await other.send("/help")
    return (await other.private.next_message(after=mark)).text


async def test_the_running_bot_forgets_the_learner_on_either_engine(tmp_path: Path) -> None:
    """On SQLite the bot is told through its control socket; one process on PostgreSQL hears
    the deletion as workers do (LISTEN/NOTIFY). It used to keep the learner's choices in memory
    until its next restart, answering a forgotten learner in the language they had picked."""
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = SocketHarness(emu, tmp_path / "quizbot.sqlite3", shipped_catalog())
        await h.start_bot()
        try:
            awa = emu.user(LEARNER, "Awa", language_code="en")
            mark = awa.private.mark()
            await awa.send("/language")
            picker = await awa.private.next_message(after=mark)
            await awa.tap(picker, "Français")
            await awa.private.wait_for(lambda m: "Bienvenue" in m.text)
            mark = awa.private.mark()
            await awa.send("/help")
            french = (await awa.private.next_message(after=mark)).text
            assert french == await _help_in(h, "fr")
            code = await asyncio.to_thread(forget_cli.main, [str(LEARNER), "--db", h.store])
            assert code == 0
            english = await _help_in(h, "en")
            for _ in range(50):  # a NOTIFY arrives a moment after the commit
                mark = awa.private.mark()
                await awa.send("/help")
                if (await awa.private.next_message(after=mark)).text == english:
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the running bot still answers in the forgotten language")
        finally:
            await h.stop_bot()
