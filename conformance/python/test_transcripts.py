"""Transcript cases through transcript_rules.py, which interprets the
x-transcript-rules of RunTranscript in schema.json. Events come in either
frame shape (nested or flattened); the rules read both."""

from __future__ import annotations

from typing import Any

import pytest

import suite
from conftest import record, take_tier
from transcript_rules import TranscriptRules

AREA = "transcripts (transcript_rules.py)"
KNOWN = suite.known_failures()
RULES = TranscriptRules(suite.load_json("schema.json"))


def cases() -> list[Any]:
    out = []
    for group in suite.load_json("transcripts.json"):
        for test in group["tests"]:
            cid = suite.case_id("transcripts.json", test["description"])
            marks = [pytest.mark.xfail(strict=True, reason="known failure")] if cid in KNOWN else []
            out.append(pytest.param(test, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("test", cases())
def test_transcript(test: dict[str, Any]) -> None:
    take_tier(AREA, test["tier"])
    record(AREA, "ran")
    issues = RULES.check(test["data"])
    assert (issues == []) == test["valid"], issues
    if "rule" in test:
        assert test["rule"] in {i["rule"] for i in issues}, issues
