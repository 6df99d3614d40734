"""Conformance report: the fixture suite against the official Python SDK.

A thin adapter maps the suite's cases onto the SDK's own code and prints
per-area pass/fail counts. It reports; it never fails (exit status 0 even
when cases fail, or when the SDK cannot be imported).

What the SDK offers, found by reading its source (mantyx-sdk 2026.10.2):
- ``mantyx.sse.iter_sse(byte_iter)``: its SSE parser, yielding
  ``SseEvent(data, id, event)``; ``event``/``id`` are None when absent. It
  exposes no reconnection time, so ``retry`` is not compared.
- ``mantyx.client._to_run_event(sse_event, last_seq)``: how it turns a
  message into a ``RunEvent(seq, type, data)`` (a private helper; the
  public stream API wraps it with HTTP). Compared with the envelope's
  ``seq``, ``type`` and ``data``.
- Models are ``typing.TypedDict``s (mantyx.types, mantyx.tools), which
  pydantic refuses to adapt on Python < 3.12; they are judged by
  ``accepts()`` below, a strict structural check of the TypedDict's type
  hints (required keys, str/int/float/bool, Literal, unions, lists, dicts,
  nested TypedDicts; unknown keys pass, as the protocol requires), for the
  components that have a counterpart. Cases tagged with a vendor keyword are
  skipped (the SDK declares no such limits).
Run it with ``npm run conformance`` (run_official_sdk.py sets up the SDK).
"""

from __future__ import annotations

import collections.abc
import importlib.metadata
import json
import sys
import traceback
import types as types_module
import typing
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import suite  # noqa: E402


def load_sdk() -> tuple[Any, Any, Any] | str:
    try:
        from mantyx import client, sse, tools, types
    except Exception as e:  # noqa: BLE001 - any import failure is reported, not raised
        return f"cannot import the official SDK (mantyx-sdk): {type(e).__name__}: {e}"
    return sse, client, (types, tools)


def accepts(tp: Any, value: Any) -> bool:
    """Whether ``value`` (parsed JSON) has the type ``tp`` (a type hint of the SDK), strictly."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return True
    if typing.is_typeddict(tp):
        if not isinstance(value, dict):
            return False
        hints = typing.get_type_hints(tp)
        if any(k not in value for k in tp.__required_keys__):
            return False
        return all(accepts(hints[k], v) for k, v in value.items() if k in hints)
    if origin is typing.Literal:
        return any(type(value) is type(a) and value == a for a in args)
    if origin in (typing.Union, types_module.UnionType):
        return any(accepts(a, value) for a in args)
    if origin in (list, collections.abc.Sequence):
        return isinstance(value, list) and all(accepts(args[0], v) for v in value) if args else isinstance(value, list)
    if origin in (dict, collections.abc.Mapping):
        return isinstance(value, dict) and (not args or all(accepts(args[1], v) for v in value.values()))
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    if tp in (dict, list):
        return isinstance(value, tp)
    if tp is type(None) or tp is None:
        return value is None
    raise TypeError(f"no check for type hint {tp!r}")


# Suite component -> (module attribute) of the SDK's TypedDict models.
MODEL_MAP = {
    "InputFileAttachment": ("types", "InputFileAttachment"),
    "InputFileUrlAttachment": ("types", "InputFileUrlAttachment"),
    "Attachment": ("types", "MessageAttachment"),
    "Message": ("types", "ConversationMessage"),
    "AttachmentMetadata": ("types", "AttachmentMetadata"),
    "UserMessageData": ("types", "UserMessageEventData"),
    "AssistantMessageData": ("types", "AssistantMessageEventData"),
    "Tokens": ("types", "RunTokenUsageWire"),
    "ResolvedModel": ("types", "RunModelInfoWire"),
    "ResultData": ("types", "ResultEventData"),
    "ErrorEventData": ("types", "ErrorEventData"),
    "Budgets": ("types", "RunBudgets"),
    "Metadata": ("types", "Metadata"),
    "AgentSpec": ("types", "AgentSpec"),
    "OutputSchema": ("tools", "OutputSchema"),
    "LoopDetectionConfig": ("tools", "LoopDetection"),
    "ToolBudget": ("tools", "ToolBudget"),
    "SupervisorReasoningTrigger": ("tools", "ReasoningTrigger"),
    "SupervisorConfig": ("tools", "Supervisor"),
    "PlanConfig": ("tools", "PlanOptions"),
    "TaskPlanStep": ("tools", "TaskPlanStep"),
    "TaskPlan": ("tools", "TaskPlan"),
}


class Area:
    def __init__(self, name: str) -> None:
        self.name = name
        self.counts: Counter[str] = Counter()
        self.failures: list[str] = []

    def passed(self) -> None:
        self.counts["pass"] += 1

    def failed(self, case_id: str, why: str) -> None:
        self.counts["fail"] += 1
        self.failures.append(f"{case_id}: {why}")

    def skipped(self) -> None:
        self.counts["skip"] += 1

    def line(self) -> str:
        c = self.counts
        total = c["pass"] + c["fail"]
        pct = f"{100 * c['pass'] / total:.0f}%" if total else "n/a"
        return f"{self.name}: {c['pass']} passed, {c['fail']} failed, {c['skip']} skipped ({pct} of the cases run)"


def sse_areas(sse: Any, client: Any) -> tuple[Area, Area]:
    messages = Area("sse messages (mantyx.sse.iter_sse)")
    typed = Area("typed events (mantyx.client._to_run_event)")
    for file in suite.files("sse/"):
        for case in suite.load_json(file):
            cid = suite.case_id(file, case["description"])
            want = [{"event": m["event"], "data": m["data"], "id": m["id"]} for m in case["messages"]]
            problem = None
            for how, chunks in suite.chunkings(case):
                try:
                    got = [{"event": e.event or "message", "data": e.data, "id": e.id or ""} for e in sse.iter_sse(iter(chunks))]
                except Exception as e:  # noqa: BLE001
                    got = f"raised {type(e).__name__}: {e}"
                if got != want:
                    problem = f"{how}: got {json.dumps(got)[:300]}"
                    break
            if problem:
                messages.failed(cid, problem)
            else:
                messages.passed()
            if "events" not in case:
                continue
            # The SDK's own path: its parser's frames (not the suite's) through its converter.
            last_seq = 0
            wrong = None
            frames = list(sse.iter_sse(iter([suite.sse_bytes(case)])))
            if len(frames) != len(case["events"]):
                wrong = f"{len(frames)} frames for {len(case['events'])} events"
            for frame, event in zip(frames, case["events"]):
                ev = client._to_run_event(frame, last_seq)
                last_seq = max(last_seq, ev.seq)
                if (ev.seq, ev.type, ev.data) != (event["seq"], event["type"], event["data"]):
                    wrong = f"got seq={ev.seq} type={ev.type!r} data={json.dumps(ev.data)[:120]}, want type={event['type']!r}"
                    break
            if wrong:
                typed.failed(cid, wrong)
            else:
                typed.passed()
    return messages, typed


def message_area(models: Any) -> Area:
    area = Area("message cases (SDK TypedDicts)")
    types_mod, tools_mod = models
    targets = {c: getattr(types_mod if m == "types" else tools_mod, a, None) for c, (m, a) in MODEL_MAP.items()}
    targets = {c: t for c, t in targets.items() if t is not None}
    for file in suite.files("messages/"):
        for group in suite.load_json(file):
            component = group["schema"].split("/")[-1]
            target = targets.get(component)
            if target is None:
                continue
            for test in group["tests"]:
                cid = suite.case_id(file, test["description"])
                if any(t.startswith("x-") for t in test.get("tags", [])):
                    area.skipped()
                    continue
                ok = accepts(target, test["data"])
                if ok == test["valid"]:
                    area.passed()
                else:
                    area.failed(cid, f"expected {'valid' if test['valid'] else 'invalid (' + str(test.get('rule')) + ')'}, the SDK model says {'valid' if ok else 'invalid'}")
    area.name += f", {len(targets)} of {len(MODEL_MAP)} mapped components"
    return area


def main() -> int:
    print("MANTYX fixture suite vs the official Python SDK (report only; never fails)")
    try:
        problems = suite.verify_manifest(suite.manifest())
    except suite.SuiteError as e:
        print(f"NOT RUN: {e}")
        return 0
    if problems:
        print("NOT RUN: the fixture suite does not match its manifest.json:\n  " + "\n  ".join(problems))
        return 0
    loaded = load_sdk()
    if isinstance(loaded, str):
        print(f"NOT RUN: {loaded}")
        print("Install it with: pip install -r conformance/python/official-sdk-requirements.txt")
        return 0
    sse, client, models = loaded
    print(f"suite: {suite.FIXTURES_DIR}")
    print(f"sdk: mantyx-sdk {importlib.metadata.version('mantyx-sdk')}")
    try:
        areas = [*sse_areas(sse, client), message_area(models)]
    except Exception:  # noqa: BLE001 - the report never fails
        print("NOT RUN: the adapter broke on this SDK version:")
        traceback.print_exc(file=sys.stdout)
        return 0
    by_rule: dict[str, Counter[str]] = defaultdict(Counter)
    for file in suite.files("sse/"):
        for case in suite.load_json(file):
            cid = suite.case_id(file, case["description"])
            failed = any(f.startswith(cid + ":") for f in areas[0].failures)
            by_rule[case["rule"]]["fail" if failed else "pass"] += 1
    print()
    for area in areas:
        print(area.line())
    print()
    print("sse messages by framing rule: " + ", ".join(f"{r} {c['pass']}/{c['pass'] + c['fail']}" for r, c in sorted(by_rule.items())))
    for area in areas:
        if area.failures:
            print(f"\n{area.name}: failing cases")
            for f in area.failures:
                print(f"  - {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
