"""The official SDK's SSE parsers (``mantyx.sse.iter_sse``, and
``aiter_sse``, its copy for the async client) and its frame reading (``mantyx.client._to_run_event``, the function its stream loop
calls on each parsed block) over the suite's SSE cases (tier behaviour).

Measured on what the SDK exposes and uses: the order of dispatched
messages, each one's ``event`` type and ``data``. Not the ``id`` (the SDK
resumes from each frame's ``seq``, never from the SSE id) and not
``retry`` (it exposes none). The typed events are compared as the SDK
delivers them: ``RunEvent(seq, type, data)``; for a flattened frame its
``data`` is the whole frame, so ``seq`` and ``type`` members beside the
payload are not counted against it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import suite


def _sync_parse(sse: Any, chunks: list[bytes]) -> list[Any]:
    return list(sse.iter_sse(iter(chunks)))


def _async_parse(sse: Any, chunks: list[bytes]) -> list[Any]:
    async def source() -> AsyncIterator[bytes]:
        for chunk in chunks:
            yield chunk

    async def collect() -> list[Any]:
        return [e async for e in sse.aiter_sse(source())]

    return asyncio.run(collect())


PARSERS: dict[str, Callable[[Any, list[bytes]], list[Any]]] = {"iter_sse": _sync_parse, "aiter_sse": _async_parse}


def _messages(parse: Callable[[list[bytes]], list[Any]], chunks: list[bytes]) -> list[dict[str, str]] | str:
    try:
        return [{"event": e.event or "message", "data": e.data} for e in parse(chunks)]
    except Exception as e:  # noqa: BLE001 - a raise is a verdict
        return f"raised {type(e).__name__}: {e}"


def _difference(got: list[dict[str, str]] | str, want: list[dict[str, str]]) -> str | None:
    if isinstance(got, str):
        return got
    if got == want:
        return None
    if len(got) != len(want):
        return f"{len(got)} messages, want {len(want)}: got {json.dumps(got, ensure_ascii=False)[:200]}"
    i = next(i for i, (g, w) in enumerate(zip(got, want)) if g != w)
    return f"message {i}: got {json.dumps(got[i], ensure_ascii=False)[:160]}, want {json.dumps(want[i], ensure_ascii=False)[:160]}"


def _payload_matches(got: Any, want: Any, shape: str) -> bool:
    if got == want:
        return True
    if shape != "envelope" and isinstance(got, dict):
        return {k: v for k, v in got.items() if k not in ("seq", "type")} == want
    return False


def parser_rows(sse: Any, client: Any) -> list[dict[str, Any]]:
    """One row per SSE case (messages), and one per MANTYX case (typed events)."""
    rows: list[dict[str, Any]] = []
    for file in suite.files("sse/"):
        for case in suite.load_json(file):
            if case["tier"] != "behaviour":
                continue
            cid = suite.case_id(file, case["description"])
            want = [{"event": m["event"], "data": m["data"]} for m in case["messages"]]
            for name, parse in PARSERS.items():
                problem = None
                for how, chunks in suite.chunkings(case):
                    problem = _difference(_messages(lambda c: parse(sse, c), chunks), want)
                    if problem:
                        problem = f"{how}: {problem}"
                        break
                rows.append({"part": f"sse parser (mantyx.sse.{name})", "id": cid, "rule": case["rule"], "verdict": "fail" if problem else "pass", "reason": problem or "same messages"})
            if "events" not in case:
                continue
            rows.append(_typed_row(sse, client, cid, case))
    return rows


def _typed_row(sse: Any, client: Any, cid: str, case: dict[str, Any]) -> dict[str, Any]:
    shapes = case.get("shapes") or ["envelope"] * len(case["events"])
    problem = None
    frames = list(sse.iter_sse(iter([suite.sse_bytes(case)])))
    if len(frames) != len(case["events"]):
        problem = f"{len(frames)} frames for {len(case['events'])} events"
    last_seq = 0
    for i, (frame, event, shape) in enumerate(zip(frames, case["events"], shapes)):
        ev = client._to_run_event(frame, last_seq)
        last_seq = max(last_seq, ev.seq)
        if (ev.seq, ev.type) != (event["seq"], event["type"]) or not _payload_matches(ev.data, event["data"], shape):
            problem = f"event {i} ({shape}): got seq {ev.seq} type {ev.type!r} data {json.dumps(ev.data)[:100]}, want seq {event['seq']} type {event['type']!r}"
            break
    return {"part": "frames (mantyx.client._to_run_event)", "id": cid, "rule": case["rule"], "verdict": "fail" if problem else "pass", "reason": problem or "same typed events"}
