"""Progress meets study groups: a group miss reaches the member's private review queue (and they
are told once, only if they started the bot), /groupstats is for admins, the export matches."""

from __future__ import annotations

import csv
from pathlib import Path

from bot.cli import export
from bot.core.markup import plain
from bot.core.review import DEFAULT_SCHEDULER
from tests.e2e.groups_kit import LETTERS, QUIZ, group_bot, make_group, right_position

DAY = 86_400.0


async def test_group_misses_reach_the_review_queue_and_admins_see_statistics(
    tmp_path: Path,
) -> None:
    async with group_bot(tmp_path, seconds=30) as h:
        quiz = h.catalog.quiz(QUIZ)
        assert quiz is not None
        group, admin = await make_group(h)
        kadi = h.emu.user(2101, "Kadi", language_code="en")
        lamine = h.emu.user(2102, "Lamine", language_code="fr")
        for member in (kadi, lamine):
            group.add_member(member)
        await kadi.send("/start")  # Kadi has a private chat with the bot; Lamine never wrote
        picker = await kadi.private.wait_for(lambda m: bool(m.buttons))
        await kadi.tap(picker, "✓ English")

        await admin.send(f"/push {QUIZ}", chat=group)
        q1 = await group.wait_for(lambda m: "Question 1/2" in m.text)
        right = right_position(q1, quiz, 0)
        wrong = (right + 1) % 4
        await kadi.tap(q1, LETTERS[wrong])
        await lamine.tap(q1, LETTERS[wrong])
        await admin.tap(q1, LETTERS[right])
        mark = kadi.private.mark()
        await admin.send("/stop", chat=group)
        await group.wait_for(lambda m: "stopped" in m.text)

        notice = await kadi.private.next_message(after=mark)
        assert "joined your review queue" in notice.text and "Study group" in notice.text
        sent_to = [str(c.get("chat_id")) for c in h.emu.calls("sendMessage")]
        assert "2101" in sent_to and "2102" not in sent_to
        # Told once: a second call (say, after a restart) sends nothing.
        assert h.bot is not None
        ((run_id,),) = h.group_run_ids()
        assert await h.bot.progress_handlers.notify_group_misses(run_id) == 0

        h.clock.advance(DAY)
        mark = kadi.private.mark()
        await kadi.send("/review")
        card = await kadi.private.next_message(after=mark)
        assert plain(quiz.questions[0].prompt.get("en")) in card.text and card.buttons
        queued = h.rows("SELECT user_id, question_id, stability FROM review_items ORDER BY user_id")
        again = DEFAULT_SCHEDULER.parameters[0]  # each member's own card, rated Again
        assert queued == [(2101, quiz.questions[0].id, again), (2102, quiz.questions[0].id, again)]

        mark = group.mark()
        await lamine.send("/groupstats", chat=group)
        assert "admins" in (await group.next_message(after=mark)).text
        mark = group.mark()
        await admin.send("/groupstats", chat=group)
        report = await group.next_message(after=mark)
        assert "Runs: 1 (0 finished)" in report.text
        assert "Members who answered: 3 · answers: 3" in report.text
        assert "33% right, of 3 answers" in report.text
        ((kadi_option,),) = h.rows("SELECT option_index FROM answers WHERE user_id = 2101")
        wrong_text = plain(quiz.questions[0].options[kadi_option].text.get("en"))
        assert f"most chosen wrong answer: {wrong_text[:40]}" in report.text
        assert "English 50% (2) · French 0% (1)" in report.text  # names, in the reader's language

        out = tmp_path / "answers.csv"
        code = export.main(
            ["--chat", str(group.id), "--format", "csv", "--db", h.store, "--out", str(out)]
        )
        assert code == 0
        with out.open(encoding="utf-8") as fh:
            exported = list(csv.DictReader(fh))
        stored = h.rows(
            """SELECT an.user_id, an.question_id, an.option_id, an.is_correct, an.language
               FROM answers an JOIN attempts a ON a.id = an.attempt_id
                           WHERE a.chat_id = ? ORDER BY an.answered_at, an.user_id""",
            group.id,
        )
        assert [
            (
                int(r["user_id"]),
                r["question_id"],
                r["option_id"],
                int(r["is_correct"] == "right"),
                r["language"],
            )
            for r in exported
        ] == stored
        q = quiz.questions[0]
        assert {r["question_id"] for r in exported} == {q.id}
        texts = {o.id: o.text.get("en") for o in q.options}
        assert all(r["option"] == texts[r["option_id"]] for r in exported)
        assert {r["content_version"] for r in exported} == {quiz.version}
        assert all(
            r["answered_at"].endswith("Z")
            and r["chat_id"] == str(group.id)
            and r["quiz_id"] == QUIZ
            for r in exported
        )
