"""SSE cases through the reference decoder in sse_decoder.py: whole, in the
case's chunks and one byte at a time. For MANTYX streams, each message's data
read by the frame-shape rule (frames.py: nested envelope or flattened frame,
the type from the frame else from the event: line) is the typed event, in
the shape the case records, and it validates as an AgentRunEvent at the
receive level."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import suite
from conftest import record, take_tier
from frames import typed_event
from sse_decoder import decode

AREA = "sse (sse_decoder.py)"
KNOWN = suite.known_failures()
SCHEMA = suite.load_json("schema.receive.json")
EVENT = Draft202012Validator({"$ref": SCHEMA["$id"] + "#/components/schemas/AgentRunEvent"}, registry=Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA)))


def cases() -> list[Any]:
    out = []
    for file in suite.files("sse/"):
        for case in suite.load_json(file):
            cid = suite.case_id(file, case["description"])
            marks = [pytest.mark.xfail(strict=True, reason="known failure")] if cid in KNOWN else []
            out.append(pytest.param(case, id=cid, marks=marks))
    return out


def test_at_least_40_cases() -> None:
    assert len(cases()) >= 40


@pytest.mark.parametrize("case", cases())
def test_sse(case: dict[str, Any]) -> None:
    take_tier(AREA, case["tier"])
    record(AREA, "ran")
    for how, chunks in suite.chunkings(case):
        assert decode(chunks) == case["messages"], how
    if "events" in case:
        decoded = [typed_event(json.loads(m["data"]), m["event"]) for m in case["messages"]]
        typed = [event for event, _ in decoded]
        assert typed == case["events"]
        assert [shape for _, shape in decoded] == case.get("shapes", ["envelope"] * len(typed))
        for event in typed:
            assert EVENT.is_valid(event), event
