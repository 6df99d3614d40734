/**
 * The event-stream field rules (WHATWG HTML, "Interpreting an event
 * stream": https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * line by line: the one home of what a line means, shared by both ways of
 * cutting bytes into lines (./framing.ts, ./framing.browser.ts).
 *
 * A UTF-8 BOM is dropped once, at the start of the stream. Fields: ':'
 * starts a comment; `name:value` with one leading space of the value
 * stripped, a line without a colon is a name with an empty value; `data`
 * appends (joined with LF), `event` sets the type ("message" if empty),
 * `id` sets the last event ID unless it contains U+0000 (it persists across
 * events), `retry` counts only if all ASCII digits; unknown names are
 * ignored. A blank line dispatches the event if it has data lines, and
 * resets the type either way. `maxEventBytes` bounds an event's field lines
 * and any one line (a comment too).
 */
import { SseParseError } from "./errors.js";

/** One dispatched event. */
export interface SseMessage {
  /** The `event` field, or "message" when the event had none (or an empty one). */
  event: string;
  /** The `data` lines joined with "\n". */
  data: string;
  /** The last event ID at dispatch time: persists across events, "" if none yet. */
  id: string;
  /** The stream's reconnection time in ms, once any valid `retry` field has been seen in this stream. */
  retry?: number;
}

export interface SseParserCallbacks {
  onMessage(message: SseMessage): void;
  /** Every valid `retry` field, even when no message is dispatched. */
  onRetry?(ms: number): void;
  /** Every comment line, without the leading ':'. */
  onComment?(comment: string): void;
  /** A decoding error. Without this callback, feed() throws it instead. */
  onError?(error: SseParseError): void;
}

/** 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16777216;

/** `maxEventBytes`, checked; default 16 MiB. */
export function maxBytes(value = DEFAULT_MAX_EVENT_BYTES): number {
  if (value > 0) return value;
  throw new RangeError(`maxEventBytes must be > 0, got ${value}`);
}

/** Reads one line, `text[start, end)` (no terminator), of `bytes` bytes of UTF-8 as received. */
export type LineReader = (text: string, start: number, end: number, bytes: number) => void;

/**
 * The reader of one stream's lines: builds events and calls `cb` (as
 * methods). Throws the SseParseError of `max`, and whatever a callback
 * throws. `starting()`: no line read yet (a leading U+FEFF is then the BOM,
 * not part of the first line's size); `eventSize()`: the bytes of the
 * event's field lines so far.
 */
export function lineReader(
  cb: SseParserCallbacks,
  max: number,
): [LineReader, starting: () => boolean, eventSize: () => number] {
  /** No line yet: a leading U+FEFF is the BOM. */
  let atStart = true;
  /** The event being built: data (undefined: no data line yet), type, and the size of its field lines. */
  let data: string | undefined;
  let type = "";
  let size = 0;
  let id = "";
  let retry: number | undefined;
  const line: LineReader = (text, start, end, bytes) => {
    if (atStart) {
      atStart = false;
      if (text[start] === "\ufeff") {
        start++;
        bytes -= 3;
      }
    }
    if (start === end) {
      // Blank: dispatch.
      if (data !== undefined) {
        const message: SseMessage = { event: type || "message", data, id };
        if (retry! >= 0) message.retry = retry;
        cb.onMessage(message);
      }
      data = undefined;
      type = "";
      size = 0;
      return;
    }
    // The field name ends at the first colon; a manual scan, as indexOf
    // would search past `end` for lines without one.
    let colon = start;
    while (colon < end && text[colon] !== ":") colon++;
    // A comment is not part of the event, but no line may exceed the limit
    // (an unfinished one could not: see the framings), whatever the chunking.
    if (colon === start) {
      if (bytes > max) throw new SseParseError("line", max, bytes);
      return cb.onComment?.(text.slice(start + 1, end));
    }
    if ((size += bytes) > max) throw new SseParseError("event", max, size);
    // Without a colon (colon === end) this starts past `end`: the value is "".
    const value = text.slice(text[colon + 1] === " " ? colon + 2 : colon + 1, end);
    const field = text.slice(start, colon);
    if (field === "data") data = data === undefined ? value : `${data}\n${value}`;
    else if (field === "event") type = value;
    else if (field === "id") {
      if (!value.includes("\0")) id = value;
    } else if (field === "retry" && /^\d+$/.test(value)) {
      // Saturated at 2^53 - 1, as the Go and Python reference decoders do (no float beyond it).
      retry = Math.min(+value, Number.MAX_SAFE_INTEGER);
      cb.onRetry?.(retry);
    }
  };
  return [line, () => atStart, () => size];
}
