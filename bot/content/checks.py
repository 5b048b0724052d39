"""Rules over the validated English sources: ids, guide paths, answers, Telegram's limits.

Translations are compared with their sources in `translations.py`; this module never looks at
another language except for guide titles, which live inline in guides.yaml.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from bot.content import drift, links, numbers, quality, text_checks, typography
from bot.content.problems import N_, Msg, Problems, display_path, option_count
from bot.content.schema import GlossaryTerm, GuidesFile, QuestionSource, QuizSource
from bot.content.sources import Content, Parsed
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core import limits
from bot.core.kinds import MULTIPLE_MAX_OPTIONS, MULTIPLE_MIN_OPTIONS, TRUE_FALSE_IDS
from bot.core.models import SOURCE_LANGUAGE

ID = re.compile(r"^[A-Za-z0-9_-]+$")
ID_RULE = N_("use only letters, digits, _ and -")
_Error = Callable[[KeyPath, str], None]
IDENTICAL = N_("same as the English: translate it, or if it really is the same, {mark}")


def check_sources(content: Content, sink: Problems) -> None:
    terms = content.glossary.model.terms if content.glossary else {}
    guides = content.guides
    if guides is not None:
        check_guides(guides, terms, sink)
    seen: dict[str, Path] = {}
    prompts: dict[str, tuple[Path, int, str]] = {}
    for files in content.quizzes:
        check_quiz(files.source, guides.model if guides else None, seen, sink)
        _check_repeats(files.source, prompts, sink)


def _check_repeats(
    parsed: Parsed[QuizSource], prompts: dict[str, tuple[Path, int, str]], sink: Problems
) -> None:
    """Two questions with the same prompt, in one quiz or across quizzes: a copy-paste slip."""
    for question_id, question in parsed.model.questions.items():
        at: KeyPath = ("questions", question_id, "prompt")
        key = quality.prompt_key(question.prompt)
        if key in prompts:
            path, line, where = prompts[key]
            sink.warn(
                parsed.path,
                parsed.doc.line(at),
                key_str(at),
                Msg(
                    N_("same prompt as {where} ({file}:{line})"),
                    where=where,
                    file=display_path(path),
                    line=line,
                ),
            )
        else:
            prompts[key] = (parsed.path, parsed.doc.line(at), key_str(at))


def check_guides(
    parsed: Parsed[GuidesFile], terms: dict[str, list[GlossaryTerm]], sink: Problems
) -> None:
    path, doc = parsed.path, parsed.doc
    for guide_id, guide in parsed.model.guides.items():
        at: KeyPath = ("guides", guide_id)
        if not ID.match(guide_id):
            sink.error(path, doc.line(at), key_str(at),
                       Msg(N_("guide id '{id}': {rule}"), id=guide_id,
                           rule=Msg(ID_RULE)))  # fmt: skip
        urls = [((*at, "url"), guide.url)] + [((*at, "urls", k), u) for k, u in guide.urls.items()]
        for where, url in urls:
            if (problem := links.host_problem(url)) is not None:
                sink.warn(path, doc.line(where), key_str(where), problem)
        english = guide.title.get(SOURCE_LANGUAGE)
        if english is None:
            sink.error(
                path,
                doc.line((*at, "title")),
                key_str((*at, "title")),
                Msg(N_("missing the English title (en)")),
            )
            continue
        for lang, title in guide.title.items():
            key = (*at, "title", lang)
            messages = text_checks.unclosed_backtick(title) + drift.placeholder(title)
            if lang != SOURCE_LANGUAGE:
                messages += text_checks.compare_code(english, title)
                messages += drift.drift(english, title, lang)
                if lang not in guide.same_as_source and text_checks.identical_to_source(
                    english, title
                ):
                    mark = Msg(N_("list {lang} in same_as_source"), lang=lang)
                    messages.append(Msg(IDENTICAL, mark=mark))
            for message in messages:
                sink.error(path, doc.line(key), key_str(key), message)
            warnings = text_checks.glossary_hits(title, terms.get(lang, []))
            if (typeset := typography.RULES.get(lang)) is not None:
                warnings += typeset(title)
            for message in warnings:
                sink.warn(path, doc.line(key), key_str(key), message)


def check_quiz(
    parsed: Parsed[QuizSource], guides: GuidesFile | None, seen: dict[str, Path], sink: Problems
) -> None:
    quiz, path, doc = parsed.model, parsed.path, parsed.doc

    def error(at: KeyPath, message: str) -> None:
        sink.error(path, doc.line(at), key_str(at), message)

    if quiz.id in seen:
        error(("id",), Msg(N_("duplicate quiz id '{id}': already used by {file}"), id=quiz.id,
                           file=display_path(seen[quiz.id])))  # fmt: skip
    seen.setdefault(quiz.id, path)
    if not limits.DEEP_LINK_PAYLOAD.match(quiz.id):
        error(("id",), Msg(N_("quiz id '{id}' cannot be used in a Telegram deep link: {rule}"),
                           id=quiz.id, rule=Msg(ID_RULE)))  # fmt: skip
    elif len(quiz.id) > limits.QUIZ_ID_MAX_CHARS:
        error(
            ("id",),
            Msg(
                N_(
                    "quiz id is {size} characters; keep it to {most} so deep links and buttons "
                    "have room"
                ),
                size=len(quiz.id),
                most=limits.QUIZ_ID_MAX_CHARS,
            ),
        )
    if (size := limits.callback_bytes(quiz.id)) > limits.CALLBACK_DATA_MAX_BYTES:
        error(
            ("id",),
            Msg(
                N_(
                    "quiz id makes button data {size} bytes; Telegram allows {most}: shorten the id"
                ),
                size=size,
                most=limits.CALLBACK_DATA_MAX_BYTES,
            ),
        )
    if guides is not None and quiz.guide not in guides.guides:
        known = ", ".join(guides.guides) or "none"
        error(("guide",), Msg(N_("unknown guide path '{guide}' (guides.yaml has: {known})"),
                              guide=quiz.guide, known=known))  # fmt: skip
    if guides is not None and quiz.guide in guides.guides:
        titles = guides.guides[quiz.guide].title
        for lang in quiz.languages:
            if lang not in titles:
                error(
                    ("languages",),
                    Msg(
                        N_(
                            "declares {lang} complete, but guide '{guide}' has no {lang} title "
                            "in guides.yaml"
                        ),
                        lang=lang,
                        guide=quiz.guide,
                    ),
                )
    for index, lang in enumerate(quiz.languages):
        if lang in quiz.languages[:index]:
            sink.warn(
                path,
                doc.line(("languages", index)),
                f"languages[{index}]",
                Msg(N_("'{lang}' is listed twice"), lang=lang),
            )
    if not quiz.questions:
        error(("questions",), Msg(N_("a quiz needs at least one question")))
    for key, text in (("title", quiz.title), ("description", quiz.description)):
        _check_english(parsed, (key,), text, sink)
    for question_id, question in quiz.questions.items():
        _check_question(parsed, question_id, question, sink)


def _check_question(
    parsed: Parsed[QuizSource], question_id: str, question: QuestionSource, sink: Problems
) -> None:
    path, doc = parsed.path, parsed.doc
    at: KeyPath = ("questions", question_id)

    def error(where: KeyPath, message: str) -> None:
        sink.error(path, doc.line(where), key_str(where), message)

    if not ID.match(question_id):
        error(at, Msg(N_("question id '{id}': {rule}"), id=question_id, rule=Msg(ID_RULE)))
    if question.kind == "flashcard":
        _check_flashcard(question, at, error)
    elif question.kind == "number":
        numbers.check_number(question, at, error)
    else:
        _check_options(question, at, error)
    size = limits.question_chars(question.prompt, list(question.options.values()))
    if size > limits.MESSAGE_MAX_CHARS:
        error((*at, "prompt"), too_long(size))
    _check_english(parsed, (*at, "prompt"), question.prompt, sink)
    for option_id, text in question.options.items():
        _check_english(parsed, (*at, "options", option_id), text, sink)
    _check_english(parsed, (*at, "explanation"), question.explanation, sink)
    if len(question.explanation) > limits.MESSAGE_MAX_CHARS - limits.QUESTION_OVERHEAD_CHARS:
        error((*at, "explanation"), Msg(N_("explanation too long for one Telegram message")))
    if question.kind == "true_false":
        for option_id, text in question.options.items():
            for message in drift.true_false_label(SOURCE_LANGUAGE, option_id, text):
                error((*at, "options", option_id), message)
    warnings: list[tuple[KeyPath, str | None]] = [
        ((*at, "explanation"), quality.popup_cut(question.explanation))
    ]
    if isinstance(question.answer, list):
        warnings += option_warnings(question, question.options, SOURCE_LANGUAGE, at)
    for where, warning in warnings:
        if warning is not None:
            sink.warn(path, doc.line(where), key_str(where), warning)


def option_warnings(
    question: QuestionSource, options: dict[str, str], lang: str, at: KeyPath
) -> list[tuple[KeyPath, str | None]]:
    """Give-aways in one language's options: the right ones the longest, or absolute words
    only in wrong ones (a single or select-all question; true/false labels are fixed)."""
    if question.kind not in ("single", "multiple") or not isinstance(question.answer, list):
        return []
    answer = [a for a in question.answer if a in options]
    if not answer:
        return []
    found: list[tuple[KeyPath, str | None]] = [
        ((*at, "options", answer[0]), quality.giveaway(options, answer))
    ]
    for option_id, message in quality.absolutes_in_distractors(options, answer, lang).items():
        found.append(((*at, "options", option_id), message))
    return found


def _check_flashcard(question: QuestionSource, at: KeyPath, error: _Error) -> None:
    """A flashcard is a front (`prompt`) and a back (`explanation`): options, an answer or a
    unit would be silently ignored, so each is an error."""
    if question.options:
        error((*at, "options"), Msg(N_("a flashcard has no options: its back is its explanation")))
    if question.answer is not None:
        error((*at, "answer"),
              Msg(N_("a flashcard has no answer: the learner rates their own recall")))  # fmt: skip
    if question.unit is not None:
        error((*at, "unit"), Msg(N_("only a number question has a unit (this one is {kind})"),
                                 kind=question.kind))  # fmt: skip


def _check_options(question: QuestionSource, at: KeyPath, error: _Error) -> None:
    """The options and answer of a question asked with buttons (every kind but number)."""
    count = len(question.options)
    if not limits.MIN_OPTIONS <= count <= limits.MAX_OPTIONS:
        error(
            (*at, "options"),
            option_count(count, limits.MIN_OPTIONS, limits.MAX_OPTIONS),
        )
    elif question.kind == "multiple" and count > MULTIPLE_MAX_OPTIONS:
        error(
            (*at, "options"),
            Msg(
                N_(
                    "{count} options: a multiple question has {low} to {high} (each one a toggle "
                    "button)"
                ),
                count=count,
                low=MULTIPLE_MIN_OPTIONS,
                high=MULTIPLE_MAX_OPTIONS,
            ),
        )
    if question.kind == "true_false" and tuple(question.options) != TRUE_FALSE_IDS:
        error(
            (*at, "options"),
            Msg(
                N_(
                    "a true_false question has exactly the options {ids}, in that order (found: "
                    "{found})"
                ),
                ids=" and ".join(TRUE_FALSE_IDS),
                found=", ".join(question.options) or Msg(N_("none")),
            ),
        )
    for option_id in question.options:
        if not ID.match(option_id):
            error((*at, "options", option_id),
                  Msg(N_("option id '{id}': {rule}"), id=option_id, rule=Msg(ID_RULE)))  # fmt: skip
    if question.unit is not None:
        error((*at, "unit"), Msg(N_("only a number question has a unit (this one is {kind})"),
                                 kind=question.kind))  # fmt: skip
    answer = [] if question.answer is None else question.answer  # none written: no option
    if not isinstance(answer, list):
        error((*at, "answer"),
              Msg(N_("a value or range answers only a number question: "
                     "name an option")))  # fmt: skip
        return
    for problem in _answer_problems(answer, question.kind, list(question.options)):
        error((*at, "answer"), problem)


def _answer_problems(answer: list[str], kind: str, options: list[str]) -> list[str]:
    """What is wrong with a question's answer key (empty when nothing).

    A `multiple` question lists one or more correct options, and at least one option must be
    wrong: with every option correct, selecting all would always be right, and the partial
    credit rule (a wrong pick cancels a right one) would no longer make guessing cost anything.
    """
    unknown = [a for a in answer if a not in options]
    if unknown:
        return [
            Msg(
                N_("answer '{answer}' names no option (options are: {options})"),
                answer=a,
                options=", ".join(options),
            )
            for a in unknown
        ]
    if kind != "multiple":
        if not answer:
            return [Msg(N_("no correct option: set answer to one option id"))]
        if len(answer) > 1:
            return [
                Msg(
                    N_(
                        "several correct options ({answer}): a {kind} question has exactly one; "
                        "set answer to one option id, or use kind: multiple"
                    ),
                    answer=", ".join(answer),
                    kind=kind,
                )
            ]
        return []
    if not answer:
        return [Msg(N_("no correct option: list the correct option ids, e.g. answer: [a, c]"))]
    if len(set(answer)) != len(answer):
        return [Msg(N_("an option is listed twice in answer ({answer})"), answer=", ".join(answer))]
    if len(answer) == len(options):
        return [
            Msg(
                N_(
                    "every option is correct: selecting all would always be right; make at least "
                    "one option wrong"
                )
            )
        ]
    return []


def too_long(size: int) -> str:
    return Msg(
        N_("the rendered question (prompt and options) is about {size} characters; a Telegram "
           "message holds {most}: shorten the prompt or options"),
        size=size, most=limits.MESSAGE_MAX_CHARS,
    )  # fmt: skip


def _check_english(parsed: Parsed[QuizSource], at: KeyPath, text: str, sink: Problems) -> None:
    errors = text_checks.unclosed_backtick(text) + drift.placeholder(text)
    warnings = text_checks.unmarked_code(text) + links.link_problems(text)
    if not errors and not warnings:  # the usual case: no line lookup, no key string
        return
    line, key = parsed.doc.line(at), key_str(at)
    for message in errors:
        sink.error(parsed.path, line, key, message)
    for message in warnings:
        sink.warn(parsed.path, line, key, message)
