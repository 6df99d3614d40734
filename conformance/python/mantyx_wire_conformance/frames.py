"""The two shapes a MANTYX event frame's data comes in, read into one event.

- The nested envelope the documents show: ``{"seq", "type", "data": {...}}``.
- The flattened frame the official SDKs and their mocks use:
  ``{"seq", "type"?, ...payload}``, the payload's fields beside ``seq``, with
  ``type`` sometimes absent and given only by the SSE ``event:`` line.

The rule (schema/CONVENTIONS.md, "Frame shapes"): an object whose ``data``
member is an object and that has no members but ``seq``, ``type`` and
``data`` is an envelope; any other object is flattened, its payload every
member but ``seq`` and ``type`` (a payload that gained a ``data`` field
stays flat). A missing ``type`` comes from the
``event:`` line, unless that is the SSE default ``message`` (no type named).
An SDK replaces this with its own event decoding.
"""

from __future__ import annotations

from typing import Any


def to_envelope(value: Any) -> tuple[Any, str]:
    """(the envelope, "envelope" | "flat"); a non-object is returned as it is (and fails validation)."""
    if not isinstance(value, dict) or (isinstance(value.get("data"), dict) and set(value) <= {"seq", "type", "data"}):
        return value, "envelope"
    payload = {k: v for k, v in value.items() if k not in ("seq", "type")}
    event: dict[str, Any] = {}
    if "seq" in value:
        event["seq"] = value["seq"]
    if "type" in value:
        event["type"] = value["type"]
    event["data"] = payload
    return event, "flat"


def typed_event(value: Any, event_line: str) -> tuple[Any, str]:
    """The envelope of one message's parsed data, its type from the frame, else from the event: line."""
    event, shape = to_envelope(value)
    if isinstance(event, dict) and "type" not in event and event_line != "message":
        event = {**event, "type": event_line}
    return event, shape
