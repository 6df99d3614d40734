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
