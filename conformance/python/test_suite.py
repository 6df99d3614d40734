"""The suite itself: versions present, bars met (the manifest was verified
at session start, in conftest.py)."""

import suite


def test_manifest_counts() -> None:
    m = suite.manifest()
    assert m["protocolVersion"] and m["suiteVersion"]
    assert m["counts"]["messages"] >= 400
    assert m["counts"]["sse"] >= 40
    assert m["coverage"]["componentsWithoutValidCases"] == []
    assert m["coverage"]["componentsWithoutInvalidCases"] == []


def test_known_failures_empty_for_our_own_runner() -> None:
    assert suite.known_failures() == set()


def test_files_follow_case_format() -> None:
    """Each case file follows case-format.json (the suite's own format schema)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    fmt = suite.load_json("case-format.json")
    registry = Registry().with_resource(fmt["$id"], Resource.from_contents(fmt))
    defs = {"messages/": "messageFile", "sse/": "sseFile", "flows/": "flow", "transcripts.json": "transcriptFile"}
    for rel in suite.manifest()["files"]:
        name = next((d for prefix, d in defs.items() if rel.startswith(prefix)), None)
        if name is None:
            continue
        validator = Draft202012Validator({"$ref": f"{fmt['$id']}#/$defs/{name}"}, registry=registry)
        errors = [e.message for e in validator.iter_errors(suite.load_json(rel))][:3]
        assert errors == [], rel


def test_manifest_counts_every_case_in_a_tier() -> None:
    m = suite.manifest()
    tiers = m["counts"]["tiers"]
    assert set(tiers) == set(suite.TIERS)
    assert sum(tiers.values()) == m["counts"]["messages"] + m["counts"]["sse"] + m["counts"]["flows"] + m["counts"]["transcripts"]


def test_tier_selection() -> None:
    import pytest

    assert suite.selected_tiers("") == frozenset(suite.TIERS)
    assert suite.selected_tiers(" receive, strict ") == frozenset({"receive", "strict"})
    with pytest.raises(suite.SuiteError, match="MANTYX_TIERS names 'recieve'"):
        suite.selected_tiers("recieve")


def test_frame_shapes() -> None:
    from frames import to_envelope, typed_event

    envelope = {"seq": 7, "type": "assistant_delta", "data": {"text": "Hi"}}
    assert to_envelope(envelope) == (envelope, "envelope")
    assert to_envelope({"seq": 7, "type": "assistant_delta", "text": "Hi"}) == (envelope, "flat")
    assert typed_event({"seq": 7, "text": "Hi"}, "assistant_delta") == (envelope, "flat")
    # The SSE default event type names no MANTYX type: the event stays untyped (and fails validation).
    assert typed_event({"seq": 7, "text": "Hi"}, "message") == ({"seq": 7, "data": {"text": "Hi"}}, "flat")
    # The type in the frame wins over the event: line.
    assert typed_event({"seq": 7, "type": "assistant_delta", "text": "Hi"}, "update") == (envelope, "flat")
