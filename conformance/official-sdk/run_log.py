"""A run's event log as the server keeps it: a fresh stream read with no
resume hints (the mock replays a finished run whole and closes), decoded by
the suite's reference Python decoder and frame reader
(conformance/python/mantyx_wire_conformance: sse_decoder.py, frames.py), not by the SDK under test.
The flows compare what the SDK delivered with it."""

from __future__ import annotations

import json
from typing import Any

import httpx

from mantyx_wire_conformance import frames, sse_decoder
from mock_host import API_KEY, WORKSPACE

HEADERS = {"Authorization": f"Bearer {API_KEY}"}


def _run_url(origin: str, run_id: str) -> str:
    return f"{origin}/api/v1/workspaces/{WORKSPACE}/agent-runs/{run_id}"


def cancel(origin: str, run_id: str) -> None:
    """Ends a run still going (a tool call the SDK never answered); the mock answers 202 whatever its state."""
    httpx.post(f"{_run_url(origin, run_id)}/cancel", headers=HEADERS, timeout=10).raise_for_status()


def read(origin: str, run_id: str) -> list[dict[str, Any]]:
    """The run's events: ``{seq, type, toolUseId, text}`` each (``None`` where the data has none), in log order."""
    chunks: list[bytes] = []
    with httpx.stream("GET", f"{_run_url(origin, run_id)}/stream", headers={**HEADERS, "Accept": "text/event-stream"}, timeout=10) as resp:
        resp.raise_for_status()
        chunks.extend(resp.iter_bytes())
    events = []
    for message in sse_decoder.decode(chunks):
        event, _shape = frames.typed_event(json.loads(message["data"]), message["event"])
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        events.append({"seq": event["seq"], "type": event["type"], "toolUseId": data.get("toolUseId"), "text": data.get("text")})
    return events
