"""The wire format of every button, pinned byte for byte.

Buttons stay in users' chats for months: after a deploy, every data string an older version
produced must still parse to the same callback, and every callback must encode to the same
string. Callback data is also attacker-controlled, so anything we never produce is refused."""

from __future__ import annotations

import pytest

from bot.tg import callbacks as cb

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
    assert pinned == set(cb.Callback.__args__)  # type: ignore[attr-defined]


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
    "go:" + "x" * 40, "pc:1:z:10", "pc:1:x:100", "pc:1234567890:x:1", "pc:-1:x:1",
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
