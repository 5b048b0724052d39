"""quizbot's spreadsheet layout (CSV) <-> quiz drafts: one row per question and language.

    title,description,id,language,prompt,A,B,C,D,answer,explanation
    Optimizers,Steps and gradients,q1,en,Which call applies the gradients?,zero_grad(),step(),,,B,…
    Optimiseurs,Pas et gradients,q1,fr,Quel appel applique les gradients ?,zero_grad(),step(),,,B,…

The header row is required; column names are case-insensitive; `prompt`, `A`, `B` and
`answer` are required, `C` to `J` optional (a question with fewer options leaves the last cells
empty). `id` may be empty (q1, q2... in row order, per language); `language` may be empty (the
import's `--lang`). A row in another language than the source translates the source row with
the same id; its `answer`, if given, must agree. A column the layout does not know is reported,
never silently ignored.

A flashcard (kind: flashcard) is a row with `answer` set to `flashcard`, no options, the prompt
as its front and the explanation as its back:

    ,,week,en,How many days are there in a week?,,,flashcard,"Seven: Monday to Sunday."

`title` and `description` (optional, added in issue 25) are the quiz's, per language: the first
non-empty cell of each language counts (usually on its first row; a later different one is
reported), and the source language's title gives the quiz its id, as GIFT's `$CATEGORY` does.
Without them (files written before) the title is the `name` the caller passes (the file's).

A file whose header row is separated by `;` (and holds no comma) is read with `;`: Excel's CSV
where the comma is the decimal mark (a French teacher's "CSV UTF-8 (délimité par des
points-virgules)"). The export writes commas.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

from bot.content.formats.draft import (
    DEFAULT_LIMITS,
    FLASHCARD,
    OPTION_IDS,
    SEVERAL_ANSWERS,
    DraftOption,
    DraftQuestion,
    DraftQuiz,
    Limits,
    ParseResult,
    clean_text,
    option_letter,
    several_letters,
    slug,
    too_big,
)
from bot.content.problems import N_, Msg, option_count
from bot.csv_cells import SheetWriter, restored

LETTERS = [letter.upper() for letter in OPTION_IDS]
REQUIRED = ("prompt", "a", "b", "answer")
FLASHCARD_ANSWER = "flashcard"  # the `answer` cell of a flashcard's row
KNOWN = ("title", "description", "id", "language", "prompt", *OPTION_IDS, "answer",
         "explanation")  # fmt: skip
_LANG = re.compile(r"^[a-z]{2,3}$")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def parse(
    text: str, name: str = "quiz", lang: str = "en", limits: Limits = DEFAULT_LIMITS
) -> ParseResult:
    """One draft per language found in the rows, all with the same quiz id (from the source
    language's title, else from `name`)."""
    result = ParseResult()
    if too_big(text, result, limits):
        return result
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    try:
        header = [cell.strip().casefold() for cell in next(reader)]
    except (StopIteration, csv.Error):
        result.skip(1, Msg(N_("no header row (id,language,prompt,A,B,...,answer,explanation)")))
        return result
    columns = {name: i for i, name in reversed(list(enumerate(header))) if name}
    for index, column in enumerate(header):
        if column and column not in KNOWN:
            result.skip(1, Msg(N_("column {n} '{column}' is not part of the layout: ignored"),
                               n=index + 1, column=column))  # fmt: skip
    if missing := [c for c in REQUIRED if c not in columns]:
        result.skip(1, Msg(N_("missing column(s): {columns}"), columns=", ".join(missing)))
        return result
    by_lang: dict[str, list[DraftQuestion]] = {}
    texts = _QuizTexts(result, limits)
    rows = 0
    line = reader.line_num + 1
    try:
        for row in reader:
            start, line = line, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            rows += 1
            if rows > limits.max_questions * 4:
                result.skip(start, Msg(N_("too many rows: the rest is not read")))
                break
            texts.read(row, columns, lang, start)
            _row(row, start, columns, lang, by_lang, result, limits)
    except csv.Error as exc:
        result.skip(line, Msg(N_("not valid CSV here: {reason}"), reason=str(exc)))
    title = texts.titles.get(lang) or next(iter(texts.titles.values()), "") or name
    quiz_id = slug(title, slug(name, "quiz"))
    for language, questions in by_lang.items():
        result.quizzes.append(
            DraftQuiz(
                quiz_id,
                texts.titles.get(language, title),
                language,
                tuple(questions),
                texts.descriptions.get(language, ""),
                line=2,
            )
        )
    return result


def _delimiter(text: str) -> str:
    """`;` when the header row has semicolons and no comma: Excel writes CSV so where the comma
    is the decimal mark (French, German...); else `,`. No column name holds either."""
    header = text.lstrip("\r\n").partition("\n")[0]
    return ";" if ";" in header and "," not in header else ","


class _QuizTexts:
    """The quiz's title and description per language, from the first row that gives each."""

    def __init__(self, result: ParseResult, limits: Limits) -> None:
        self.result, self.limits = result, limits
        self.titles: dict[str, str] = {}
        self.descriptions: dict[str, str] = {}
        self._lines: dict[tuple[str, str], int] = {}

    def read(self, row: list[str], columns: dict[str, int], default_lang: str, line: int) -> None:
        lang = _cell(row, columns, "language").casefold() or default_lang
        if not _LANG.match(lang):
            return  # the row is reported (and left out) by `_row`
        for column, kept in (("title", self.titles), ("description", self.descriptions)):
            value = _cell(row, columns, column)
            if not value:
                continue
            value = clean_text(value, line, self.result, self.limits)
            if lang not in kept:
                kept[lang] = value
                self._lines[(column, lang)] = line
            elif kept[lang] != value:
                first = self._lines[(column, lang)]
                message = {"title": N_("another title than line {first}'s: the first is kept"),
                           "description": N_("another description than line {first}'s: the "
                                             "first is kept")}[column]  # fmt: skip
                self.result.note(line, Msg(message, first=first))


def _cell(row: list[str], columns: dict[str, int], name: str) -> str:
    """A cell as written, a spreadsheet's neutralising quote removed (`csv_cells.restored`)."""
    index = columns.get(name)
    return restored(row[index].strip()) if index is not None and index < len(row) else ""


def _row(
    row: list[str],
    line: int,
    columns: dict[str, int],
    default_lang: str,
    by_lang: dict[str, list[DraftQuestion]],
    result: ParseResult,
    limits: Limits,
) -> None:
    def cell(name: str) -> str:
        return _cell(row, columns, name)

    lang = cell("language").casefold() or default_lang
    if not _LANG.match(lang):
        result.skip(
            line, Msg(N_("language '{lang}' is not a language code such as en or fr"), lang=lang)
        )
        return
    questions = by_lang.setdefault(lang, [])
    qid = cell("id") or f"q{len(questions) + 1}"
    if not _ID.match(qid):
        fixed = slug(qid, f"q{len(questions) + 1}")
        result.note(line, Msg(N_("id '{id}' has characters ids cannot: using '{fixed}'"), id=qid,
                              fixed=fixed))  # fmt: skip
        qid = fixed
    if any(q.id == qid for q in questions):
        result.skip(line, Msg(N_("question id '{id}' already used in {lang}"), id=qid, lang=lang))
        return
    texts = [cell(letter) for letter in OPTION_IDS if letter in columns]
    while texts and not texts[-1]:
        texts.pop()
    if cell("answer").casefold() == FLASHCARD_ANSWER:
        _flashcard(row, line, columns, qid, texts, questions, result, limits)
        return
    if "" in texts:
        gap = option_letter(texts.index(""))
        result.skip(line, Msg(N_("option {gap} is empty but a later option is not"), gap=gap))
        return
    if not 2 <= len(texts) <= limits.max_options:
        result.skip(
            line,
            option_count(len(texts), 2, limits.max_options),
        )
        return
    answer = cell("answer").upper()
    if several_letters(answer, "".join(LETTERS[: len(texts)])):
        result.skip(line, Msg(SEVERAL_ANSWERS, answer=answer))
        return
    if answer and (len(answer) != 1 or answer not in LETTERS[: len(texts)]):
        letters = ", ".join(LETTERS[: len(texts)])
        result.skip(
            line,
            Msg(
                N_("answer '{answer}' names no option (use one of {letters})"),
                answer=answer,
                letters=letters,
            ),
        )
        return
    prompt = cell("prompt")
    if not prompt:
        result.skip(line, Msg(N_("the prompt is empty")))
        return
    options = tuple(
        DraftOption(clean_text(text, line, result, limits), option_letter(i) == answer)
        for i, text in enumerate(texts)
    )
    explanation = clean_text(cell("explanation"), line, result, limits)
    questions.append(
        DraftQuestion(qid, clean_text(prompt, line, result, limits), options, explanation, line)
    )


def _flashcard(
    row: list[str],
    line: int,
    columns: dict[str, int],
    qid: str,
    texts: list[str],
    questions: list[DraftQuestion],
    result: ParseResult,
    limits: Limits,
) -> None:
    """A flashcard's row: its front (prompt) and back (explanation), no option cells."""
    if texts:
        result.skip(line, Msg(N_("a flashcard has no options: leave A, B... empty")))
        return
    prompt, back = _cell(row, columns, "prompt"), _cell(row, columns, "explanation")
    if not prompt or not back:
        result.skip(
            line, Msg(N_("a flashcard needs its front (prompt) and its back (explanation)"))
        )
        return
    questions.append(
        DraftQuestion(
            qid,
            clean_text(prompt, line, result, limits),
            (),
            clean_text(back, line, result, limits),
            line,
            kind=FLASHCARD,
        )
    )


def write(quizzes: Sequence[DraftQuiz]) -> str:
    """The layout above, as many option columns as the widest question needs; each quiz's
    title and description on its first row (in each language)."""
    width = max((len(q.options) for quiz in quizzes for q in quiz.questions), default=2)
    out = io.StringIO()
    writer = SheetWriter(out, lineterminator="\n")  # '-1' as an option is "'-1": see csv_cells
    writer.writerow(["title", "description", "id", "language", "prompt", *LETTERS[:width],
                     "answer", "explanation"])  # fmt: skip
    for quiz in quizzes:
        for n, question in enumerate(quiz.questions):
            texts = [o.text for o in question.options]
            answer = option_letter(question.answer) if question.answer >= 0 else ""
            if question.kind == FLASHCARD:
                answer = FLASHCARD_ANSWER
            writer.writerow(
                [
                    quiz.title if n == 0 else "",
                    quiz.description if n == 0 else "",
                    question.id,
                    quiz.lang,
                    question.prompt,
                    *texts,
                    *[""] * (width - len(texts)),
                    answer,
                    question.explanation,
                ]
            )
    return out.getvalue()
