"""Every button's data, as one table: each kind is a dataclass registered with its prefix and the
chat type it is made in, its fields typed with their wire patterns. `parse` and `encode` come
from the table (bot/tg/callback_codec.py), and so do the formats in docs/callback-data.md.

The class is the table entry (rather than a row of tuples beside it) because handlers import and
match on the class, and its annotations already list the fields in wire order: the pattern rides
on the type, so nothing is written twice. A new button is one class here and one route in
bot/tg/buttons.py. Data already sent must keep its meaning after a deploy: tests/tg/
test_callbacks.py pins every kind's bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar, dataclass_transform

from bot.core.limits import QUIZ_ID_MAX_CHARS
from bot.tg.callback_codec import Letter, Number, Place, Table, Text

T = TypeVar("T")
GROUP, PRIVATE = Place.GROUP, Place.PRIVATE
TABLE = Table()

Id = Annotated[int, Number(12)]  # an attempt, run, round, set, user, report or queue item
Index = Annotated[int, Number(3)]  # a question's or card's place, an option's displayed position
ChatId = Annotated[int, Number(16, "-?")]
GroupId = Annotated[int, Number(16, "-")]
QuizId = Annotated[str, Text("A-Za-z0-9_-", 1, QUIZ_ID_MAX_CHARS)]
Reason = Annotated[str, Letter("kuto")]  # a bot.core.problem_report.Reason code
Order = Annotated[str, Text("0-9", 2, 10)]  # the displayed order of options, a digit each
Level = Annotated[str, Letter("xbia")]  # x (any), b, i or a


@dataclass_transform(frozen_default=True)
def button(prefix: str, place: Place) -> Callable[[type[T]], type[T]]:
    """Register a kind: `@button("ans", PRIVATE)` above its class. A module-level function, as
    mypy honours `dataclass_transform` there (it then checks every constructor call)."""
    return TABLE.register(prefix, place)


class Callback:
    """Any kind of button data."""

    __slots__ = ()


@button("lang", PRIVATE)
class Lang(Callback):
    """Pick a language."""

    code: Annotated[str, Text("a-z", 2, 3)]


@button("quiz", PRIVATE)
class ShowQuiz(Callback):
    """Show a quiz's card."""

    quiz_id: QuizId


@button("go", PRIVATE)
class StartQuiz(Callback):
    """Start a quiz."""

    quiz_id: QuizId


@button("new", PRIVATE)
class StartOver(Callback):
    """Start `quiz_id` now, leaving the quiz in progress (the learner was asked first)."""

    quiz_id: QuizId


@button("list", PRIVATE)
class QuizList(Callback):
    """The quiz list, in a new message."""


@button("back", PRIVATE)
class BackToList(Callback):
    """From a quiz card back to the list, in the same message."""


@button("ans", PRIVATE)
class Answer(Callback):
    """Answer question `question` of a private attempt with the option displayed at `position`
    (a flashcard's rating too: 0 Again .. 3 Easy)."""

    attempt_id: Id
    question: Index
    position: Index


@button("tg", PRIVATE)
class Toggle(Callback):
    """Select or unselect one option of a select-all question; the selection itself is kept
    server-side, per attempt, question and tapper (bot/store/selections.py), never in here."""

    attempt_id: Id
    question: Index
    position: Index


@button("sub", PRIVATE)
class Submit(Callback):
    """Submit the selection of a select-all question."""

    attempt_id: Id
    question: Index


@button("fc", PRIVATE)
class Flip(Callback):
    """A flashcard's "Show answer": its back and rating buttons (bound to the attempt's owner
    by the use case)."""

    attempt_id: Id
    question: Index


@button("next", PRIVATE)
class Next(Callback):
    """Show question `question` of a private attempt."""

    attempt_id: Id
    question: Index


@button("cont", PRIVATE)
class Continue(Callback):
    """Continue a running attempt."""

    attempt_id: Id


@button("stop", PRIVATE)
class Abandon(Callback):
    """Abandon a running attempt."""

    attempt_id: Id


@button("rev", PRIVATE)
class Review(Callback):
    """Review the mistakes of a finished attempt."""

    attempt_id: Id


@button("g", GROUP)
class GroupAnswer(Callback):
    """Answer a group run's question."""

    run_id: Id
    question: Index
    position: Index


@button("gt", GROUP)
class GroupToggle(Callback):
    """Toggle an option of a group run's select-all question."""

    run_id: Id
    question: Index
    position: Index


@button("gs", GROUP)
class GroupSubmit(Callback):
    """Submit the tapper's selection in a group run."""

    run_id: Id
    question: Index


@button("set", GROUP)
class Setting(Callback):
    """A group setting (admins only)."""

    chat_id: ChatId
    key: Annotated[str, Text("a-z_", 1, 16)]
    value: Annotated[str | None, Text("A-Za-z0-9_/+-", 1, 32)] = None


@button("top", GROUP)
class TopWindow(Callback):
    """Group standings for a week, a month or all time (any member)."""

    chat_id: ChatId
    window: Annotated[str, Letter("wma")]  # a bot.core.standings.Window value


@button("pc", PRIVATE)
class PracticeChoice(Callback):
    """The practice chooser."""

    guides: Annotated[int, Number(18)]  # bit i: the catalogue's i-th guide (none set: all)
    level: Level
    length: Annotated[int, Number(2)]


@button("pg", PRIVATE)
class PracticeGo(Callback):
    """Start the practice set the chooser shows."""

    guides: Annotated[int, Number(18)]
    level: Level
    length: Annotated[int, Number(2)]


@button("pm", PRIVATE)
class PracticeMore(Callback):
    """Under a practice summary: a fresh chooser in a new message (the summary stays)."""


@button("pa", PRIVATE)
class PracticeAnswer(Callback):
    """Answer a question of a practice set or exam."""

    set_id: Id
    question: Index
    position: Index


@button("ex", PRIVATE)
class ExamPick(Callback):
    """An exam: pick its clock."""

    quiz_id: QuizId


@button("eg", PRIVATE)
class ExamGo(Callback):
    """Start an exam: `seconds` per question (clock q) or in total (clock t)."""

    quiz_id: QuizId
    clock: Annotated[str, Letter("qt")]
    seconds: Annotated[int, Number(5)]


@button("rva", PRIVATE)
class ReviewAnswer(Callback):
    """Answer card `index` of a review or practice round with the option shown at `position`;
    `order` is 0 1 2 .. (the round keeps the order shown: a card shown before it did carries
    it here; a flashcard's rating: order 00, position 0 Again .. 3 Easy)."""

    round_id: Id
    index: Index  # the card's place in its round, from 0
    item_id: Id  # review: the queue item; practice: 0
    order: Order
    position: Index


@button("rvt", PRIVATE)
class ReviewToggle(Callback):
    """Select or unselect one option of a select-all card in a round; the selection is kept
    server-side per round, card and learner (bot/store/selections.py), never in here."""

    round_id: Id
    index: Index
    item_id: Id
    order: Order
    position: Index


@button("rvu", PRIVATE)
class ReviewSubmit(Callback):
    """Submit the selection of a select-all card in a round: the card's one answer."""

    round_id: Id
    index: Index
    item_id: Id
    order: Order


@button("rvf", PRIVATE)
class ReviewFlip(Callback):
    """A flashcard review card's "Show answer": bound like an answer to the round's card."""

    round_id: Id
    index: Index
    item_id: Id


@button("rvn", PRIVATE)
class ReviewNext(Callback):
    """Start a review round (the button of reminders sent before rmr:)."""


@button("rvs", PRIVATE)
class ReviewStep(Callback):
    """Card `index` of a round (its Next button), or the round's summary."""

    round_id: Id
    index: Index


@button("rvp", PRIVATE)
class PractiseNow(Callback):
    """Start a practice round of the missed questions not due yet, for learner `user_id`."""

    user_id: Id


@button("tz", PRIVATE)
class ZonePick(Callback):
    """One of the zones a learner's /timezone offers, for that learner only."""

    user_id: Id
    index: Index


@button("tzs", PRIVATE)
class ZoneSuggested(Callback):
    """The zone a mistyped /timezone probably meant ('Europe/Paris'), for that learner only;
    checked again when tapped (the data may be forged)."""

    user_id: Id
    zone: Annotated[str, Text("A-Za-z0-9_/+-", 1, 40)]


@button("rmr", PRIVATE)
class ReminderReview(Callback):
    """The daily reminder's button: start `user_id`'s review, as /review does."""

    user_id: Id


@button("upf", PRIVATE)
class UploadFor(Callback):
    """In a private chat: the file remembered under `token` is for group `chat_id`."""

    chat_id: GroupId
    token: Annotated[str, Text("0-9a-f", 8, 8)]


@button("upg", PRIVATE)
class UploadGuide(Callback):
    """In a private chat: group `chat_id`'s quiz `quiz_id` (sent privately, its file naming no
    guide) links to the `index`-th guide of guides.yaml from now on (-1: to none)."""

    chat_id: GroupId
    index: Annotated[int, Number(2, "-?")]  # below 0: no guide
    quiz_id: QuizId


@button("upc", PRIVATE)
class UploadChoice(Callback):
    """In a private chat: the answer (`Choice`: r, n or x) to "Replace …?" for the file
    remembered under `token` for group `chat_id`."""

    chat_id: GroupId
    token: Annotated[str, Text("0-9a-f", 8, 8)]
    choice: Annotated[str, Letter("rnx")]


@button("rp", PRIVATE)
class ReportOpen(Callback):
    """Report a problem with answered question `question` of an attempt: show the reasons."""

    attempt_id: Id
    question: Index


@button("rpr", PRIVATE)
class ReportReason(Callback):
    """Report it for a reason (k key, u unclear, t translation, o other)."""

    attempt_id: Id
    question: Index
    reason: Reason


@button("rpb", PRIVATE)
class ReportBack(Callback):
    """Back from the reasons to the answered question's buttons."""

    attempt_id: Id
    question: Index


@button("rps", PRIVATE)
class ReportSkip(Callback):
    """No sentence for that report (Skip)."""

    report_id: Id


@button("rvr", PRIVATE)
class CardReportOpen(Callback):
    """⚠️ Report on answered card `index` of a round: the round and card its Next names, never
    a quiz or question id (the question is found from the round, server-side)."""

    round_id: Id
    index: Index


@button("rvrr", PRIVATE)
class CardReportReason(Callback):
    """Report that card for a reason."""

    round_id: Id
    index: Index
    reason: Reason


@button("rvrb", PRIVATE)
class CardReportBack(Callback):
    """Back from that card's reasons."""

    round_id: Id
    index: Index


@button("psr", PRIVATE)
class SetReportOpen(Callback):
    """⚠️ Report on answered question `index` of /practice set `set_id` (the question is found
    from the set, server-side, never from the button)."""

    set_id: Id
    index: Index


@button("psrr", PRIVATE)
class SetReportReason(Callback):
    """Report that question for a reason."""

    set_id: Id
    index: Index
    reason: Reason


@button("psrb", PRIVATE)
class SetReportBack(Callback):
    """Back from that question's reasons."""

    set_id: Id
    index: Index


parse: Callable[[str | None], Callback | None] = TABLE.parse
encode: Callable[[Callback], str] = TABLE.encode
