"""The wire format of every button, pinned byte for byte.

Buttons stay in users' chats for months: after a deploy, every data string an older version
produced must still parse to the same callback, and every callback must encode to the same
string. Callback data is also attacker-controlled, so anything we never produce is refused."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core import limits
from bot.tg import callbacks as cb
from bot.tg.callback_codec import Field, Kind, Letter, Text

ROOT = Path(__file__).resolve().parents[2]

# One example per kind, with ids at the edges of their ranges.
PINNED: list[tuple[str, cb.Callback]] = [
    ("lang:fr", cb.Lang("fr")),
    ("lang:wol", cb.Lang("wol")),
    ("quiz:gradient-accumulation", cb.ShowQuiz("gradient-accumulation")),
    ("go:Quiz_1-b", cb.StartQuiz("Quiz_1-b")),
    ("new:" + "q" * 32, cb.StartOver("q" * 32)),
    ("list", cb.QuizList()),
    ("back", cb.BackToList()),
    ("ans:123:4:2", cb.Answer(123, 4, 2)),
    ("ans:999999999999:999:999", cb.Answer(999999999999, 999, 999)),
    ("ans:0:0:0", cb.Answer(0, 0, 0)),
    ("tg:17:3:1", cb.Toggle(17, 3, 1)),
    ("sub:17:3", cb.Submit(17, 3)),
    ("fc:17:3", cb.Flip(17, 3)),
    ("next:17:10", cb.Next(17, 10)),
    ("cont:17", cb.Continue(17)),
    ("stop:17", cb.Abandon(17)),
    ("rev:17", cb.Review(17)),
    ("g:5:0:3", cb.GroupAnswer(5, 0, 3)),
    ("gt:5:0:3", cb.GroupToggle(5, 0, 3)),
    ("gs:5:0", cb.GroupSubmit(5, 0)),
    ("set:-1001234567890:push:grad-acc", cb.Setting(-1001234567890, "push", "grad-acc")),
    ("set:-100:lang:fr", cb.Setting(-100, "lang", "fr")),
    ("set:-100:tz:Europe/Paris", cb.Setting(-100, "tz", "Europe/Paris")),
    ("set:-100:offset:+5", cb.Setting(-100, "offset", "+5")),
    ("set:-100:menu", cb.Setting(-100, "menu")),
    ("set:42:show_answers", cb.Setting(42, "show_answers")),
    ("top:-1001234567890:w", cb.TopWindow(-1001234567890, "w")),
    ("top:-7:a", cb.TopWindow(-7, "a")),
    ("pc:0:x:10", cb.PracticeChoice(0, "x", 10)),
    ("pc:999999999:a:99", cb.PracticeChoice(999999999, "a", 99)),
    ("pg:5:b:20", cb.PracticeGo(5, "b", 20)),
    ("pm", cb.PracticeMore()),
    ("pa:8:2:1", cb.PracticeAnswer(8, 2, 1)),
    ("ex:gradient-accumulation", cb.ExamPick("gradient-accumulation")),
    ("eg:gradient-accumulation:q:30", cb.ExamGo("gradient-accumulation", "q", 30)),
    ("eg:x:t:99999", cb.ExamGo("x", "t", 99999)),
    ("rva:3:1:44:0123:2", cb.ReviewAnswer(3, 1, 44, "0123", 2)),
    ("rva:3:1:0:00:3", cb.ReviewAnswer(3, 1, 0, "00", 3)),
    ("rva:3:1:0:9876543210:9", cb.ReviewAnswer(3, 1, 0, "9876543210", 9)),
    ("rvt:3:1:44:3210:0", cb.ReviewToggle(3, 1, 44, "3210", 0)),
    ("rvu:3:1:44:3210", cb.ReviewSubmit(3, 1, 44, "3210")),
    ("rvf:3:1:44", cb.ReviewFlip(3, 1, 44)),
    ("rvn", cb.ReviewNext()),
    ("rvs:3:2", cb.ReviewStep(3, 2)),
    ("rvp:7012", cb.PractiseNow(7012)),
    ("tz:7012:4", cb.ZonePick(7012, 4)),
    ("tzs:7012:Europe/Paris", cb.ZoneSuggested(7012, "Europe/Paris")),
    ("tzs:7012:Etc/GMT+5", cb.ZoneSuggested(7012, "Etc/GMT+5")),
    ("tzs:1:America/Argentina/Catamarca", cb.ZoneSuggested(1, "America/Argentina/Catamarca")),
    ("rmr:7012", cb.ReminderReview(7012)),
    ("upf:-1001234567890:0a1b2c3d", cb.UploadFor(-1001234567890, "0a1b2c3d")),
    ("upc:-1001234567890:0a1b2c3d:r", cb.UploadChoice(-1001234567890, "0a1b2c3d", "r")),
    ("upc:-5:ffffffff:x", cb.UploadChoice(-5, "ffffffff", "x")),
    ("upg:-1001234567890:3:week-3", cb.UploadGuide(-1001234567890, 3, "week-3")),
    ("upg:-5:-1:warm-up", cb.UploadGuide(-5, -1, "warm-up")),
    ("rp:17:3", cb.ReportOpen(17, 3)),
    ("rpr:17:3:k", cb.ReportReason(17, 3, "k")),
    ("rpr:17:3:o", cb.ReportReason(17, 3, "o")),
    ("rpb:17:3", cb.ReportBack(17, 3)),
    ("rps:99", cb.ReportSkip(99)),
    ("rvr:3:1", cb.CardReportOpen(3, 1)),
    ("rvrr:3:1:u", cb.CardReportReason(3, 1, "u")),
    ("rvrb:3:1", cb.CardReportBack(3, 1)),
    ("psr:8:2", cb.SetReportOpen(8, 2)),
    ("psrr:8:2:t", cb.SetReportReason(8, 2, "t")),
    ("psrb:8:2", cb.SetReportBack(8, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("data", "callback"), PINNED, ids=[d for d, _ in PINNED])
def test_every_kind_keeps_its_wire_format(data: str, callback: cb.Callback) -> None:
    assert cb.encode(callback) == data
    assert cb.parse(data) == callback


def test_every_kind_is_pinned() -> None:
    pinned = {type(callback) for _, callback in PINNED}
    assert pinned == set(cb.TABLE.by_class)


# Data we never produce: each is refused, never raises.
FORGED = [
    None, "", "zzz", "ans", "ans:", "ans:1:2", "ans:1:2:3:4", "ans:1:2:3:", "ans::2:3",
    "ans:-1:2:3", "ans:1:-2:3", "ans:+1:2:3", "ans: 1:2:3", "ans:1 :2:3", " ans:1:2:3",
    "ans:1:2:3 ", "ans:1:2:3\n", "ANS:1:2:3", "ans:1.0:2:3", "ans:0x1:2:3", "ans:1_000:2:3",
    "ans:9999999999999:2:3", "ans:1:1000:3", "ans:1:2:1000", "ans:1:2:3\x00",
    "g:1", "g:x:0:0", "g:-1:0:0", "set:1", "set:-100:lang:fr:x", "set:-100:LANG:fr",
    "set:-100:lang:fr fr", "set:--100:lang", "set:-12345678901234567:lang", "top:-100:y",
    "top:-100:ww", "top:-100:", "lang:xx1", "lang:f", "lang:fren", "lang:FR", "list:", "list ",
    "back:1", "pm:", "rvn:1", "quiz:", "quiz:a.b", "quiz:a/b", "quiz:" + "x" * 33,
    "go:" + "x" * 40, "pc:1:z:10", "pc:1:x:100", "pc:1234567890123456789:x:1", "pc:-1:x:1",
    "eg:q:s:30", "eg:q:q:123456", "eg:q:q:", "rva:1:0:0", "rva:1:0:0:0:1", "rva:1:0:0:01a:1",
    "rva:1:0:0:01234567890:1", "rvu:1:0:0:01:2", "rvf:1:0", "tzs:1:Europe/Par is",
    "tzs:1:" + "A" * 41, "upf:100:0a1b2c3d", "upf:-100:0A1B2C3D", "upf:-100:0a1b2c3",
    "upc:-1:0a1b2c3d:y",
    "rpr:1:2:z", "rpr:1:2:", "rvrr:1:2:kk", "psrr:1:2:K", "rps:", "rps:1:2",
    "\u202e", "ans:1:2:3\u202e", "x" * 65, "ans:1:2:" + "3" * 60, "\ud800",
]  # fmt: skip


@pytest.mark.parametrize("data", FORGED)
def test_forged_data_is_refused(data: str | None) -> None:
    assert cb.parse(data) is None


def test_encode_refuses_data_over_64_bytes() -> None:
    with pytest.raises(ValueError):
        cb.encode(cb.Setting(-1001234567890, "push", "x" * 50))


# Accepted before the table, though no button ever carried them: digits that are not ASCII
# (int() reads '١' as 1), leading zeros, minus zero. Each names an id some other way than the
# one button made for it, so all are refused: parsing accepts only what encoding produces.
NOT_CANONICAL = [
    "ans:\u0661\u0662:0:0", "ans:1:\uff11:0", "rva:1:0:0:\u0661\u0662:0", "rvu:1:0:0:0\u0969",
    "ans:007:1:2", "ans:1:02:3", "ans:1:2:03", "cont:00", "pc:01:x:1", "pc:1:x:05",
    "eg:q:q:030", "set:-0:lang", "set:-01:lang", "top:-0:w", "upf:-0:0a1b2c3d",
    "upc:-007:0a1b2c3d:r",
]  # fmt: skip


@pytest.mark.parametrize("data", NOT_CANONICAL)
def test_data_no_button_carries_is_refused(data: str) -> None:
    assert cb.parse(data) is None


# Near misses: a real prefix, then fields from the characters ids, letters and zones use, plus
# a few that must never pass ('+', space, a non-ASCII digit).
PREFIXES = sorted({data.partition(":")[0] for data, _ in PINNED})
NEAR = st.builds(
    lambda prefix, fields: ":".join([prefix, *fields]),
    st.sampled_from(PREFIXES),
    st.lists(
        st.from_regex(r"-?0?[0-9]{1,3}", fullmatch=True)
        | st.sampled_from("abkqrtwx")
        | st.text("0123456789-abfx/+ \u0661\uff11", max_size=4),
        max_size=5,
    ),
)


@settings(max_examples=500)
@given(st.text(max_size=64) | NEAR)
def test_parsing_never_raises_and_accepts_only_what_encoding_produces(data: str) -> None:
    parsed = cb.parse(data)
    assert parsed is None or cb.encode(parsed) == data


def values(spec: Field) -> st.SearchStrategy[object]:
    """Every value a field's pattern allows."""
    if isinstance(spec, Letter):
        return st.sampled_from(spec.choices)
    if isinstance(spec, Text):
        return st.from_regex(spec.regex(), fullmatch=True)
    top = 10**spec.digits - 1
    low, high = {"": (0, top), "-": (-top, -1), "-?": (-top, top)}[spec.sign]
    return st.integers(low, high)


def callbacks(kind: Kind) -> st.SearchStrategy[cb.Callback]:
    fields = [values(spec) for spec in kind.specs]
    if kind.optional_last:
        fields[-1] = st.none() | fields[-1]
    return st.builds(kind.cls, *fields)


@settings(max_examples=500)
@given(st.sampled_from(list(cb.TABLE.by_class.values())).flatmap(callbacks))
def test_every_callback_parses_back_to_itself(callback: cb.Callback) -> None:
    try:
        data = cb.encode(callback)
    except ValueError:  # only a kind whose longest data outgrows Telegram's 64 bytes
        assert cb.TABLE.by_class[type(callback)].longest() > limits.CALLBACK_DATA_MAX_BYTES
        return
    assert len(data.encode("utf-8")) <= limits.CALLBACK_DATA_MAX_BYTES
    assert cb.parse(data) == callback


@pytest.mark.parametrize(
    "callback",
    [cb.Answer(-1, 0, 0), cb.Answer(10**12, 0, 0), cb.Lang("FR"), cb.ShowQuiz("a b"),
     cb.UploadFor(5, "0a1b2c3d"), cb.ReportReason(1, 2, "z"), cb.ReviewAnswer(1, 0, 0, "1", 0)],
)  # fmt: skip
def test_a_button_that_could_not_work_is_never_made(callback: cb.Callback) -> None:
    with pytest.raises(ValueError):
        cb.encode(callback)


def test_buttons_with_a_quiz_id_leave_it_the_room_the_content_checker_promises() -> None:
    (quiz_id,) = get_args(cb.QuizId)[1:]
    assert quiz_id.most == limits.QUIZ_ID_MAX_CHARS
    longest = limits.callback_bytes("x" * limits.QUIZ_ID_MAX_CHARS)
    assert longest <= limits.CALLBACK_DATA_MAX_BYTES
    carrying = [kind for kind in cb.TABLE.by_class.values() if quiz_id in kind.specs]
    assert len(carrying) == 6
    assert all(kind.longest() <= longest for kind in carrying), carrying


def test_the_formats_document_is_the_table() -> None:
    """docs/callback-data.md shows the table; after a change, paste in the new one from
    `python -c "from bot.tg.callbacks import TABLE; print(TABLE.formats())"`."""
    text = (ROOT / "docs" / "callback-data.md").read_text(encoding="utf-8")
    assert cb.TABLE.formats() in text
