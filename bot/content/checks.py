"""Rules over the validated English sources: ids, guide paths, answers, Telegram's limits.

Translations are compared with their sources in `translations.py`; this module never looks at
another language except for guide titles, which live inline in guides.yaml. One question's
rules are in `question_checks.py`; this module walks the guides and quizzes.
"""

from __future__ import annotations

from pathlib import Path

from bot.content import drift, links, quality, text_checks, typography
from bot.content.problems import N_, Msg, Problems, display_path
from bot.content.question_checks import ID, ID_RULE, check_english, check_question
from bot.content.schema import GlossaryTerm, GuidesFile, QuizSource
from bot.content.sources import Content, Parsed
from bot.content.yaml_nodes import KeyPath, key_str
from bot.core import limits
from bot.core.models import SOURCE_LANGUAGE

IDENTICAL = N_("same as the English: translate it, or if it really is the same, {mark}")


def check_sources(content: Content, sink: Problems) -> None:
    terms = content.glossary.model.terms if content.glossary else {}
    guides = content.guides
    if guides is not None:
        check_guides(guides, terms, sink)
    seen: dict[str, Path] = {}
    prompts: dict[str, tuple[Path, int, str]] = {}
    # A file named after its id owns it: when a copy keeps another quiz's id (a new quiz begun
    # from a shipped one), the copy is the one reported, whatever the names' order.
    owners_first = sorted(content.quizzes, key=lambda f: f.source.path.stem != f.source.model.id)
    for files in owners_first:
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
        check_english(parsed, (key,), text, sink)
    for question_id, question in quiz.questions.items():
        check_question(parsed, question_id, question, sink)
