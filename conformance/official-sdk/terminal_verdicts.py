"""Success or failure: the official SDK's verdict against ours on every
terminal event the suite calls valid.

Ours is ``runOutcome`` (mantyx/outcome.ts, run by our-verdicts.ts). The
SDK's is its run driver's: each event is written as an SSE frame, read by
the SDK's own parser and frame reader, and handed to
``MantyxClient._drive_run`` (what ``run_agent`` and ``session.send``
return through) in place of its HTTP stream; it returns (succeeded),
raises ``MantyxRunError`` with subtype ``cancelled`` (cancelled), or
raises otherwise (failed). Each event is labelled with the edition its
shape belongs to: a ``result`` with ``subtype`` is the October 2026 shape
(and the older servers'), one with ``ok`` the seed edition's (2026-09).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any, Iterator

import suite

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TERMINAL = ("result", "error", "cancelled")
EVENT_FILES = ("AgentRunEvent", "KnownAgentRunEvent", "ResultEvent", "ErrorEvent", "CancelledEvent")
DATA_FILES = {"ResultData": "result", "ErrorEventData": "error", "CancelledData": "cancelled"}


def terminal_fixtures() -> list[tuple[str, dict[str, Any]]]:
    """(case id, {type, data}) of every valid terminal event in the suite's messages, SSE cases and flows; each event once."""
    found: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()

    def add(cid: str, event: dict[str, Any]) -> None:
        key = json.dumps(event, sort_keys=True)
        if event.get("type") in TERMINAL and isinstance(event.get("data"), dict) and key not in seen:
            seen.add(key)
            found.append((cid, event))

    for name in EVENT_FILES:
        file = f"messages/{name}.json"
        for group in suite.load_json(file):
            for test in group["tests"]:
                data = test["data"]
                if test["valid"] and isinstance(data, dict):
                    add(suite.case_id(file, test["description"]), {"type": data.get("type"), "data": data.get("data")})
    for name, type_ in DATA_FILES.items():
        file = f"messages/{name}.json"
        for group in suite.load_json(file):
            for test in group["tests"]:
                if test["valid"]:
                    add(suite.case_id(file, test["description"]), {"type": type_, "data": test["data"]})
    for file in suite.files("sse/"):
        for case in suite.load_json(file):
            for i, ev in enumerate(case.get("events", [])):
                add(f"{suite.case_id(file, case['description'])} (event {i})", {"type": ev["type"], "data": ev["data"]})
    for file in suite.files("flows/"):
        flow = suite.load_json(file)
        for i, step in enumerate(flow["steps"]):
            for ev in step.get("events", []):
                add(f"{file}::{flow['description']} (step {i}, seq {ev['seq']})", {"type": ev["type"], "data": ev["data"]})
    return found


def edition_of(event: dict[str, Any]) -> str:
    data = event["data"]
    if event["type"] != "result":
        return "error or cancelled"
    if "subtype" in data:
        return "2026-10"
    if "ok" in data:
        return "2026-09"
    return "unmarked"


def ours(events: list[dict[str, Any]]) -> list[str | None]:
    tsx = REPO / "node_modules" / ".bin" / "tsx"
    out = subprocess.run([str(tsx), str(HERE / "our-verdicts.ts")], input=json.dumps(events), capture_output=True, text=True, cwd=REPO, timeout=120, check=True)
    return json.loads(out.stdout)


def sdk_verdict(mantyx: Any, event: dict[str, Any]) -> str:
    from mantyx import client as client_mod
    from mantyx import sse, tools

    frame = f"id: 1\nevent: {event['type']}\ndata: {json.dumps({'seq': 1, **event})}\n\n".encode()
    run_events = [client_mod._to_run_event(f, 0) for f in sse.iter_sse(iter([frame]))]
    # Never contacted: _stream_events, the only part that would, is replaced below.
    client = mantyx.MantyxClient(api_key="mantyx_unused", workspace_slug="w", base_url="http://127.0.0.1:9")

    def stream(run_id: str, handlers: Any) -> Iterator[Any]:
        return iter(run_events)

    client._stream_events = stream  # type: ignore[method-assign]
    try:
        client._drive_run(run_id="run_fixture", handlers=tools.collect_local_handlers(None))
        return "succeeded"
    except mantyx.MantyxRunError as e:
        return "cancelled" if e.subtype == "cancelled" else "failed"
    finally:
        client.close()


def verdict_rows(mantyx: Any) -> list[dict[str, Any]]:
    fixtures = terminal_fixtures()
    our = ours([ev for _, ev in fixtures])
    rows = []
    for (cid, event), mine in zip(fixtures, our):
        theirs = sdk_verdict(mantyx, event)
        edition = edition_of(event)
        marker = {k: event["data"][k] for k in ("ok", "subtype") if k in event["data"]}
        rows.append({
            "part": "terminal verdicts (MantyxClient._drive_run vs runOutcome)",
            "id": cid,
            "edition": edition,
            "verdict": "pass" if theirs == mine else "fail",
            "reason": f"{event['type']} {json.dumps(marker)}: both say {mine}" if theirs == mine else f"{event['type']} {json.dumps(marker)}: the SDK says {theirs}, we say {mine}",
        })
    return rows
