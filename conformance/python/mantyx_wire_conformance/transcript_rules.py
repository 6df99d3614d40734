"""The sequence rules of a whole run transcript, read from the schema.

``RunTranscript`` in schema.json carries ``x-transcript-rules``; this module
interprets them (the vocabulary is in RunTranscript's description): nothing
about the rules is hard-coded here, so a new rule of a known kind needs no
change. Terminal event types are the ``KnownAgentRunEvent`` variants marked
``x-terminal: true``.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from .frames import to_envelope

_MISSING = object()


def get(value: Any, pointer: str) -> Any:
    for seg in pointer[1:].split("/"):
        seg = seg.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            if seg not in value:
                return _MISSING
            value = value[seg]
        elif isinstance(value, list):
            if not seg.isdigit() or (len(seg) > 1 and seg[0] == "0") or int(seg) >= len(value):
                return _MISSING
            value = value[int(seg)]
        else:
            return _MISSING
    return value


def _same(a: Any, b: Any) -> bool:
    # JSON equality: true is not 1.
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


class TranscriptRules:
    def __init__(self, schema_doc: dict[str, Any]) -> None:
        schemas = schema_doc["components"]["schemas"]
        self.rules: list[dict[str, Any]] = schemas["RunTranscript"]["x-transcript-rules"]
        terminal = set()
        for branch in schemas["KnownAgentRunEvent"]["oneOf"]:
            variant = schemas[branch["$ref"].split("/")[-1]]
            if variant.get("x-terminal") is True:
                terminal.add(variant["properties"]["type"]["const"])
        self.terminal = terminal

    def selects(self, selector: dict[str, Any], event: Any) -> bool:
        t = event.get("type") if isinstance(event, dict) else None
        t = t if isinstance(t, str) else None
        if "type" in selector and t not in selector["type"]:
            return False
        if "terminal" in selector and (t in self.terminal) != selector["terminal"]:
            return False
        for w in selector.get("where", []):
            if not _same(get(event, w["pointer"]), w["equals"]):
                return False
        return True

    def check(self, transcript: Any) -> list[dict[str, Any]]:
        """Issues ``{rule, index, message}``; empty when every rule holds."""
        if not isinstance(transcript, dict) or not isinstance(transcript.get("events"), list):
            return [{"rule": "shape", "index": -1, "message": "a transcript is an object with an events array"}]
        # Either frame shape: the rules' pointers are into the envelope.
        events = [to_envelope(e)[0] for e in transcript["events"]]
        issues: list[dict[str, Any]] = []
        for rule in self.rules:
            apply = getattr(self, "_" + str(rule["check"]).replace("-", "_"), None)
            if apply is None:
                # A check this runner does not know (a newer schema): an issue, never a crash.
                issues.append({"rule": rule["id"], "index": -1, "message": f"unknown check {rule['check']!r}"})
                continue
            apply(rule, events, issues)
        return issues

    def _increasing(self, rule: dict[str, Any], events: list[Any], issues: list[dict[str, Any]]) -> None:
        # One sequence per string at groupBy ("" when there is none); strict: false lets values repeat.
        strict = rule.get("strict") is not False
        prev: dict[str, Any] = {}
        for i, e in enumerate(events):
            if not self.selects(rule["select"], e):
                continue
            g = get(e, rule["groupBy"]) if "groupBy" in rule else ""
            if not isinstance(g, str):
                continue
            v = get(e, rule["pointer"])
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            p = prev.get(g)
            if p is not None and (not v > p if strict else v < p):
                issues.append({"rule": rule["id"], "index": i, "message": f"{rule['pointer']} is {v}, out of order after {p}"})
            prev[g] = v

    def _precedes(self, rule: dict[str, Any], events: list[Any], issues: list[dict[str, Any]]) -> None:
        # Earlier events still waiting for their later one, by key, oldest first.
        waiting: dict[str, deque[int]] = {}
        for i, e in enumerate(events):
            # An event that is both is first a later event, then an earlier one.
            if self.selects(rule["followedBy"], e):
                k = get(e, rule["key"])
                if isinstance(k, str) and waiting.get(k):
                    waiting[k].popleft()
            if self.selects(rule["select"], e):
                k = get(e, rule["key"])
                if isinstance(k, str):
                    waiting.setdefault(k, deque()).append(i)
        if self._lifted_by_terminal(rule, events):
            return
        for index, k in sorted((index, k) for k, lst in waiting.items() for index in lst):
            issues.append({"rule": rule["id"], "index": index, "message": f"event {index} ({rule['key']} {json.dumps(k)}) is not followed by a matching later event"})

    def _lifted_by_terminal(self, rule: dict[str, Any], events: list[Any]) -> bool:
        end = next((e for e in events if self.selects({"terminal": True}, e)), None)
        return end is not None and any(self.selects(s, end) for s in rule.get("unlessTerminal", []))

    def _count(self, rule: dict[str, Any], events: list[Any], issues: list[dict[str, Any]]) -> None:
        hits = [i for i, e in enumerate(events) if self.selects(rule["select"], e)]
        if "min" in rule and len(hits) < rule["min"]:
            issues.append({"rule": rule["id"], "index": -1, "message": f"{len(hits)} selected events, fewer than {rule['min']}"})
        if "max" in rule and len(hits) > rule["max"]:
            issues.append({"rule": rule["id"], "index": hits[rule["max"]], "message": f"more than {rule['max']} selected events"})

    def _none_after(self, rule: dict[str, Any], events: list[Any], issues: list[dict[str, Any]]) -> None:
        for i, e in enumerate(events):
            if self.selects(rule["select"], e):
                if i < len(events) - 1:
                    issues.append({"rule": rule["id"], "index": i + 1, "message": f"event {i + 1} follows the event at {i}"})
                return

    def _answers(self, rule: dict[str, Any], events: list[Any], issues: list[dict[str, Any]]) -> None:
        calls: dict[str, list[int]] = {}  # key -> [index, answers]
        for i, e in enumerate(events):
            if self.selects(rule["call"], e):
                k = get(e, rule["key"])
                if isinstance(k, str) and k not in calls:
                    calls[k] = [i, 0]
            if self.selects(rule["answer"], e):
                k = get(e, rule["key"])
                if not isinstance(k, str):
                    continue
                if k not in calls:
                    if rule.get("requireCall") is True:
                        issues.append({"rule": rule["id"], "index": i, "message": f"answer for {json.dumps(k)} without an earlier call"})
                    continue
                calls[k][1] += 1
                if "max" in rule and calls[k][1] > rule["max"]:
                    issues.append({"rule": rule["id"], "index": i, "message": f"call {json.dumps(k)} answered more than {rule['max']} time(s)"})
        if "min" not in rule or self._lifted_by_terminal(rule, events):
            return
        for k, (index, answers) in calls.items():
            if answers < rule["min"]:
                issues.append({"rule": rule["id"], "index": index, "message": f"call {json.dumps(k)} answered {answers} time(s), fewer than {rule['min']}"})
