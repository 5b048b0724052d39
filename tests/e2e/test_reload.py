"""Content reloaded while the bot runs: history stays with its question and option, a broken
reload keeps the old content and says why, and a running attempt finishes on its own version."""

from __future__ import annotations

import asyncio
import csv
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import yaml

from bot.cli import export
from bot.cli.content_reload import run_reload
from bot.content import load_catalog
from bot.core.markup import plain
from bot.core.models import Quiz
from bot.emulator import Emulator
from bot.tg.options import BotOptions
from tests.e2e.groups_kit import GroupHarness, make_group, right_position
from tests.e2e.harness import TOKEN, answer_as, answer_current, answered, typed_for
from tests.e2e.progress_kit import LETTERS, QUIZ, is_card, right_letter, take_quiz

SHIPPED = Path(__file__).resolve().parents[2] / "content"
OWNER = 4242
DAY = 86_400.0


@dataclass
class ReloadHarness(GroupHarness):
    content: Path = SHIPPED

    def options(self) -> BotOptions:
        return replace(
            super().options(),
            content_dir=self.content,
            owner_ids=frozenset({OWNER}),
            control_socket=self.db_path.with_name("bot.sock"),
        )


@asynccontextmanager
async def reload_bot(tmp_path: Path, seconds: float = 30) -> AsyncIterator[ReloadHarness]:
    content = tmp_path / "content"
    shutil.copytree(SHIPPED, content)
    async with Emulator(token=TOKEN, flood=None) as emu:
        h = ReloadHarness(
            emu,
            tmp_path / "quizbot.sqlite3",
            load_catalog(content),
            seconds=seconds,
            content=content,
        )
        await h.start_bot()
        try:
            yield h
        finally:
            await h.stop_bot()


def source(h: ReloadHarness) -> Path:
    return h.content / "quizzes" / f"{QUIZ}.yaml"


def reorder(h: ReloadHarness) -> None:
    """Reverse the questions and, in each, the options (ids and answers unchanged)."""
    data = yaml.safe_load(source(h).read_text(encoding="utf-8"))
    questions = {}
    for qid in reversed(list(data["questions"])):
        question = data["questions"][qid]
        if "options" in question and question.get("kind") != "true_false":  # fixed order
            question["options"] = dict(reversed(list(question["options"].items())))
        questions[qid] = question
    data["questions"] = questions
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000)
    source(h).write_text(text, encoding="utf-8")


async def owner_reload(h: ReloadHarness) -> str:
    owner = h.emu.user(OWNER, "Owner", language_code="en")
    mark = owner.private.mark()
    await owner.send("/reload")
    return (await owner.private.next_message(after=mark, timeout=30)).text


def exported(h: ReloadHarness, tmp_path: Path) -> list[dict[str, str]]:
    out = tmp_path / "answers.csv"
    args = ["--all", "--db", h.store, "--content", str(h.content), "--out", str(out)]
    assert export.main(args) == 0
    with out.open(encoding="utf-8") as fh:
        return [
            {k: r[k] for k in ("user_id", "question_id", "question", "option_id", "option")}
            for r in csv.DictReader(fh)
        ]


def stats_line(report: str, prompt: str) -> tuple[str, str]:
    """/groupstats: a question's line (without its number) and the line after it."""
    lines = report.splitlines()
    at = next(i for i, line in enumerate(lines) if prompt[:40] in line)
    return lines[at].split(". ", 1)[1], lines[at + 1]


def played(quiz: Quiz) -> int:
    """How many questions a group run of `quiz` asks: number questions are left out."""
    return sum(not q.typed for q in quiz.questions)


async def test_reordered_content_keeps_every_past_answer_on_its_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with reload_bot(tmp_path) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        kadi = h.emu.user(2101, "Kadi", language_code="en")
        group.add_member(kadi)
        await kadi.send("/start")
        await kadi.tap(await kadi.private.wait_for(lambda m: bool(m.buttons)), "✓ English")
        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: f"Question 1/{played(quiz)}" in m.text)
        right = right_position(q1, quiz, 0)
        await kadi.tap(q1, LETTERS[(right + 1) % 4])
        await admin.tap(q1, LETTERS[right])
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "stopped" in m.text)
        await kadi.private.wait_for(lambda m: "review queue" in m.text)  # told once, privately
        # Misses still waiting in the review inbox when the content changes.
        await take_quiz(kadi, kadi.private, quiz, miss={1, 5}, first=False)

        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        before_stats = (await group.next_message(after=mark)).text
        prompt = plain(quiz.questions[0].prompt.get("en"))
        before_line = stats_line(before_stats, prompt)
        before_export = exported(h, tmp_path)
        mark = kadi.private.mark()
        await kadi.send("/stats")
        before_me = (await kadi.private.next_message(after=mark)).text

        reorder(h)
        assert "Quizzes changed: gradient-accumulation" in await owner_reload(h)
        assert h.bot is not None
        # Every use case and handler that holds the catalogue holds the new one.
        holders = [v for v in vars(h.bot).values() if hasattr(v, "catalog")]
        assert len(holders) >= 7 and all(v.catalog is h.bot.options.catalog for v in holders)
        new = h.bot.options.catalog.quiz(QUIZ) if h.bot else None
        assert new is not None and new.version != quiz.version
        assert [q.id for q in new.questions] == [q.id for q in reversed(quiz.questions)]

        assert exported(h, tmp_path) == before_export  # same question and option text per row
        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        after_stats = (await group.next_message(after=mark)).text
        assert stats_line(after_stats, prompt) == before_line
        assert f"{len(quiz)}. {prompt[:40]}" in after_stats  # shown where the question sits now
        mark = kadi.private.mark()
        await kadi.send("/stats")
        assert (await kadi.private.next_message(after=mark)).text == before_me

        h.clock.advance(DAY)
        served = set()
        mark = kadi.private.mark()
        await kadi.send("/review")
        for _ in range(3):
            card = await kadi.private.wait_for(
                lambda m: "Review ·" in m.text and is_card(m), after=mark
            )
            index = next(
                i for i, q in enumerate(new.questions) if plain(q.prompt.get("en")) in card.text
            )
            served.add(new.questions[index].id)
            mark = kadi.private.mark()
            await kadi.tap(card, LETTERS[right_letter(card, new, index)])
            feedback = await answered(kadi.private, card, mark)  # the card, edited in place
            mark = kadi.private.mark()
            await kadi.tap(feedback, feedback.buttons[0][0].text)
        assert served == {quiz.questions[i].id for i in (0, 1, 5)}


async def test_a_broken_reload_keeps_the_old_content_and_says_why(tmp_path: Path) -> None:
    async with reload_bot(tmp_path) as h:
        assert h.bot is not None
        old = h.bot.options.catalog
        text = source(h).read_text(encoding="utf-8")
        source(h).write_text(text.replace("answer: b", "answer: z", 1), encoding="utf-8")
        reply = await owner_reload(h)
        assert reply.startswith("❌") and f"{QUIZ}.yaml:" in reply and "names no option" in reply
        assert h.bot.options.catalog is old and h.bot.quiz.catalog is old

        stranger = h.emu.user(777, "Stranger", language_code="en")
        mark = stranger.private.mark()
        await stranger.send("/reload")
        assert "only the bot's owners" in (await stranger.private.next_message(after=mark)).text

        # The command line talks to the same bot through its control socket.
        socket = h.db_path.with_name("bot.sock")
        assert await asyncio.to_thread(run_reload, socket, None) == 1
        source(h).write_text(text, encoding="utf-8")
        assert await asyncio.to_thread(run_reload, socket, None) == 0
        assert await asyncio.to_thread(run_reload, tmp_path / "nobody.sock", None) == 1


async def test_an_attempt_started_before_a_reload_finishes_on_its_version(tmp_path: Path) -> None:
    async with reload_bot(tmp_path) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        user = h.emu.user(3001, "Awa", language_code="en")
        chat = user.private
        await user.send("/start")
        await user.tap(await chat.wait_for(lambda m: bool(m.buttons)), "✓ English")
        mark = chat.mark()
        await user.send(f"/start {QUIZ}")
        first = await chat.next_message(after=mark)
        mark = chat.mark()
        await user.tap(first, LETTERS[right_letter(first, quiz, 0)])
        explanation = await answered(chat, first, mark)

        reorder(h)
        # The new prompt keeps the old one's numbers: the checker holds translations to them.
        old = quiz.questions[1].prompt.get("en")
        numbers = " × ".join(re.findall(r"\d+", old))
        changed = (
            source(h).read_text(encoding="utf-8").replace(old, f"A brand-new prompt, {numbers}?")
        )
        source(h).write_text(changed, encoding="utf-8")
        assert "Quizzes changed" in await owner_reload(h)

        # The running attempt goes on with the questions, in the order, it started with.
        for index in range(1, len(quiz)):
            mark = chat.mark()
            await user.tap(explanation, explanation.buttons[0][0].text)
            shown = await chat.next_message(after=mark)
            assert plain(quiz.questions[index].prompt.get("en")) in shown.text
            if quiz.questions[index].typed:  # a number question: the answer is typed
                typed = typed_for(quiz.questions[index])
                explanation = await answer_current(user, shown, typed=typed)
                continue
            mark = chat.mark()
            await answer_as(user, shown, quiz.questions[index], right=True)
            explanation = await answered(chat, shown, mark)
        mark = chat.mark()
        await user.tap(explanation, explanation.buttons[0][0].text)
        assert f"{len(quiz)}/{len(quiz)}" in (await chat.next_message(after=mark)).text

        # A new attempt starts on the new content.
        new: Quiz | None = h.bot.options.catalog.quiz(QUIZ) if h.bot else None
        assert new is not None
        mark = chat.mark()
        await user.send(f"/start {QUIZ}")
        fresh = await chat.next_message(after=mark)
        assert plain(new.questions[0].prompt.get("en")) in fresh.text
        assert plain(quiz.questions[0].prompt.get("en")) not in fresh.text


async def test_a_group_run_started_before_a_reload_finishes_on_its_version(tmp_path: Path) -> None:
    async with reload_bot(tmp_path, seconds=1.0) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        await admin.send(f"/push {QUIZ}", chat=group)
        await group.wait_for(lambda m: f"Question 1/{played(quiz)}" in m.text)
        reorder(h)
        assert "Quizzes changed" in await owner_reload(h)
        second = await group.wait_for(lambda m: f"Question 2/{played(quiz)}" in m.text, timeout=15)
        assert plain(quiz.questions[1].prompt.get("en")) in second.text
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "stopped" in m.text)


async def test_the_dashboard_beside_the_bot_serves_the_reloaded_content(tmp_path: Path) -> None:
    """The Mini App started with the bot reads the catalogue the bot serves now: its preview
    once kept listing the quizzes it started with after a reload."""
    import aiohttp

    from bot.cli.run import start_dashboard
    from bot.web.auth import sign_init_data

    async with reload_bot(tmp_path) as h:
        assert h.bot is not None
        runner, port = await start_dashboard(h.bot, TOKEN, "127.0.0.1", 0)
        try:
            data = yaml.safe_load(source(h).read_text(encoding="utf-8"))
            data["title"] = "Accumulating gradients, retitled"
            source(h).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
            assert "Quizzes changed" in await owner_reload(h)
            user = {"id": OWNER, "first_name": "Owner", "language_code": "en"}
            ticket = sign_init_data(TOKEN, user, auth_date=h.clock.now)
            url = f"http://127.0.0.1:{port}/api/view?view=preview"
            async with (
                aiohttp.ClientSession() as session,
                session.get(url, headers={"Authorization": f"tma {ticket}"}) as response,
            ):
                page = await response.text()
            assert response.status == 200, page
            assert "Accumulating gradients, retitled" in page
        finally:
            await runner.cleanup()
