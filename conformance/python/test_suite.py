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
