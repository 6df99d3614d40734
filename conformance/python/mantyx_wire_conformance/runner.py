"""The runner: every case of the selected tiers through an SDK's adapters.

An SDK passes an ``Adapters``: its SSE decoder, its event decoding and its
validator (and, optionally, a checker of the transcript sequence rules).
``run()`` checks each case, expects the cases of the known-failures list to
fail, and returns a ``Report`` with per-tier counts and the failures, named
``<file>::<description>``.
"""

from __future__ import annotations

import base64
import json
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Optional, Union

from .suite import Suite, SuiteError, load
from .tiers import TIERS, check_tiers, parse_tiers

Level = Literal["receive", "strict"]
COMPONENT_PREFIX = "#/components/schemas/"


@dataclass(frozen=True)
class Verdict:
    """A validator's answer; ``rules``: what it found broken when it can name it (then an expected rule must be among them)."""

    valid: bool
    rules: Optional[list[str]] = None


@dataclass(frozen=True)
class Adapters:
    """The SDK's code the suite runs.

    - ``decode_sse(chunks)``: a text/event-stream body fed in these byte
      chunks -> messages ``{"event", "data", "id", "retry"?}`` (``event``
      "message" when none was set, ``id`` the last event ID, ``retry`` once a
      valid retry field was seen);
    - ``decode_event(data, event_line)``: one message's parsed data and its
      ``event:`` line -> ``(event, shape)``: the typed event as the envelope
      ``{seq, type, data}`` and the frame shape read, "envelope" or "flat";
    - ``validate(level, component, instance)``: ``True``/``False`` or a
      ``Verdict`` for ``instance`` against ``components/schemas/<component>``
      at level "receive" or "strict";
    - ``check_transcript(transcript)`` (optional): the ids of the sequence
      rules (``x-transcript-rules``) a whole run ``{"events": [...]}`` breaks.
      Without it the transcript cases fail and flows skip that check.
    """

    decode_sse: Callable[[list[bytes]], list[dict[str, Any]]]
    decode_event: Callable[[Any, str], tuple[Any, str]]
    validate: Callable[[Level, str, Any], Union[bool, Verdict]]
    check_transcript: Optional[Callable[[Any], list[str]]] = None


@dataclass
class TierResult:
    tier: str
    selected: bool
    manifest: int
    passed: int = 0
    known_failures: int = 0
    failed: int = 0

    def line(self) -> str:
        if not self.selected:
            return f"[mantyx-conformance] tier {self.tier}: not selected (manifest {self.manifest})"
        return f"[mantyx-conformance] tier {self.tier}: passed {self.passed}, known failures {self.known_failures}, failed {self.failed} (manifest {self.manifest})"


@dataclass(frozen=True)
class Failure:
    id: str
    tier: str
    problem: str


class ConformanceError(AssertionError):
    """A run in which some case did not go as expected."""


@dataclass
class Report:
    suite: Suite
    tiers: list[TierResult]
    failures: list[Failure] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.problems

    def lines(self) -> list[str]:
        m = self.suite.manifest
        return [f"[mantyx-conformance] suite {m['suiteVersion']} (protocol {m['protocolVersion']}) from {self.suite.directory}"] + [t.line() for t in self.tiers]

    def raise_for_failures(self) -> None:
        """Raises ConformanceError listing every failure and problem (for a pytest test)."""
        if not self.ok:
            raise ConformanceError("\n".join(self.lines() + [f"{f.id} ({f.tier}): {f.problem}" for f in self.failures] + self.problems))


# Reports of this process's echoed runs, for the pytest plugin's summary.
REPORTS: list[Report] = []


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, member order does not matter."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _judge(a: Adapters, level: Level, pointer: str, data: Any, valid: bool, rule: Optional[str]) -> Optional[str]:
    if not pointer.startswith(COMPONENT_PREFIX):
        return f"schema {pointer!r} is not a component pointer"
    component = pointer[len(COMPONENT_PREFIX):]
    answer = a.validate(level, component, data)
    verdict = answer if isinstance(answer, Verdict) else Verdict(bool(answer))
    if verdict.valid != valid:
        return f"expected valid ({component}, {level}), the validator rejects it {verdict.rules or ''}".rstrip() if valid else f"expected invalid ({component}, {level}: rule {rule}), the validator accepts it"
    if not valid and rule and verdict.rules is not None and rule not in verdict.rules:
        return f"expected rule {rule} among {verdict.rules}"
    return None


def _chunkings(case: dict[str, Any]) -> list[tuple[str, list[bytes]]]:
    body = case["input"]["text"].encode("utf-8") if "text" in case["input"] else base64.b64decode(case["input"]["base64"])
    out = [("whole", [body])]
    if "chunks" in case:
        out.append(("given chunks", [base64.b64decode(c) for c in case["chunks"]]))
    out.append(("one byte per chunk", [body[i : i + 1] for i in range(len(body))]))
    return out


def _check_sse(a: Adapters, case: dict[str, Any]) -> Optional[str]:
    for how, chunks in _chunkings(case):
        got = a.decode_sse(chunks)
        if not same_json(list(got), case["messages"]):
            return f"{how}: decoded {json.dumps(got)}, want {json.dumps(case['messages'])}"
    events = case.get("events")
    if events is None:
        return None
    shapes = case.get("shapes", ["envelope"] * len(events))
    for i, (message, want) in enumerate(zip(case["messages"], events)):
        event, shape = a.decode_event(json.loads(message["data"]), message["event"])
        if not same_json(event, want):
            return f"message {i}: typed event {json.dumps(event)}, want {json.dumps(want)}"
        if shape != shapes[i]:
            return f"message {i}: read as a {shape} frame, the case says {shapes[i]}"
        problem = _judge(a, "receive", COMPONENT_PREFIX + "AgentRunEvent", event, True, None)
        if problem:
            return f"message {i}: {problem}"
    return None


def _check_flow(a: Adapters, flow: dict[str, Any]) -> Optional[str]:
    streams: dict[str, str] = {}
    delivered: dict[str, list[Any]] = {}
    for i, step in enumerate(flow["steps"]):
        at = f"step {i} ({step['kind']})"
        if step["kind"] in ("http", "open-stream"):
            for side in ("request", "response"):
                m = step[side]
                if "body" in m:
                    problem = _judge(a, "strict", m.get("bodySchema", ""), m["body"], True, None)
                    if problem:
                        return f"{at} {side} body: {problem}"
            if step["kind"] == "open-stream":
                streams[step["stream"]] = step["runId"]
        elif step["kind"] == "receive":
            if step["stream"] not in streams:
                return f"{at}: stream {step['stream']} is not open"
            messages = a.decode_sse([step["sse"].encode("utf-8")])
            if len(messages) != len(step["events"]):
                return f"{at}: decoded {len(messages)} messages for {len(step['events'])} events"
            seen = delivered.setdefault(streams[step["stream"]], [])
            for j, (message, want) in enumerate(zip(messages, step["events"])):
                event, _ = a.decode_event(json.loads(message["data"]), message["event"])
                if not same_json(event, want):
                    return f"{at}: message {j} decodes to {json.dumps(event)}, want {json.dumps(want)}"
                problem = _judge(a, "strict", COMPONENT_PREFIX + "AgentRunEvent", event, True, None)
                if problem:
                    return f"{at}: message {j}: {problem}"
                if all(s["seq"] != want["seq"] for s in seen):
                    seen.append(want)
        elif step["kind"] == "stream-end":
            if streams.pop(step["stream"], None) is None:
                return f"{at}: stream {step['stream']} is not open"
        else:
            return f"{at}: unknown step kind"
    for run_ in flow["runs"]:
        if not same_json(delivered.get(run_["runId"], []), run_["events"]):
            return f"run {run_['runId']}: its transcript is not what the streams delivered, each seq once"
        if a.check_transcript is not None:
            broken = a.check_transcript({"events": run_["events"]})
            if broken:
                return f"run {run_['runId']}: its transcript breaks the sequence rules {broken}"
    return None


def _check_transcript(a: Adapters, test: dict[str, Any]) -> Optional[str]:
    if a.check_transcript is None:
        return "no check_transcript adapter: the SDK does not check the sequence rules"
    broken = list(a.check_transcript(test["data"]))
    if test["valid"] and broken:
        return f"expected every rule kept, the checker reports {broken}"
    if not test["valid"] and test.get("rule") not in broken:
        return f"expected rule {test.get('rule')} broken, the checker reports {broken}"
    return None


def _cases(suite: Suite) -> Iterable[tuple[str, str, Callable[[Adapters], Optional[str]]]]:
    """(id, tier, check) for every case, in file order."""
    for file in suite.files("messages/"):
        for group in suite.read_json(file):
            for t in group["tests"]:
                yield f"{file}::{t['description']}", t["tier"], (lambda a, g=group, t=t: _judge(a, t["tier"], g["schema"], t["data"], t["valid"], t.get("rule")))
    for file in suite.files("sse/"):
        for case in suite.read_json(file):
            yield f"{file}::{case['description']}", case["tier"], (lambda a, c=case: _check_sse(a, c))
    for file in suite.files("flows/"):
        flow = suite.read_json(file)
        yield f"{file}::{flow['description']}", flow["tier"], (lambda a, f=flow: _check_flow(a, f))
    for group in suite.read_json("transcripts.json"):
        for t in group["tests"]:
            yield f"transcripts.json::{t['description']}", t["tier"], (lambda a, t=t: _check_transcript(a, t))


def run(adapters: Adapters, *, tiers: Optional[Iterable[str]] = None, known_failures: Iterable[str] = (), suite: Optional[Suite] = None, echo: bool = True) -> Report:
    """Run the suite (``load()``ed when not given) through ``adapters``.

    ``tiers``: the tiers to run (default ``$MANTYX_TIERS``, else all three).
    ``known_failures``: case ids expected to fail (``read_known_failures``);
    one that passes is a failure, an id that is no case a problem. ``echo``
    prints the per-tier lines (and the pytest plugin repeats them in its summary).
    """
    suite = suite if suite is not None else load()
    selected = set(parse_tiers() if tiers is None else check_tiers(tuple(tiers)))
    known = set(known_failures)
    counts = suite.tier_counts()
    results = {t: TierResult(t, t in selected, counts.get(t, 0)) for t in TIERS}
    report = Report(suite, list(results.values()))
    seen = {t: 0 for t in TIERS}
    for case_id, tier, check in _cases(suite):
        if tier not in results:
            report.problems.append(f"{case_id}: unknown tier {tier!r}")
            continue
        seen[tier] += 1
        listed = case_id in known
        known.discard(case_id)
        if tier not in selected:
            continue
        try:
            problem = check(adapters)
        except Exception as e:  # noqa: BLE001 - an adapter's exception fails its case, not the run
            problem = f"an adapter raised {type(e).__name__}: {e} ({traceback.extract_tb(e.__traceback__)[-1].name})"
        res = results[tier]
        if problem and listed:
            res.known_failures += 1
        elif problem:
            res.failed += 1
            report.failures.append(Failure(case_id, tier, problem))
        elif listed:
            res.failed += 1
            report.failures.append(Failure(case_id, tier, "listed as a known failure, yet passes: remove it from the list"))
        else:
            res.passed += 1
    for t in TIERS:
        if seen[t] != results[t].manifest:
            report.problems.append(f"tier {t}: the suite holds {seen[t]} cases, its manifest counts {results[t].manifest}")
    for case_id in sorted(known):
        report.problems.append(f"known failure {case_id!r} is no case of the suite (a typo, or a case the suite no longer has): remove it")
    if echo:
        REPORTS.append(report)
        print("\n".join(report.lines()))
    return report


__all__ = ["Adapters", "ConformanceError", "Failure", "Level", "Report", "SuiteError", "TierResult", "Verdict", "run"]
