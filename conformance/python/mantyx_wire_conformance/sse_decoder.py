"""A small reference decoder for ``text/event-stream`` bodies.

Implements the WHATWG "Interpreting an event stream" rules
(https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)
and nothing else, in two layers with no protocol knowledge:

* bytes -> lines: CR, LF and CRLF end a line, also when a CRLF is split
  across chunks; each complete line is decoded as UTF-8 with U+FFFD for
  invalid bytes (Python's "replace" handler follows the same "maximal
  subpart" practice as the WHATWG decoder); a BOM is dropped at the very
  start of the stream only;
* lines -> messages: comments, ``field: value`` with one leading space
  stripped, ``data`` lines joined with LF, ``event`` (default "message"),
  ``id`` (persists, NUL ignored, empty resets), ``retry`` (ASCII digits
  only), unknown fields ignored, an event without data not dispatched, an
  incomplete final event discarded at the end of the stream.

A message is ``{"event", "data", "id"}`` plus ``"retry"`` once a valid retry
field has been seen (the stream's reconnection time at dispatch), the shape
the fixture suite uses. Copy it, or plug in your SDK's decoder instead.
"""

from __future__ import annotations

from typing import Any

CR = 0x0D
LF = 0x0A
# The largest reconnection time kept (2**53 - 1, the largest integer JSON
# numbers and JavaScript hold exactly): a longer run of digits is kept as
# MAX_RETRY, so decoders in every language agree.
MAX_RETRY = 2**53 - 1
BOM = "\ufeff"


class SseDecoder:
    def __init__(self) -> None:
        self._pending = bytearray()  # bytes of the line not yet terminated
        self._skip_lf = False  # the previous chunk ended with CR
        self._at_start = True  # no line decoded yet: a leading BOM is dropped
        self._data: list[str] = []
        self._event = ""
        self._last_id = ""
        self._retry: int | None = None
        self._out: list[dict[str, Any]] = []

    def feed(self, chunk: bytes) -> list[dict[str, Any]]:
        """Decode the next chunk; returns the messages it completed."""
        if not chunk:
            return []  # an empty read: a CR ending the previous chunk may still pair with an LF
        start = 0
        if self._skip_lf and chunk[:1] == b"\n":
            start = 1
        self._skip_lf = False
        i = start
        n = len(chunk)
        while i < n:
            b = chunk[i]
            if b == CR or b == LF:
                self._pending += chunk[start:i]
                self._line(bytes(self._pending))
                self._pending.clear()
                if b == CR:
                    if i + 1 < n and chunk[i + 1] == LF:
                        i += 1
                    elif i + 1 == n:
                        self._skip_lf = True
                start = i + 1
            i += 1
        self._pending += chunk[start:]
        out, self._out = self._out, []
        return out

    def end(self) -> list[dict[str, Any]]:
        """End of stream: an unterminated line and an incomplete event are discarded."""
        out, self._out = self._out, []
        self.__init__()
        return out

    def _line(self, raw: bytes) -> None:
        text = raw.decode("utf-8", "replace")
        if self._at_start:
            self._at_start = False
            if text.startswith(BOM):
                text = text[1:]
        if text == "":
            self._dispatch()
            return
        if text.startswith(":"):
            return
        field, colon, value = text.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\x00" not in value:
                self._last_id = value
        elif field == "retry":
            if value != "" and all("0" <= c <= "9" for c in value):
                # Saturates at MAX_RETRY (int() also refuses over 4300 digits).
                digits = value.lstrip("0") or "0"
                self._retry = MAX_RETRY if len(digits) > 16 else min(int(digits), MAX_RETRY)

    def _dispatch(self) -> None:
        if not self._data:
            self._event = ""
            return
        message: dict[str, Any] = {"event": self._event or "message", "data": "\n".join(self._data), "id": self._last_id}
        if self._retry is not None:
            message["retry"] = self._retry
        self._data = []
        self._event = ""
        self._out.append(message)


def decode(chunks: list[bytes]) -> list[dict[str, Any]]:
    """Every message of a whole stream given as chunks."""
    decoder = SseDecoder()
    out: list[dict[str, Any]] = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    out += decoder.end()
    return out
