"""/upload in a study group through the emulator: admins only, line-numbered problems, hostile
files refused with a clear message while the bot keeps serving, nothing stored from a bad file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.emulator.driver import ChatView, SimUser
from tests.e2e.harness import Harness, running
from tests.e2e.uploads_kit import GOOD_YAML, make_group


@pytest.fixture
async def h(tmp_path: Path, transport: str) -> AsyncIterator[Harness]:
    async with running(tmp_path, transport=transport) as harness:
        yield harness


def tables(h: Harness) -> dict[str, int]:
    """The number of rows in every table of the store, on either engine."""
    if h.engine == "sqlite":
        listing = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        listing = (
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    names = [str(name) for (name,) in h.rows(listing)]
    return {n: int(h.rows(f'SELECT count(*) FROM "{n}"')[0][0]) for n in names}


async def still_serving(group: ChatView, admin: SimUser) -> None:
    mark = group.mark()
    await admin.send("/quiz", chat=group)
    await group.wait_for(lambda m: "gradient" in m.text.lower(), after=mark, timeout=30)


async def test_an_admin_uploads_a_sound_yaml_quiz_and_reads_its_summary(h: Harness) -> None:
    group, admin, _ = await make_group(h)
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "ours.yaml" in m.text, timeout=30)
    assert "✅ ours.yaml is a sound quiz." in shown.text
    assert "Title: Our own quiz" in shown.text and "2 questions" in shown.text
    assert "Quiz id: my-quiz" in shown.text and "Languages: English" in shown.text


async def test_a_reply_to_a_file_and_an_anonymous_admin_both_count(h: Harness) -> None:
    group, admin, _ = await make_group(h)
    sent = await admin.send_document("ours.yaml", GOOD_YAML.encode(), chat=group)
    await admin.send("/upload", chat=group, reply_to=sent)
    await group.wait_for(lambda m: "is a sound quiz" in m.text, timeout=30)
    mark = group.mark()
    await group.send_document_as_anonymous_admin("again.yaml", GOOD_YAML.encode(),
                                                 caption="/upload")  # fmt: skip
    # the same quiz id: asked first; the file is the group's, so any admin may choose
    ask = await group.wait_for(lambda m: "Our own quiz" in m.text and "Replace" in m.text,
                               after=mark, timeout=30)  # fmt: skip
    mark = group.mark()
    await admin.tap(ask, "♻️ Replace")
    await group.wait_for(lambda m: "again.yaml is a sound quiz" in m.text, after=mark, timeout=30)


async def test_a_members_upload_is_refused_in_their_language(h: Harness) -> None:
    group, _, member = await make_group(h)
    await member.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    # (not the how-to posted when the bot joined: its command list names admins too)
    refused = await group.wait_for(lambda m: "admin" in m.text and "👋" not in m.text, timeout=30)
    assert "sound quiz" not in refused.text
    assert "administrateurs" in refused.text  # Awa writes in French


async def test_upload_without_a_file_says_how(h: Harness) -> None:
    group, admin, _ = await make_group(h)
    await admin.send("/upload", chat=group)
    await group.wait_for(lambda m: "/upload as its caption" in m.text, timeout=30)


async def test_a_malformed_file_gets_line_numbered_problems_and_nothing_is_stored(
    h: Harness,
) -> None:
    group, admin, _ = await make_group(h)
    before = tables(h)
    broken = GOOD_YAML.replace('    prompt: "How much is 2 + 2?"\n', "")
    await admin.send_document("broken.yaml", broken.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "broken.yaml" in m.text, timeout=30)
    assert "cannot be used. Nothing was changed." in shown.text
    assert "Line 8: question “sum”, prompt: missing" in shown.text  # the one without a prompt
    assert tables(h) == before
    await still_serving(group, admin)


HOSTILE = {
    "oversized": ("big.yaml", b"# " + b"x" * (300 * 1024), "too big"),
    "deep": ("deep.yaml", b"a: " + b"[" * 20_000 + b"]" * 20_000, "Line 1:"),
    "aliases": (
        "bomb.yaml",
        b"a: &a [x, x, x, x, x, x, x, x, x]\n"
        + b"".join(
            f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n".encode()
            for p, n in zip("abcdefgh", "bcdefghi", strict=True)
        ),
        "aliases",
    ),
    "not utf-8": ("latin.yaml", "id: café\n".encode("latin-1"), "UTF-8"),
    "10,000 options": (
        "wide.yaml",
        GOOD_YAML.replace(
            '      c: "Three"\n',
            "".join(f"      o{i}: x\n" for i in range(10_000)),
        ).encode(),
        "Line",
    ),
    "unknown type": (
        "quiz.docx",
        b"PK\x03\x04",
        "Moodle XML (.xml), QTI 2.1 (.zip) and Anki (.apkg",
    ),
    "a Moodle XML entity bomb": (
        "bank.xml",
        b'<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY a "aaaaaaaaaa">'
        + b"".join(
            f'<!ENTITY {n} "{("&" + p + ";") * 10}">'.encode()
            for p, n in zip("abcdefgh", "bcdefghi", strict=True)
        )
        + b"]>\n<quiz>&i;</quiz>\n",
        "Line 2: question left out: a DTD or an entity declaration",
    ),
}


@pytest.mark.parametrize("kind", list(HOSTILE))
async def test_hostile_files_get_a_clear_refusal_and_the_bot_keeps_serving(
    h: Harness, kind: str
) -> None:
    name, data, expected = HOSTILE[kind]
    group, admin, _ = await make_group(h)
    before = tables(h)
    mark = group.mark()
    await admin.send_document(name, data, caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "❌" in m.text or "too big" in m.text, after=mark,
                                 timeout=60)  # fmt: skip
    assert expected in shown.text, shown.text
    assert "sound quiz" not in shown.text and "Traceback" not in shown.text
    assert tables(h) == before
    await still_serving(group, admin)


async def test_a_claimed_size_over_the_limit_is_refused_before_any_download(h: Harness) -> None:
    group, admin, _ = await make_group(h)
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group,
                              file_size=10 * 1024 * 1024)  # fmt: skip
    await group.wait_for(lambda m: "too big" in m.text, timeout=30)
    assert h.emu.calls("getFile") == []


async def test_an_upload_command_addressed_to_another_bot_is_not_ours(h: Harness) -> None:
    """As an admin the bot sees every message, `/upload@otherbot` included: it must not act on a
    command meant for another bot, in a caption or in a reply, yet still take its own name."""
    group, admin, _ = await make_group(h)
    await h.emu.set_bot_status(group, "administrator", by=admin)
    await admin.send_document("other.yaml", GOOD_YAML.encode(), caption="/upload@otherbot",
                              chat=group)  # fmt: skip
    sent = await admin.send_document("reply.yaml", GOOD_YAML.encode(), chat=group)
    await admin.send("/upload@otherbot", chat=group, reply_to=sent)
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload@quizbot_test_bot",
                              chat=group)  # fmt: skip
    await group.wait_for(lambda m: "ours.yaml is a sound quiz" in m.text, timeout=30)
    await still_serving(group, admin)
    said = [m.text for m in group.messages]
    assert not any("other.yaml" in t or "reply.yaml" in t for t in said)


CONVERTED_WITH_A_PROBLEM = {
    # file name, content, the line of the uploaded file the checker's problem is on
    "gift": ("ours.gift", "// two comments\n// before\n\n::first:: What is 2+2? {=Four ~Five}\n"
             "\n// a gap\n\n::second:: Which `one? {=Same ~Other}\n",
             "Line 8: question “second”, prompt"),
    "aiken": ("ours.txt", "What is 2+2?\nA. Four\nB. Five\nANSWER: A\n\nPick one\nA. x\n"
              "B. `y\nANSWER: B\n", "Line 8: question 2, option B"),
    "csv": ("ours.csv", "id,prompt,a,b,answer,explanation\none,Which `one,x,y,A,because\n",
            "Line 2: question “one”, prompt"),
}  # fmt: skip


@pytest.mark.parametrize("fmt", list(CONVERTED_WITH_A_PROBLEM))
async def test_checker_problems_in_a_converted_file_point_at_the_uploaded_files_lines(
    h: Harness, fmt: str
) -> None:
    """The checker reads the YAML the bot generated; its lines must be mapped back to the
    GIFT, Aiken or CSV file the admin sent (where the question or option starts)."""
    group, admin, _ = await make_group(h)
    name, text, expected = CONVERTED_WITH_A_PROBLEM[fmt]
    await admin.send_document(name, text.encode(), caption="/upload", chat=group)
    shown = await group.wait_for(lambda m: "cannot be used" in m.text, timeout=30)
    assert expected in shown.text


FORMATS = Path(__file__).resolve().parents[1] / "content" / "fixtures" / "formats"
ELEVEN_OPTIONS = FORMATS / "eleven-options.aiken"
# Its first question only: left out, nothing remains, so the file is refused.
ONLY_ELEVEN = ELEVEN_OPTIONS.read_bytes().split(b"\n\n")[0] + b"\n"


async def test_refused_files_get_their_problems_and_do_not_count_toward_the_hourly_limit(
    h: Harness,
) -> None:
    """An Aiken question with 11 options once raised IndexError ("something went wrong", a
    traceback) and still counted as one of the group's 10 uploads an hour: now it is a
    line-numbered problem, and only a stored quiz counts."""
    group, admin, _ = await make_group(h)
    data = ONLY_ELEVEN
    for _ in range(10):
        mark = group.mark()
        await admin.send_document("eleven.txt", data, caption="/upload", chat=group)
        shown = await group.next_message(after=mark, timeout=30)
        assert "cannot be used" in shown.text, shown.text
        assert "Line 1: question left out: 11 options: a question needs 2 to 10" in shown.text
    mark = group.mark()
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    shown = await group.next_message(after=mark, timeout=30)
    assert "ours.yaml is a sound quiz" in shown.text, shown.text


async def test_schedules_name_an_uploaded_quiz_by_its_title(h: Harness) -> None:
    """Issue 28 #25: /schedules showed an uploaded quiz's id (a shipped one's title)."""
    group, admin, _ = await make_group(h)
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    await group.wait_for(lambda m: "ours.yaml is a sound quiz" in m.text, timeout=30)
    mark = group.mark()
    await admin.send("/schedule my-quiz daily 08:32", chat=group)
    added = await group.next_message(after=mark)
    assert "Our own quiz" in added.text and "my-quiz" not in added.text, added.text
    mark = group.mark()
    await admin.send("/schedules", chat=group)
    listed = await group.next_message(after=mark)
    assert "1. Our own quiz: every day at 8:32\u202fAM" in listed.text, listed.text


async def test_deletequiz_asks_with_cancel_and_its_buttons_go_after_either_choice(
    h: Harness,
) -> None:
    """Issue 28 #6: the confirmation had no Cancel, and its 🗑 stayed after the deletion (a
    second tap answered "no quiz of its own called …")."""
    group, admin, _ = await make_group(h)
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    await group.wait_for(lambda m: "ours.yaml is a sound quiz" in m.text, timeout=30)
    mark = group.mark()
    await admin.send("/deletequiz my-quiz", chat=group)
    ask = await group.next_message(after=mark)
    labels = [b.text for row in ask.buttons for b in row]
    assert labels == ["🗑 Delete", "✖️ Cancel"], labels
    mark = group.mark()
    await admin.tap(ask, "✖️ Cancel")
    said = await group.next_message(after=mark)
    assert "Cancelled. Nothing was changed." in said.text
    assert group.message(ask.message_id).buttons == ()
    assert h.live_upload_count() == [(1,)]

    mark = group.mark()
    await admin.send("/deletequiz my-quiz", chat=group)
    ask = await group.next_message(after=mark)
    stale = ask.button("🗑 Delete").callback_data
    mark = group.mark()
    await admin.tap(ask, "🗑 Delete")
    await group.wait_for(lambda m: "was deleted" in m.text, after=mark)
    assert group.message(ask.message_id).buttons == ()
    assert h.live_upload_count() == [(0,)]
    # A tap the client still had in flight: answered, nothing said twice in the group.
    mark = group.mark()
    answer = await admin.tap(ask, callback_data=stale)
    assert answer is not None
    assert [
        m
        for m in group.bot_messages
        if m.message_id > ask.message_id and "no quiz of its own" in m.text
    ] == []


async def test_refused_files_have_a_cap_of_their_own(h: Harness) -> None:
    """Issue 28 #5: refused files no longer count toward the 10 stored an hour, so nothing
    bounded them: each costs a download and a bounded parse. They have their own cap, 30 an
    hour per group, said in its own words; nothing is stored meanwhile."""
    group, admin, _ = await make_group(h)
    for _ in range(30):
        mark = group.mark()
        await admin.send_document("eleven.txt", ONLY_ELEVEN, caption="/upload", chat=group)
        shown = await group.next_message(after=mark, timeout=30)
        assert "cannot be used" in shown.text, shown.text
    mark = group.mark()
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    shown = await group.next_message(after=mark, timeout=30)
    assert "Too many refused files in this group for now: try again in" in shown.text, shown.text
    assert h.upload_count() == [(0,)]
    h.clock.advance(3600)
    mark = group.mark()
    await admin.send_document("ours.yaml", GOOD_YAML.encode(), caption="/upload", chat=group)
    shown = await group.next_message(after=mark, timeout=30)
    assert "ours.yaml is a sound quiz" in shown.text, shown.text
