"""Callback data: short, typed, and parsed defensively (anyone can forge any string up to 64 bytes).

Formats (ids are decimal, quiz ids are [A-Za-z0-9_-]):
  lang:<code>                 pick a language
  quiz:<quiz_id>              show a quiz card          go:<quiz_id>   start it
  list                        the quiz list
  ans:<attempt>:<q>:<pos>     answer question q of a private attempt with displayed position pos
  tg:<attempt>:<q>:<pos>      select-all question: toggle the option at position pos (private)
  sub:<attempt>:<q>           select-all question: submit the selection (private)
  fc:<attempt>:<q>            flashcard q of a private attempt: show its back and rating buttons
                              (its rating is ans:<attempt>:<q>:<0 Again .. 3 Easy>)
  next:<attempt>:<q>          show question q of a private attempt
  cont:<attempt>              continue a running attempt  stop:<attempt>  abandon it
  rev:<attempt>               review the mistakes of a finished attempt
  g:<run>:<q>:<pos>           answer in a group run
  gt:<run>:<q>:<pos>          toggle an option of a group run's select-all question
  gs:<run>:<q>                submit the tapper's selection in a group run
  set:<chat>:<key>[:<value>]  group settings (admins only)
  top:<chat>:<window>         group standings for w(eek), m(onth) or a(ll time) (any member)
  pc:<guides>:<level>:<len>   practice chooser: guides as a bit mask, level x/b/i/a, length
  pg:<guides>:<level>:<len>   start that practice set
  pa:<set>:<q>:<pos>          answer question q of a practice set or exam
  ex:<quiz_id>                exam: pick the clock     eg:<quiz_id>:<q|t>:<seconds>  start it
  rva:<round>:<k>:<item>:<order>:<pos>  answer card k of a review or practice round, its options
                              shown in `order` (item: the queue item a review card answers)
  rvt:<round>:<k>:<item>:<order>:<pos>  toggle an option of select-all card k of a round
  rvu:<round>:<k>:<item>:<order>  submit select-all card k's selection (kept server-side)
  rvn                         start a review (the button of reminders sent before rmr:)
  rvf:<round>:<k>:<item>      flashcard card k of a round: show its back and ratings (a rating
                              is rva:<round>:<k>:<item>:00:<0 Again .. 3 Easy>: no options)
  rvs:<round>:<k>             card k of a round (its Next), or its summary
  rvp:<user>                  "Practise my mistakes now", for that learner only
  tz:<user>:<n>               a learner's /timezone: the n-th offered zone (bound to the user)
  tzs:<user>:<zone>           a learner's /timezone: the suggested zone (bound to the user)
  rmr:<user>                  the reminder's button: start the review (bound to the user)
  rp:<attempt>:<q>            report a problem with answered question q: show the reasons
  rpr:<attempt>:<q>:<r>       report it for reason r (k key, u unclear, t translation, o other)
  rpb:<attempt>:<q>           back from the reasons to the answered question's buttons
  rps:<report>                no sentence for that report (Skip)
  rvr:<round>:<k>             report answered card k of a review or practice round: the reasons
  rvrr:<round>:<k>:<r>        report that card for reason r      rvrb:<round>:<k>  back from them
  pm                          under a practice summary: a new chooser
  psr:<set>:<q>               report answered question q of a /practice set: the reasons
  psrr:<set>:<q>:<r>          report it for reason r             psrb:<set>:<q>  back from them
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.limits import CALLBACK_DATA_MAX_BYTES

_ID = r"(\d{1,12})"
_SMALL = r"(\d{1,3})"
_QUIZ = r"([A-Za-z0-9_-]{1,32})"
_KEY = r"([a-z_]{1,16})"
_VALUE = r"([A-Za-z0-9_/+-]{1,32})"


@dataclass(frozen=True, slots=True)
class Lang:
    code: str


@dataclass(frozen=True, slots=True)
class ShowQuiz:
    quiz_id: str


@dataclass(frozen=True, slots=True)
class StartQuiz:
    quiz_id: str


@dataclass(frozen=True, slots=True)
class StartOver:
    """Start `quiz_id` now, leaving the quiz in progress (the learner was asked first)."""

    quiz_id: str


@dataclass(frozen=True, slots=True)
class QuizList:
    pass


@dataclass(frozen=True, slots=True)
class BackToList:
    """From a quiz card back to the list, in the same message."""


@dataclass(frozen=True, slots=True)
class Answer:
    attempt_id: int
    question: int
    position: int


@dataclass(frozen=True, slots=True)
class Toggle:
    """Select or unselect one option of a select-all question; the selection itself is kept
    server-side, per attempt, question and tapper (bot/store/selections.py), never in here."""

    attempt_id: int
    question: int
    position: int


@dataclass(frozen=True, slots=True)
class Submit:
    attempt_id: int
    question: int


@dataclass(frozen=True, slots=True)
class Flip:
    """A flashcard's "Show answer"; bound to its attempt's owner by the use case."""

    attempt_id: int
    question: int


@dataclass(frozen=True, slots=True)
class Next:
    attempt_id: int
    question: int


@dataclass(frozen=True, slots=True)
class Continue:
    attempt_id: int


@dataclass(frozen=True, slots=True)
class Abandon:
    attempt_id: int


@dataclass(frozen=True, slots=True)
class Review:
    attempt_id: int


@dataclass(frozen=True, slots=True)
class GroupAnswer:
    run_id: int
    question: int
    position: int


@dataclass(frozen=True, slots=True)
class GroupToggle:
    run_id: int
    question: int
    position: int


@dataclass(frozen=True, slots=True)
class GroupSubmit:
    run_id: int
    question: int


@dataclass(frozen=True, slots=True)
class Setting:
    chat_id: int
    key: str
    value: str | None = None


@dataclass(frozen=True, slots=True)
class TopWindow:
    chat_id: int
    window: str  # a bot.core.standings.Window value


@dataclass(frozen=True, slots=True)
class PracticeChoice:
    guides: int  # bit i set: the i-th guide of the catalogue is chosen (none set: all guides)
    level: str  # x (any), b, i or a
    length: int


@dataclass(frozen=True, slots=True)
class PracticeGo:
    guides: int
    level: str
    length: int


@dataclass(frozen=True, slots=True)
class PracticeMore:
    """Under a practice summary: a fresh chooser in a new message (the summary stays)."""


@dataclass(frozen=True, slots=True)
class PracticeAnswer:
    set_id: int
    question: int
    position: int


@dataclass(frozen=True, slots=True)
class ExamPick:
    quiz_id: str


@dataclass(frozen=True, slots=True)
class ExamGo:
    quiz_id: str
    clock: str  # q (seconds per question) or t (total seconds)
    seconds: int


@dataclass(frozen=True, slots=True)
class ReviewAnswer:
    round_id: int
    index: int  # the card's place in its round, from 0
    item_id: int  # review: the queue item; practice: 0
    order: str  # the displayed order of options, one digit each (at most 10 options)
    position: int


@dataclass(frozen=True, slots=True)
class ReviewToggle:
    """Select or unselect one option of a select-all card in a round; the selection is kept
    server-side per round, card and learner (bot/store/selections.py), never in here."""

    round_id: int
    index: int
    item_id: int
    order: str
    position: int


@dataclass(frozen=True, slots=True)
class ReviewSubmit:
    """Submit the selection of a select-all card in a round: the card's one answer."""

    round_id: int
    index: int
    item_id: int
    order: str


@dataclass(frozen=True, slots=True)
class ReviewFlip:
    """A flashcard review card's "Show answer": bound like an answer to the round's card."""

    round_id: int
    index: int
    item_id: int


@dataclass(frozen=True, slots=True)
class ReviewNext:
    """Start a review round (the daily reminder's button)."""


@dataclass(frozen=True, slots=True)
class ReviewStep:
    """Card `index` of a round (its Next button), or the round's summary."""

    round_id: int
    index: int


@dataclass(frozen=True, slots=True)
class PractiseNow:
    """Start a practice round of the missed questions not due yet, for learner `user_id`."""

    user_id: int


@dataclass(frozen=True, slots=True)
class ZonePick:
    """One of the zones a learner's /timezone offers, for that learner only."""

    user_id: int
    index: int


@dataclass(frozen=True, slots=True)
class ZoneSuggested:
    """The zone a mistyped /timezone probably meant ('Europe/Paris'), for that learner only;
    checked again when tapped (the data may be forged)."""

    user_id: int
    zone: str


@dataclass(frozen=True, slots=True)
class ReminderReview:
    """The daily reminder's button: start `user_id`'s review, as /review does."""

    user_id: int


@dataclass(frozen=True, slots=True)
class UploadFor:
    """In a private chat: the file remembered under `token` is for group `chat_id`."""

    chat_id: int
    token: str


@dataclass(frozen=True, slots=True)
class UploadGuide:
    """In a private chat: group `chat_id`'s quiz `quiz_id` (sent privately, its file naming no
    guide) links to the `index`-th guide of guides.yaml from now on (-1: to none)."""

    chat_id: int
    index: int
    quiz_id: str


@dataclass(frozen=True, slots=True)
class UploadChoice:
    """In a private chat: the answer (`Choice`: r, n or x) to "Replace …?" for the file
    remembered under `token` for group `chat_id`."""

    chat_id: int
    token: str
    choice: str


@dataclass(frozen=True, slots=True)
class ReportOpen:
    attempt_id: int
    question: int


@dataclass(frozen=True, slots=True)
class ReportReason:
    attempt_id: int
    question: int
    reason: str  # a bot.core.problem_report.Reason code


@dataclass(frozen=True, slots=True)
class ReportBack:
    attempt_id: int
    question: int


@dataclass(frozen=True, slots=True)
class ReportSkip:
    report_id: int


@dataclass(frozen=True, slots=True)
class CardReportOpen:
    """⚠️ Report on answered card `index` of a round: the round and card its Next names, never
    a quiz or question id (the question is found from the round, server-side)."""

    round_id: int
    index: int


@dataclass(frozen=True, slots=True)
class CardReportReason:
    round_id: int
    index: int
    reason: str  # a bot.core.problem_report.Reason code


@dataclass(frozen=True, slots=True)
class CardReportBack:
    round_id: int
    index: int


@dataclass(frozen=True, slots=True)
class SetReportOpen:
    """⚠️ Report on answered question `index` of /practice set `set_id` (the question is found
    from the set, server-side, never from the button)."""

    set_id: int
    index: int


@dataclass(frozen=True, slots=True)
class SetReportReason:
    set_id: int
    index: int
    reason: str  # a bot.core.problem_report.Reason code


@dataclass(frozen=True, slots=True)
class SetReportBack:
    set_id: int
    index: int


Callback = (
    Lang
    | ShowQuiz
    | StartQuiz
    | StartOver
    | QuizList
    | BackToList
    | Answer
    | Toggle
    | Submit
    | Next
    | Flip
    | Continue
    | Abandon
    | Review
    | GroupAnswer
    | GroupToggle
    | GroupSubmit
    | Setting
    | TopWindow
    | PracticeChoice
    | PracticeGo
    | PracticeMore
    | PracticeAnswer
    | ExamPick
    | ExamGo
    | ReviewAnswer
    | ReviewToggle
    | ReviewSubmit
    | ReviewFlip
    | ReviewNext
    | ReviewStep
    | PractiseNow
    | ZonePick
    | ZoneSuggested
    | ReminderReview
    | UploadFor
    | UploadGuide
    | UploadChoice
    | ReportOpen
    | ReportReason
    | ReportBack
    | ReportSkip
    | CardReportOpen
    | CardReportReason
    | CardReportBack
    | SetReportOpen
    | SetReportReason
    | SetReportBack
)

# Where each kind of button is made, and so the only chat type it is accepted from.
GROUP_ONLY: tuple[type, ...] = (GroupAnswer, GroupToggle, GroupSubmit, Setting, TopWindow)
PRIVATE_ONLY: tuple[type, ...] = (
    Lang, ShowQuiz, StartQuiz, StartOver, QuizList, BackToList, Answer, Toggle, Submit, Next,
    Flip, Continue, Abandon,
    Review, ReviewAnswer, ReviewToggle, ReviewSubmit, ReviewFlip, ReviewNext, ReviewStep,
    PractiseNow, PracticeChoice, PracticeGo, PracticeMore,
    PracticeAnswer, ExamPick, ExamGo, UploadFor, UploadChoice, UploadGuide, ZonePick,
    ZoneSuggested,
    ReminderReview,
    ReportOpen, ReportReason, ReportBack, ReportSkip, CardReportOpen, CardReportReason,
    CardReportBack, SetReportOpen, SetReportReason, SetReportBack,
)  # fmt: skip
REVIEW_KINDS: tuple[type, ...] = (
    ReviewAnswer, ReviewToggle, ReviewSubmit, ReviewFlip, ReviewNext, ReviewStep, PractiseNow,
)  # fmt: skip
REMINDER_KINDS: tuple[type, ...] = (ZonePick, ZoneSuggested, ReminderReview)
PRACTICE_KINDS: tuple[type, ...] = (
    PracticeChoice, PracticeGo, PracticeMore, PracticeAnswer, ExamPick, ExamGo,
)  # fmt: skip
REPORT_KINDS: tuple[type, ...] = (
    ReportOpen, ReportReason, ReportBack, ReportSkip, CardReportOpen, CardReportReason,
    CardReportBack, SetReportOpen, SetReportReason, SetReportBack,
)  # fmt: skip

_PATTERNS: list[tuple[re.Pattern[str], type, tuple[type, ...]]] = [
    (re.compile(r"lang:([a-z]{2,3})"), Lang, (str,)),
    (re.compile(rf"quiz:{_QUIZ}"), ShowQuiz, (str,)),
    (re.compile(rf"go:{_QUIZ}"), StartQuiz, (str,)),
    (re.compile(rf"new:{_QUIZ}"), StartOver, (str,)),
    (re.compile(r"list"), QuizList, ()),
    (re.compile(r"back"), BackToList, ()),
    (re.compile(rf"ans:{_ID}:{_SMALL}:{_SMALL}"), Answer, (int, int, int)),
    (re.compile(rf"tg:{_ID}:{_SMALL}:{_SMALL}"), Toggle, (int, int, int)),
    (re.compile(rf"sub:{_ID}:{_SMALL}"), Submit, (int, int)),
    (re.compile(rf"next:{_ID}:{_SMALL}"), Next, (int, int)),
    (re.compile(rf"fc:{_ID}:{_SMALL}"), Flip, (int, int)),
    (re.compile(rf"cont:{_ID}"), Continue, (int,)),
    (re.compile(rf"stop:{_ID}"), Abandon, (int,)),
    (re.compile(rf"rev:{_ID}"), Review, (int,)),
    (re.compile(rf"g:{_ID}:{_SMALL}:{_SMALL}"), GroupAnswer, (int, int, int)),
    (re.compile(rf"gt:{_ID}:{_SMALL}:{_SMALL}"), GroupToggle, (int, int, int)),
    (re.compile(rf"gs:{_ID}:{_SMALL}"), GroupSubmit, (int, int)),
    (re.compile(rf"set:(-?\d{{1,16}}):{_KEY}(?::{_VALUE})?"), Setting, (int, str, str)),
    (re.compile(r"top:(-?\d{1,16}):([wma])"), TopWindow, (int, str)),
    (re.compile(r"pc:(\d{1,9}):([xbia]):(\d{1,2})"), PracticeChoice, (int, str, int)),
    (re.compile(r"pg:(\d{1,9}):([xbia]):(\d{1,2})"), PracticeGo, (int, str, int)),
    (re.compile(r"pm"), PracticeMore, ()),
    (re.compile(rf"pa:{_ID}:{_SMALL}:{_SMALL}"), PracticeAnswer, (int, int, int)),
    (re.compile(rf"ex:{_QUIZ}"), ExamPick, (str,)),
    (re.compile(rf"eg:{_QUIZ}:([qt]):(\d{{1,5}})"), ExamGo, (str, str, int)),
    (
        re.compile(rf"rva:{_ID}:{_SMALL}:(\d{{1,12}}):(\d{{2,10}}):{_SMALL}"),
        ReviewAnswer,
        (int, int, int, str, int),
    ),
    (
        re.compile(rf"rvt:{_ID}:{_SMALL}:(\d{{1,12}}):(\d{{2,10}}):{_SMALL}"),
        ReviewToggle,
        (int, int, int, str, int),
    ),
    (
        re.compile(rf"rvu:{_ID}:{_SMALL}:(\d{{1,12}}):(\d{{2,10}})"),
        ReviewSubmit,
        (int, int, int, str),
    ),
    (re.compile(r"rvf:(\d{1,12}):(\d{1,3}):(\d{1,12})"), ReviewFlip, (int, int, int)),
    (re.compile(r"rvn"), ReviewNext, ()),
    (re.compile(rf"rvs:{_ID}:{_SMALL}"), ReviewStep, (int, int)),
    (re.compile(rf"rvp:{_ID}"), PractiseNow, (int,)),
    (re.compile(rf"tz:{_ID}:{_SMALL}"), ZonePick, (int, int)),
    (re.compile(rf"tzs:{_ID}:([A-Za-z0-9_/+-]{{1,40}})"), ZoneSuggested, (int, str)),
    (re.compile(rf"rmr:{_ID}"), ReminderReview, (int,)),
    (re.compile(r"upf:(-\d{1,16}):([0-9a-f]{8})"), UploadFor, (int, str)),
    (re.compile(r"upc:(-\d{1,16}):([0-9a-f]{8}):([rnx])"), UploadChoice, (int, str, str)),
    (
        re.compile(r"upg:(-\d{1,16}):(-1|\d{1,2}):([A-Za-z0-9_-]{1,32})"),
        UploadGuide,
        (int, int, str),
    ),
    (re.compile(rf"rp:{_ID}:{_SMALL}"), ReportOpen, (int, int)),
    (re.compile(rf"rpr:{_ID}:{_SMALL}:([kuto])"), ReportReason, (int, int, str)),
    (re.compile(rf"rpb:{_ID}:{_SMALL}"), ReportBack, (int, int)),
    (re.compile(rf"rps:{_ID}"), ReportSkip, (int,)),
    (re.compile(rf"rvr:{_ID}:{_SMALL}"), CardReportOpen, (int, int)),
    (re.compile(rf"rvrr:{_ID}:{_SMALL}:([kuto])"), CardReportReason, (int, int, str)),
    (re.compile(rf"rvrb:{_ID}:{_SMALL}"), CardReportBack, (int, int)),
    (re.compile(rf"psr:{_ID}:{_SMALL}"), SetReportOpen, (int, int)),
    (re.compile(rf"psrr:{_ID}:{_SMALL}:([kuto])"), SetReportReason, (int, int, str)),
    (re.compile(rf"psrb:{_ID}:{_SMALL}"), SetReportBack, (int, int)),
]


def parse(data: str | None) -> Callback | None:
    """The callback a button carried, or None for anything we never produced."""
    if not data or len(data.encode("utf-8", "surrogatepass")) > CALLBACK_DATA_MAX_BYTES:
        return None
    for pattern, kind, converters in _PATTERNS:
        match = pattern.fullmatch(data)
        if match:
            args = [
                conv(group) if group is not None else None
                for conv, group in zip(converters, match.groups(), strict=True)
            ]
            return kind(*args)  # type: ignore[no-any-return]
    return None


def encode(cb: Callback) -> str:
    """The button data for a callback; always within Telegram's 64 bytes for valid content."""
    match cb:
        case Lang(code):
            data = f"lang:{code}"
        case ShowQuiz(quiz_id):
            data = f"quiz:{quiz_id}"
        case StartQuiz(quiz_id):
            data = f"go:{quiz_id}"
        case StartOver(quiz_id):
            data = f"new:{quiz_id}"
        case QuizList():
            data = "list"
        case BackToList():
            data = "back"
        case Answer(a, q, p):
            data = f"ans:{a}:{q}:{p}"
        case Toggle(a, q, p):
            data = f"tg:{a}:{q}:{p}"
        case Submit(a, q):
            data = f"sub:{a}:{q}"
        case Next(a, q):
            data = f"next:{a}:{q}"
        case Flip(a, q):
            data = f"fc:{a}:{q}"
        case Continue(a):
            data = f"cont:{a}"
        case Abandon(a):
            data = f"stop:{a}"
        case Review(a):
            data = f"rev:{a}"
        case GroupAnswer(r, q, p):
            data = f"g:{r}:{q}:{p}"
        case GroupToggle(r, q, p):
            data = f"gt:{r}:{q}:{p}"
        case GroupSubmit(r, q):
            data = f"gs:{r}:{q}"
        case Setting(chat, key, value):
            data = f"set:{chat}:{key}" + (f":{value}" if value is not None else "")
        case TopWindow(chat, window):
            data = f"top:{chat}:{window}"
        case PracticeChoice(guides, level, length):
            data = f"pc:{guides}:{level}:{length}"
        case PracticeGo(guides, level, length):
            data = f"pg:{guides}:{level}:{length}"
        case PracticeMore():
            data = "pm"
        case PracticeAnswer(s, q, p):
            data = f"pa:{s}:{q}:{p}"
        case ExamPick(quiz_id):
            data = f"ex:{quiz_id}"
        case ExamGo(quiz_id, clock, seconds):
            data = f"eg:{quiz_id}:{clock}:{seconds}"
        case ReviewAnswer(r, k, item, order, p):
            data = f"rva:{r}:{k}:{item}:{order}:{p}"
        case ReviewToggle(r, k, item, order, p):
            data = f"rvt:{r}:{k}:{item}:{order}:{p}"
        case ReviewSubmit(r, k, item, order):
            data = f"rvu:{r}:{k}:{item}:{order}"
        case ReviewFlip(r, k, item):
            data = f"rvf:{r}:{k}:{item}"
        case ReviewNext():
            data = "rvn"
        case ReviewStep(r, k):
            data = f"rvs:{r}:{k}"
        case PractiseNow(user):
            data = f"rvp:{user}"
        case ZonePick(user, n):
            data = f"tz:{user}:{n}"
        case ZoneSuggested(user, zone):
            data = f"tzs:{user}:{zone}"
        case ReminderReview(user):
            data = f"rmr:{user}"
        case UploadFor(chat, token):
            data = f"upf:{chat}:{token}"
        case UploadChoice(chat, token, choice):
            data = f"upc:{chat}:{token}:{choice}"
        case UploadGuide(chat, index, quiz):
            data = f"upg:{chat}:{index}:{quiz}"
        case ReportOpen(a, q):
            data = f"rp:{a}:{q}"
        case ReportReason(a, q, reason):
            data = f"rpr:{a}:{q}:{reason}"
        case ReportBack(a, q):
            data = f"rpb:{a}:{q}"
        case ReportSkip(report):
            data = f"rps:{report}"
        case CardReportOpen(r, k):
            data = f"rvr:{r}:{k}"
        case CardReportReason(r, k, reason):
            data = f"rvrr:{r}:{k}:{reason}"
        case CardReportBack(r, k):
            data = f"rvrb:{r}:{k}"
        case SetReportOpen(s, k):
            data = f"psr:{s}:{k}"
        case SetReportReason(s, k, reason):
            data = f"psrr:{s}:{k}:{reason}"
        case SetReportBack(s, k):
            data = f"psrb:{s}:{k}"
    if len(data.encode("utf-8")) > CALLBACK_DATA_MAX_BYTES:
        raise ValueError(f"callback data too long: {data!r}")
    return data
