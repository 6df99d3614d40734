"""The runner's contract: a suite that does not match its manifest is
refused with every problem named; known failures are expected to fail (one
that passes, or an id that is no case, fails the run); tiers select."""

import shutil
from pathlib import Path

import pytest

from mantyx_wire_conformance import EMBEDDED_DIR, IntegrityError, SuiteError, load, parse_known_failures, parse_tiers, read_known_failures, run
from mantyx_wire_conformance.reference import adapters
from mantyx_wire_conformance.runner import Adapters


def test_a_tampered_suite_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "fixtures"
    shutil.copytree(EMBEDDED_DIR, copy)
    (copy / "sse" / "framing.json").write_text("[]\n", encoding="utf-8")
    (copy / "transcripts.json").unlink()
    (copy / "messages" / "Extra.json").write_text("[]\n", encoding="utf-8")
    with pytest.raises(IntegrityError) as caught:
        load(copy)
    message = str(caught.value)
    assert "does not match its manifest.json" in message
    assert "sse/framing.json: sha256 " in message
    assert "transcripts.json: missing" in message
    assert "messages/Extra.json: not in the manifest" in message
    with pytest.raises(SuiteError, match="no manifest.json"):
        load(tmp_path / "empty")


def test_known_failures() -> None:
    suite = load()
    ref = adapters(suite)

    def no_retry(chunks: list[bytes]) -> list[dict]:
        return [{k: v for k, v in m.items() if k != "retry"} for m in ref.decode_sse(chunks)]

    sdk = Adapters(decode_sse=no_retry, decode_event=ref.decode_event, validate=ref.validate)
    first = run(sdk, tiers=["behaviour"], suite=suite, echo=False)
    failing = [f.id for f in first.failures]
    assert failing and all(i.startswith("sse/") for i in failing)
    passing = f"{suite.files('flows/')[0]}::{suite.read_json(suite.files('flows/')[0])['description']}"
    report = run(sdk, tiers=["behaviour"], suite=suite, known_failures=failing + [passing, "messages/Nope.json::nothing", "messages/ToolRef.json::example 0"], echo=False)
    behaviour, receive, _ = report.tiers
    assert (behaviour.known_failures, behaviour.failed, behaviour.passed) == (len(failing), 1, behaviour.manifest - len(failing) - 1)
    assert [(f.id, "yet passes" in f.problem) for f in report.failures] == [(passing, True)]
    # The receive case of an unselected tier is a real case, not stale.
    assert len(report.problems) == 1 and "'messages/Nope.json::nothing' is no case" in report.problems[0]
    assert receive.line() == f"[mantyx-conformance] tier receive: not selected (manifest {receive.manifest})"
    with pytest.raises(AssertionError, match="yet passes"):
        report.raise_for_failures()


def test_an_adapter_that_raises_fails_its_case_not_the_run() -> None:
    suite = load()
    ref = adapters(suite)

    def broken(level: str, component: str, instance: object) -> bool:
        if component == "ToolRef":
            raise ValueError("no such type")
        return ref.validate(level, component, instance)

    report = run(Adapters(ref.decode_sse, ref.decode_event, broken, ref.check_transcript), tiers=["receive", "strict"], suite=suite, echo=False)
    assert report.failures and all(f.id.startswith("messages/ToolRef.json::") and "ValueError: no such type" in f.problem for f in report.failures)


def test_parse_tiers_and_known_failures(tmp_path: Path) -> None:
    assert parse_tiers("") == ("behaviour", "receive", "strict")
    assert parse_tiers(" receive, strict ") == ("receive", "strict")
    with pytest.raises(SuiteError, match="unknown tier 'recieve'"):
        parse_tiers("recieve")
    assert parse_known_failures("# our decoder keeps the BOM\nsse/framing.json::a BOM\n\n  messages/ToolRef.json::example 0  \n") == ["sse/framing.json::a BOM", "messages/ToolRef.json::example 0"]
    with pytest.raises(FileNotFoundError):
        read_known_failures(tmp_path / "none.txt")
