"""Security: nobody acts on another learner's attempt, the token reaches no log and no chat,
webhooks need their secret, SQL is parameterised, YAML is loaded safely, the DB file is 0600."""

from __future__ import annotations

import ast
import asyncio
import logging
import os
import stat
from pathlib import Path

import httpx
import pytest

from bot import logs
from bot.content import default_content_dir, load_catalog
from bot.emulator import Emulator
from bot.store import Database
from bot.tg.options import BotOptions
from tests.e2e.harness import TOKEN, compose_bot
from tests.reliability.support import (
    ROOT,
    VERDICT,
    bot_at,
    buttons,
    free_port,
    no_leak,
    start_quiz,
)


async def test_foreign_attempt_ids_change_nothing(tmp_path: Path) -> None:
    async with bot_at(tmp_path) as h:
        owner, intruder = h.emu.user(6001, "Owner"), h.emu.user(6002, "Intruder")
        q1 = await start_quiz(owner)
        await owner.tap(q1, "A")
        explanation = await owner.private.wait_for(lambda m: any("▶" in b for b in buttons(m)))
        attempt_id, status = h.rows("SELECT id, status FROM attempts")[0]
        await intruder.send("/help")
        own = await intruder.private.wait_for(lambda m: "/quizzes" in m.text)
        before = h.rows("SELECT * FROM answers"), h.rows("SELECT * FROM attempts")
        shown = len(intruder.private.bot_messages)
        for data in [
            f"ans:{attempt_id}:1:0",
            f"next:{attempt_id}:1",
            f"cont:{attempt_id}",
            f"stop:{attempt_id}",
            f"rev:{attempt_id}",
            f"ans:{attempt_id}:0:1",
        ]:
            # From the intruder's own chat, and replayed on the owner's message.
            for message in (own, explanation):
                reply = await intruder.tap(message, callback_data=data)
                assert reply is not None and reply.text, data
                assert not reply.text.startswith(VERDICT), data
        assert (h.rows("SELECT * FROM answers"), h.rows("SELECT * FROM attempts")) == before
        assert status == "active" and len(intruder.private.bot_messages) == shown
        # The owner's one message (the answered question): no question or review leaked to them.
        assert len(owner.private.bot_messages) == 1
        # The intruder's /stop and /start touch only their own (absent) attempt.
        await intruder.send("/stop")
        await intruder.private.wait_for(lambda m: "no quiz running" in m.text)
        assert h.rows("SELECT status FROM attempts WHERE id = ?", attempt_id) == [("active",)]
        answer = await owner.tap(explanation, buttons(explanation)[0])
        assert answer is not None


# -- the token -------------------------------------------------------------------------------


async def test_token_never_logged_even_at_debug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level, {n: logging.getLogger(n).level for n in logs.NOISY}
    logs.setup("DEBUG", TOKEN)
    try:
        async with bot_at(tmp_path, admin_chat_id=6999) as h:
            user = h.emu.user(6003, "Awa")
            q1 = await start_quiz(user)
            await user.tap(q1, "A")
            h.emu.faults.add("sendMessage", "500", chat_id=user.id, times=None)
            await user.send("/quizzes")  # fails: the error handler logs with a traceback
            await asyncio.sleep(1.5)
            h.emu.faults.clear()
            texts = [m.text for c in h.emu.world.chats.values() for m in c.messages.values()]
            assert all(no_leak(t) for t in texts)
        # A start-up failure: the Bot API refuses the token.
        async with Emulator(token="999:other", flood=None) as emu:
            catalog = load_catalog(default_content_dir())
            bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "b.sqlite3",
                                     catalog=catalog, base_url=emu.base_url))  # fmt: skip
            with pytest.raises(Exception) as failed:
                await bot.start()
            await bot.stop()
            logging.getLogger("bot.cli.run").error("start failed", exc_info=failed.value)
        # Defence in depth: a traceback that carries a request URL is redacted too.
        try:
            raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/getMe failed")
        except RuntimeError:
            logging.getLogger("bot").exception("request failed")
    finally:
        root.handlers[:], level, noisy = saved
        root.setLevel(level)
        for name, value in noisy.items():
            logging.getLogger(name).setLevel(value)
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert "DEBUG" in output and "Traceback" in output  # it did log, at every level
    assert TOKEN not in output
    assert TOKEN.split(":", 1)[1] not in output


async def test_the_admin_note_about_a_long_error_is_valid_html(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error's text is cut to 500 characters for the admin chat before it is escaped: a cut
    of the escaped text could fall inside `&amp;` or `&lt;`, which Telegram refuses."""

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("x" * 498 + " <b> & more")

    async with bot_at(tmp_path, admin_chat_id=6999) as h:
        admin = h.emu.user(6999, "Admin")
        await admin.send("/start")
        user = h.emu.user(6004, "Awa")
        await user.send("/start")
        await user.private.wait_for(lambda m: bool(m.buttons))
        monkeypatch.setattr("bot.tg.private_render.quiz_list", broken)
        mark = admin.private.mark()
        await user.send("/quizzes")
        note = await admin.private.wait_for(lambda m: "RuntimeError" in m.text, after=mark)
        assert note.text.endswith("x <")  # the first 500 characters, as written
        assert not [k for k in h.emu.stats.errors if k[1] == 400]


# -- webhook ---------------------------------------------------------------------------------


async def test_webhook_refuses_updates_without_the_secret(tmp_path: Path) -> None:
    async with Emulator(token=TOKEN, flood=None) as emu:
        catalog = load_catalog(default_content_dir())
        bot = compose_bot(BotOptions(token=TOKEN, db_path=tmp_path / "w.sqlite3", catalog=catalog,
                                 base_url=emu.base_url, rate_limit=False))  # fmt: skip
        port = free_port()
        await bot.start_webhook("https://example.org/telegram", "s3cret-Token_1", "127.0.0.1",
                                port)  # fmt: skip
        try:
            user = emu.user(6004, "Hook")
            user.state.started = True  # they wrote to the bot before (through Telegram)
            update = {"update_id": 1, "message": {
                "message_id": 1, "date": 1_790_000_000, "text": "/help",
                "chat": {"id": user.id, "type": "private", "first_name": "Hook"},
                "from": {"id": user.id, "is_bot": False, "first_name": "Hook"},
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}  # fmt: skip
            url = f"http://127.0.0.1:{port}/telegram"
            async with httpx.AsyncClient() as client:
                codes = []
                for headers in (
                    {},
                    {"X-Telegram-Bot-Api-Secret-Token": "wrong"},
                    {"X-Telegram-Bot-Api-Secret-Token": "s3cret-Token_1"},
                ):
                    update["update_id"] = int(update["update_id"]) + 1
                    codes.append((await client.post(url, json=update, headers=headers))
                                 .status_code)  # fmt: skip
            assert codes == [403, 403, 200]
            await user.private.wait_for(lambda m: "/quizzes" in m.text)
            assert len(user.private.bot_messages) == 1  # only the authenticated update
        finally:
            await bot.stop()


# -- code that must stay safe ----------------------------------------------------------------

SQL_CALLS = {"execute", "executemany", "executescript", "execute_fetchall", "execute_insert"}
# What an f-string may put into SQL: constants and identifiers checked against a fixed set,
# never data. A new entry needs the same proof in review.
SQL_INTERPOLATIONS = {
    ("db.py", "pragma"),  # from a literal tuple of PRAGMA settings
    ("db.py", "sql"),  # migration files shipped in the package
    ("db.py", "number"),  # the migration number parsed from its file name
    ("groups.py", "column"),  # checked against SETTING_COLUMNS first
    ("groups.py", "table"),  # from a literal tuple of table names
    ("groups.py", "_RUN_SELECT"),  # a module constant
    ("schedules.py", "HEARD_NAME"),  # a constant subquery (bot/store/topic_names.py)
    ("schedules.py", "_SELECT"),  # a module constant built from it
    ("reviews.py", "guard"),  # a constant WHERE clause; values are parameters
    ("analytics.py", "where"),  # one of two constant clauses; the chat id is a parameter
    ("answer_batch.py", "rows"),  # `placeholders()`: question marks only, values are parameters
    ("answer_batch.py", "names_sql"),  # the same
    ("problem_reports.py", "marks"),  # question marks only; the quiz ids are parameters
    ("problem_reports.py", "where"),  # one of two constant clauses; values are parameters
}


SQL_WORDS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "CREATE", "DROP", "ALTER")


def _looks_like_sql(node: ast.JoinedStr) -> bool:
    head = node.values[0] if node.values else None
    text = head.value.lstrip().upper() if isinstance(head, ast.Constant) else ""
    return isinstance(text, str) and text.startswith(SQL_WORDS)


def _allowed(path: Path, node: ast.JoinedStr) -> bool:
    parts = [ast.unparse(v.value) for v in node.values if isinstance(v, ast.FormattedValue)]
    return all((path.name, part) in SQL_INTERPOLATIONS for part in parts)


def unsafe_sql(path: Path) -> list[str]:
    """Calls that build SQL from variables: f-strings, %, .format() or + as the query."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.JoinedStr) and _looks_like_sql(node):
            # Built beforehand and passed by name: the same rule applies.
            if not _allowed(path, node):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)[:80]}")
            continue
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in SQL_CALLS and node.args):  # fmt: skip
            continue
        query = node.args[0]
        if isinstance(query, ast.Constant | ast.Name | ast.Attribute):
            continue  # a literal, or a name bound to one (an f-string there is checked below)
        if isinstance(query, ast.JoinedStr):
            parts = [
                ast.unparse(v.value) for v in query.values if isinstance(v, ast.FormattedValue)
            ]
            if all((path.name, part) in SQL_INTERPOLATIONS for part in parts):
                continue
            if _looks_like_sql(query):
                continue  # reported above
        found.append(f"{path.name}:{node.lineno}: {ast.unparse(query)[:80]}")
    return found


def test_sql_is_always_parameterised() -> None:
    store = sorted((ROOT / "bot" / "store").glob("*.py"))
    assert store
    assert [hit for path in store for hit in unsafe_sql(path)] == []


def test_the_sql_scan_catches_string_building(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "async def f(conn, name):\n"
        "    await conn.execute(f\"SELECT * FROM users WHERE name = '{name}'\")\n"
        '    await conn.execute("SELECT * FROM users WHERE id = %s" % name)\n'
        '    await conn.execute("SELECT {}".format(name))\n'
        '    await conn.execute("SELECT " + name)\n'
        '    await conn.execute(f"UPDATE groups SET {column} = ?", (name,))\n'
        "    query = f\"DELETE FROM users WHERE name = '{name}'\"\n"
    )
    assert len(unsafe_sql(bad)) == 6  # a known identifier name is allowed only where reviewed


def unsafe_yaml(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in {
            "unsafe_load", "unsafe_load_all", "full_load", "full_load_all", "FullLoader",
            "UnsafeLoader", "Loader",
        } and isinstance(node.value, ast.Name) and node.value.id == "yaml":  # fmt: skip
            found.append(f"{path}:{node.lineno}: yaml.{node.attr}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"load", "load_all"}
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "yaml"
        ):
            loader = [k.value for k in node.keywords if k.arg == "Loader"] + node.args[1:]
            if not any("Safe" in ast.unparse(arg) for arg in loader):
                found.append(f"{path}:{node.lineno}: yaml.{node.func.attr} without SafeLoader")
    return found


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    sources = [p for p in (ROOT / "bot").rglob("*.py")]
    assert [hit for path in sources for hit in unsafe_yaml(path)] == []
    bad = tmp_path / "bad.py"
    bad.write_text("import yaml\nyaml.load(s)\nyaml.load(s, Loader=yaml.FullLoader)\n"
                   "yaml.unsafe_load(s)\nyaml.load(s, Loader=yaml.SafeLoader)\n")  # fmt: skip
    assert len(unsafe_yaml(bad)) == 4  # the call without a loader, FullLoader twice, unsafe


async def test_database_files_are_private(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        db = Database(tmp_path / "data" / "quizbot.sqlite3")
        await db.open()
        try:
            await db.write(
                lambda conn: conn.execute(
                    "INSERT INTO users (id, created_at, updated_at) VALUES (1, 0, 0)"
                )
            )
            for path in (db.path, Path(f"{db.path}-wal"), Path(f"{db.path}-shm")):
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        finally:
            await db.close()
    finally:
        os.umask(old)
