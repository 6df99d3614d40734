"""Flow cases are well formed: steps in a possible order, request and
response bodies valid against their ``bodySchema``, each stream's SSE text
decoding (sse_decoder.py) to its events, every event an AgentRunEvent, and
each run's transcript what its streams delivered, keeping the sequence rules."""

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
from transcript_rules import TranscriptRules

AREA = "flows"
KNOWN = suite.known_failures()
SCHEMA = suite.load_json("schema.json")
REGISTRY = Registry().with_resource(SCHEMA["$id"], Resource.from_contents(SCHEMA))
RULES = TranscriptRules(SCHEMA)


def valid(pointer: str, value: Any) -> bool:
    return Draft202012Validator({"$ref": SCHEMA["$id"] + pointer}, registry=REGISTRY).is_valid(value)


def cases() -> list[Any]:
    out = []
    for file in suite.files("flows/"):
        flow = suite.load_json(file)
        cid = suite.case_id(file, flow["description"])
        marks = [pytest.mark.xfail(strict=True, reason="known failure")] if cid in KNOWN else []
        out.append(pytest.param(flow, id=cid, marks=marks))
    return out


@pytest.mark.parametrize("flow", cases())
def test_flow(flow: dict[str, Any]) -> None:
    take_tier(AREA, flow["tier"])
    record(AREA, "ran")
    streams: dict[str, str] = {}
    delivered: dict[str, list[Any]] = {}
    for i, step in enumerate(flow["steps"]):
        at = f"step {i} ({step['kind']})"
        if step["kind"] in ("http", "open-stream"):
            req, res = step["request"], step["response"]
            assert req["method"] in ("GET", "POST", "DELETE") and req["path"].startswith("/api/"), at
            assert isinstance(res["status"], int), at
            if "body" in req:
                assert "bodySchema" in req and valid(req["bodySchema"], req["body"]), at
            if "body" in res:
                assert "bodySchema" in res and valid(res["bodySchema"], res["body"]), at
            if step["kind"] == "open-stream":
                assert req["headers"].get("accept") == "text/event-stream" and res["status"] == 200, at
                streams[step["stream"]] = step["runId"]
                delivered.setdefault(step["runId"], [])
        elif step["kind"] == "receive":
            assert step["stream"] in streams, at
            typed = [typed_event(json.loads(m["data"]), m["event"])[0] for m in decode([step["sse"].encode("utf-8")])]
            assert typed == step["events"], at
            seen = delivered[streams[step["stream"]]]
            for event in step["events"]:
                assert valid("#/components/schemas/AgentRunEvent", event), (at, event)
                if all(s["seq"] != event["seq"] for s in seen):
                    seen.append(event)
        elif step["kind"] == "stream-end":
            assert streams.pop(step["stream"], None) is not None, at
            assert step["reason"] in ("closed-after-terminal", "connection-dropped"), at
        else:
            pytest.fail(f"{at}: unknown step kind")
    for run in flow["runs"]:
        assert delivered.get(run["runId"]) == run["events"], run["runId"]
        assert RULES.check({"events": run["events"]}) == [], run["runId"]
