"""The published JSON Schemas stay in step with the pydantic models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli.content import SCHEMA_DIR, main
from bot.content.schema import json_schemas


def test_committed_schemas_match_the_models_byte_for_byte() -> None:
    generated = json_schemas()
    assert sorted(p.name for p in SCHEMA_DIR.glob("*.json")) == sorted(generated)
    for name, text in generated.items():
        assert (SCHEMA_DIR / name).read_bytes() == text.encode("utf-8"), (
            f"schema/{name} is stale: run `quizbot content schema --write`"
        )


def test_schema_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--check"]) == 0
    assert main(["schema", "--check", "--dir", str(tmp_path)]) == 1
    assert main(["schema", "--write", "--dir", str(tmp_path)]) == 0
    assert main(["schema", "--check", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()


def test_schemas_forbid_unknown_keys_and_show_both_answer_forms() -> None:
    quiz = json.loads(json_schemas()["quiz.schema.json"])
    assert quiz["additionalProperties"] is False
    question = quiz["$defs"]["QuestionSource"]
    answer = question["properties"]["answer"]["anyOf"]
    # `answer: b`, or a list of ids for kind: multiple (`answer: [a, c]`)
    one, several = answer[0]["oneOf"]
    assert one["type"] == "string"
    assert several["type"] == "array" and several["uniqueItems"] is True
    assert "multiple" in question["properties"]["kind"]["enum"]
    assert answer[1]["$ref"] == "#/$defs/NumberKey"  # a number question's key
    assert question["properties"]["options"]["maxProperties"] == 10
    translation = json.loads(json_schemas()["quiz-translation.schema.json"])
    assert "answer" not in translation["$defs"]["QuestionTranslation"]["properties"]
