"""The content format as pydantic models: the validator and the source of the JSON Schemas.

Four file kinds live under the content directory:
- `guides.yaml` (GuidesFile): the guide paths quizzes link to, titles per language inline.
- `quizzes/<name>.yaml` (QuizSource): one quiz in English, with its structure and answer key.
- `quizzes/<name>.<lang>.yaml` (QuizTranslation): the same keys mapped to strings in one
  language. It has no `answer` field, so a translation can never move the correct answer.
- `glossary.yaml` (GlossaryFile): known mistranslations per language, reported as warnings.

A translated string that really is identical to the English (a product name, say) is listed
by key in the translation's `same_as_source`, so the checker does not take it for English left
over. Everything is `extra="forbid"`: a typo in a key is an error, never silently ignored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from bot.content.problems import N_, Msg
from bot.core.limits import MAX_OPTIONS
from bot.core.models import SOURCE_LANGUAGE, Level

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


BLANK = N_("empty text: write the text, or remove the key")  # worded by the validation


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError(Msg(BLANK))
    return value


# Hosts that serve nothing real: the reserved example and test names (RFC 2606, RFC 6761),
# and the made-up domain the first guides pointed at.
_PLACEHOLDER_DOMAINS = ("example.com", "example.net", "example.org", "quizbot.dev")
_PLACEHOLDER_SUFFIXES = (".example", ".test", ".invalid", ".localhost", ".local")


def placeholder_host(host: str) -> bool:
    """True for a host no learner can open: example and test names, localhost, no dot."""
    host = host.lower().rstrip(".")
    if "." not in host:
        return True
    if any(host == d or host.endswith("." + d) for d in _PLACEHOLDER_DOMAINS):
        return True
    return host.endswith(_PLACEHOLDER_SUFFIXES)


def _https(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme != "https" or not parts.netloc or " " in value:
        raise ValueError(
            Msg(N_("'{url}' is not an absolute https URL (https://host/path)"), url=value)
        )
    if placeholder_host(parts.hostname or ""):
        raise ValueError(
            Msg(N_("'{url}' points at a placeholder host ({host}): link a real page"), url=value,
                host=parts.hostname)
        )  # fmt: skip
    return value


def _one_or_more(value: Any) -> Any:
    # The format is `answer: b`, or `answer: [a, c]` for a `multiple` question. A list on
    # another kind is accepted here only so that the checker can say "several correct options"
    # (and suggest `kind: multiple`) instead of a type error.
    if value is None:
        return []
    return [value] if isinstance(value, str) else value


NonEmptyText = Annotated[str, Field(min_length=1), AfterValidator(_not_blank)]
LangCode = Annotated[
    str, Field(pattern=r"^[a-z]{2,3}$", description="ISO 639 language code, e.g. fr, wo")
]
HttpsUrl = Annotated[
    str,
    AfterValidator(_https),
    WithJsonSchema({"type": "string", "format": "uri", "pattern": "^https://[^/\\s]+"}),
]
Answer = Annotated[
    list[str],
    BeforeValidator(_one_or_more),
    WithJsonSchema(
        {
            "oneOf": [
                {"type": "string", "description": "id of the one correct option"},
                {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 1,
                    "uniqueItems": True,
                    "description": "kind: multiple: ids of every correct option, e.g. [a, c]",
                },
            ]
        }
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NumberKey(_Strict):
    """The answer of a `number` question: `value` (± `tolerance`), or `low` to `high`. Numbers
    are written with a "." (`0.5`), whatever the language; a translation cannot change them."""

    value: float | None = Field(default=None, description="The exact value.")
    tolerance: float | None = Field(
        default=None, description="How far from `value` an answer may be and count (default 0)."
    )
    low: float | None = Field(default=None, description="Lowest accepted value (with `high`).")
    high: float | None = Field(default=None, description="Highest accepted value (with `low`).")


class ImageSource(_Strict):
    """A picture shown with a question or its explanation (see content/README.md, Images)."""

    file: str = Field(
        description=(
            "Path of a PNG or JPEG file under content/media/, e.g. checkpoints.png (relative, "
            "no '..'); at most 1 MB."
        ),
        json_schema_extra={"pattern": "^[A-Za-z0-9_-][A-Za-z0-9_./-]*$"},
    )
    alt: NonEmptyText = Field(
        description="What the picture shows, for whoever cannot see it; translated per language."
    )


class ImageTranslation(_Strict):
    file: str | None = Field(
        default=None,
        description="This language's own picture under content/media/ (default: the English one).",
        json_schema_extra={"pattern": "^[A-Za-z0-9_-][A-Za-z0-9_./-]*$"},
    )
    alt: NonEmptyText | None = Field(default=None, description="The alt text in this language.")


class QuestionSource(_Strict):
    kind: Literal["single", "true_false", "multiple", "number", "flashcard"] = Field(
        default="single",
        description=(
            "single: one correct option among 2 to 10. true_false: exactly the options "
            "`true` and `false` (shown in that order), answer one of them. number: no options; "
            "the learner types a number, `answer` is {value, tolerance} or {low, high}. "
            "multiple: 2 to 8 options, answer lists every correct one ([a, c]), at least one "
            "option is wrong; the learner selects every true statement (partial credit: see "
            "content/README.md). flashcard: no options and no answer; `prompt` is the front, "
            "`explanation` the back; the learner rates their own recall (never scored)."
        ),
    )
    prompt: NonEmptyText = Field(description="The question; `code` in backticks.")
    options: dict[str, NonEmptyText] = Field(
        default_factory=dict,
        description="Option id -> text, 2 to 10 options (the bot shuffles them); none for number.",
        json_schema_extra={"maxProperties": MAX_OPTIONS},
    )
    answer: Answer | NumberKey | None = Field(
        default=None, description="The key; required for every kind but flashcard (none)."
    )
    unit: NonEmptyText | None = Field(
        default=None,
        description=(
            "number only: the unit shown after the value (GB, s); translated per language like "
            "any string; the learner may type it after the number."
        ),
    )
    explanation: NonEmptyText = Field(
        description=(
            "Why the answer is right (and, where useful, why a tempting one is wrong); a "
            "flashcard's back."
        )
    )
    image: ImageSource | None = Field(
        default=None,
        description="A picture sent with the question (single, true_false; a flashcard's front).",
    )
    explanation_image: ImageSource | None = Field(
        default=None,
        description="A picture sent with the explanation (single, true_false; a flashcard's back).",
    )


class QuizSource(_Strict):
    """A quiz in English: structure, answer key and source strings."""

    id: str = Field(
        description="Stable id used in deep links: A-Z a-z 0-9 _ - only, at most 32 characters.",
        json_schema_extra={"pattern": "^[A-Za-z0-9_-]{1,32}$"},
    )
    guide: str = Field(description="Id of a guide path in guides.yaml.")
    level: Level
    languages: list[LangCode] = Field(
        default=[SOURCE_LANGUAGE],
        description="Languages declared complete: a missing translation in one is an error.",
    )
    title: NonEmptyText
    description: NonEmptyText = Field(description="One line saying what the quiz covers.")
    questions: dict[str, QuestionSource] = Field(
        description="Question id -> question, in the order they are asked.",
        json_schema_extra={"minProperties": 1},
    )


class QuestionTranslation(_Strict):
    prompt: NonEmptyText | None = None
    options: dict[str, NonEmptyText] = Field(default_factory=dict)
    explanation: NonEmptyText | None = None
    unit: NonEmptyText | None = Field(
        default=None, description="number only: the unit in this language (Go for GB)."
    )

    image: ImageTranslation | None = None
    explanation_image: ImageTranslation | None = None


class QuizTranslation(_Strict):
    """One language of a quiz: the source's keys mapped to translated strings, nothing else."""

    title: NonEmptyText | None = None
    description: NonEmptyText | None = None
    questions: dict[str, QuestionTranslation] = Field(default_factory=dict)
    same_as_source: list[str] = Field(
        default_factory=list,
        description="Keys (e.g. questions.q1.options.b) whose text is rightly the same as English.",
    )
    reviewed: bool = Field(
        default=True,
        description=(
            "false until a native speaker has reviewed this translation: the bot then says so "
            "in the quiz's intro and invites reports."
        ),
    )


class GuideSource(_Strict):
    title: dict[LangCode, NonEmptyText] = Field(description="Title per language; en required.")
    url: HttpsUrl = Field(description="The guide's default (English) URL.")
    urls: dict[LangCode, HttpsUrl] = Field(
        default_factory=dict, description="Per-language URLs where a translated guide exists."
    )
    same_as_source: list[LangCode] = Field(
        default_factory=list, description="Languages whose title is rightly the same as English."
    )


class GuidesFile(_Strict):
    guides: dict[str, GuideSource] = Field(description="Guide id -> guide, in display order.")


class GlossaryTerm(_Strict):
    avoid: list[NonEmptyText] = Field(min_length=1, description="Words that mistranslate.")
    prefer: NonEmptyText
    note: NonEmptyText | None = None


class GlossaryFile(_Strict):
    terms: dict[LangCode, list[GlossaryTerm]] = Field(description="Language -> terms to avoid.")


SCHEMAS: dict[str, type[BaseModel]] = {
    "guides": GuidesFile,
    "quiz": QuizSource,
    "quiz-translation": QuizTranslation,
    "glossary": GlossaryFile,
}


def json_schemas() -> dict[str, str]:
    """File name -> JSON Schema text, exactly as committed under schema/."""
    out: dict[str, str] = {}
    for name, model in SCHEMAS.items():
        schema = {
            "$schema": JSON_SCHEMA_DIALECT,
            "$id": f"https://quizbot.dev/schema/{name}.schema.json",
            **model.model_json_schema(),
        }
        out[f"{name}.schema.json"] = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    return out
