"""The suite through the reference adapters: every case of every selected
tier passes, so each tier's passed count is the manifest's, and the
known-failures list stays empty. MANTYX_TIERS selects tiers,
MANTYX_FIXTURES_DIR another copy of the suite."""

import json
from pathlib import Path

import pytest

from mantyx_wire_conformance import TIERS, read_known_failures, run
from mantyx_wire_conformance.reference import adapters, make_transcript_checker, make_validator
from mantyx_wire_conformance.frames import typed_event
from mantyx_wire_conformance.runner import Adapters
from mantyx_wire_conformance.sse_decoder import decode
from mantyx_wire_conformance.suite import load
from mantyx_wire_conformance.vendor_keywords import VENDOR_KEYWORDS, js_number

KNOWN_FAILURES = Path(__file__).resolve().parent.parent / "known_failures.txt"


def test_every_case_passes_through_the_reference_adapters() -> None:
    known = read_known_failures(KNOWN_FAILURES)
    assert known == [], "the reference adapters' known_failures.txt must stay empty"
    report = run(adapters(), known_failures=known)
    report.raise_for_failures()
    for tier in report.tiers:
        if tier.selected:
            assert (tier.passed, tier.known_failures, tier.failed) == (tier.manifest, 0, 0), tier


@pytest.mark.parametrize("keyword", sorted(VENDOR_KEYWORDS))
def test_without_a_vendor_keyword_exactly_its_tagged_cases_fail(keyword: str) -> None:
    suite = load()
    tagged = [f"{file}::{t['description']}" for file in suite.files("messages/") for g in suite.read_json(file) for t in g["tests"] if keyword in t.get("tags", [])]
    without = Adapters(decode_sse=decode, decode_event=typed_event, validate=make_validator(suite, without=[keyword]), check_transcript=make_transcript_checker(suite))
    report = run(without, tiers=["strict"], suite=suite, echo=False)
    assert [f.id for f in report.failures] == tagged


def test_js_number() -> None:
    cases = {1: "1", -0.5: "-0.5", 1e21: "1e+21", 1e20: "100000000000000000000", 1.5e-7: "1.5e-7", 0.000001: "0.000001", 123.456: "123.456", 2e-300: "2e-300"}
    assert {x: js_number(x) for x in cases} == cases


def test_frame_shapes() -> None:
    envelope = {"seq": 7, "type": "assistant_delta", "data": {"text": "Hi"}}
    assert typed_event(envelope, "assistant_delta") == (envelope, "envelope")
    assert typed_event({"seq": 7, "type": "assistant_delta", "text": "Hi"}, "message") == (envelope, "flat")
    assert typed_event({"seq": 7, "text": "Hi"}, "assistant_delta") == (envelope, "flat")
    # The SSE default event type names no MANTYX type: the event stays untyped.
    assert typed_event({"seq": 7, "text": "Hi"}, "message") == ({"seq": 7, "data": {"text": "Hi"}}, "flat")
    # The type in the frame wins over the event: line.
    assert typed_event({"seq": 7, "type": "assistant_delta", "text": "Hi"}, "update") == (envelope, "flat")


def test_tiers_are_the_manifests() -> None:
    m = load().manifest
    assert set(m["counts"]["tiers"]) == set(TIERS)
    assert sum(m["counts"]["tiers"].values()) == m["counts"]["messages"] + m["counts"]["sse"] + m["counts"]["flows"] + m["counts"]["transcripts"]
    assert m["counts"]["messages"] >= 400 and m["counts"]["sse"] >= 40


def test_a_check_the_runner_does_not_know_is_an_issue_not_a_crash() -> None:
    from mantyx_wire_conformance.transcript_rules import TranscriptRules

    doc = json.loads((load().directory / "schema.json").read_text())
    doc["components"]["schemas"]["RunTranscript"]["x-transcript-rules"] = [{"id": "from-a-newer-schema", "description": "d", "check": "follows-somehow", "select": {}}]
    issues = TranscriptRules(doc).check({"events": []})
    assert [(i["rule"], i["index"]) for i in issues] == [("from-a-newer-schema", -1)]
