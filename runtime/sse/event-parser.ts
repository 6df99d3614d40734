/**
 * Lines -> messages, per the WHATWG HTML "Interpreting an event stream" rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 *
 * Knows nothing about bytes or transports: it receives complete lines from a
 * LineSplitter and reports messages, retry values and comments through
 * callbacks. Rules implemented (and only these):
 * - a blank line dispatches; an event whose data buffer is empty is not
 *   dispatched, but its event type is still reset;
 * - a line starting with ':' is a comment;
 * - `name:value` with one leading space of the value stripped; a line with no
 *   colon is a field name with an empty value;
 * - `data` appends value + LF (the final LF is dropped at dispatch),
 *   `event` sets the type (default "message"), `id` sets the last event ID
 *   unless the value contains U+0000 (empty resets it to ""), and the ID
 *   persists across events; `retry` counts only if ASCII digits only; other
 *   field names are ignored.
 * The stream-level state (last event ID, reconnection time) persists until
 * reset(); the end of the stream is reset() too, which is what discards an
 * incomplete final event.
 */
import { SseParseError } from "./errors.js";
import type { LineSink } from "./line-splitter.js";

/** One dispatched event. */
export interface SseMessage {
  /** The `event` field, or "message" when the event had none (or an empty one). */
  event: string;
  /** The `data` lines joined with "\n". */
  data: string;
  /** The last event ID at dispatch time: persists across events, "" if none yet. */
  id: string;
  /**
   * The stream's reconnection time in ms: present once any valid `retry`
   * field has been seen in this stream (a stream-level setting, like `id`).
   */
  retry?: number;
}

export interface EventParserCallbacks {
  onMessage(message: SseMessage): void;
  /** Every valid `retry` field, even when no message is dispatched. */
  onRetry?: ((ms: number) => void) | undefined;
  /** Every comment line, without the leading ':'. */
  onComment?: ((comment: string) => void) | undefined;
}

const COLON = 0x3a;
const SPACE = 0x20;
const CHAR_d = 0x64;
const CHAR_a = 0x61;
const CHAR_t = 0x74;
const CHAR_e = 0x65;
const CHAR_i = 0x69;
const CHAR_r = 0x72;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

export class EventParser implements LineSink {
  private readonly callbacks: EventParserCallbacks;
  private readonly maxEventBytes: number;
  /** Data lines joined with "\n" (the spec's buffer minus its trailing LF). */
  private data = "";
  private dataLines = 0;
  private eventType = "";
  /** Last distinct event type seen: reused when the next one is equal, so the hot path allocates no type string. */
  private lastType = "";
  private lastEventId = "";
  private retry: number | undefined = undefined;
  /** UTF-8 bytes of the field lines of the event being built. */
  private eventBytes = 0;

  constructor(callbacks: EventParserCallbacks, maxEventBytes: number) {
    this.callbacks = callbacks;
    this.maxEventBytes = maxEventBytes;
  }

  /** Forget everything, as at the start of a new stream (an incomplete event is discarded). */
  reset(): void {
    this.data = "";
    this.dataLines = 0;
    this.eventType = "";
    this.lastEventId = "";
    this.retry = undefined;
    this.eventBytes = 0;
  }

  line(text: string, start: number, end: number, byteLength: number): void {
    if (start === end) {
      this.dispatch();
      return;
    }
    const c0 = text.charCodeAt(start);
    if (c0 === COLON) {
      if (this.callbacks.onComment !== undefined) this.callbacks.onComment(text.slice(start + 1, end));
      return;
    }
    const size = this.eventBytes + byteLength;
    this.eventBytes = size;
    if (size > this.maxEventBytes) {
      this.reset();
      throw new SseParseError("max-event-bytes-exceeded", "event", this.maxEventBytes, size);
    }
    // Field name: up to the first colon, or the whole line. A manual scan, as
    // indexOf would run past `end` into the rest of the block.
    let colon = start + 1;
    while (colon < end && text.charCodeAt(colon) !== COLON) colon++;
    let valueStart = end;
    if (colon < end) {
      valueStart = colon + 1;
      if (valueStart < end && text.charCodeAt(valueStart) === SPACE) valueStart++;
    }
    switch (colon - start) {
      case 4: // data
        if (
          c0 === CHAR_d &&
          text.charCodeAt(start + 1) === CHAR_a &&
          text.charCodeAt(start + 2) === CHAR_t &&
          text.charCodeAt(start + 3) === CHAR_a
        ) {
          const value = text.slice(valueStart, end);
          this.data = this.dataLines === 0 ? value : this.data + "\n" + value;
          this.dataLines++;
        }
        return;
      case 5: // event, retry
        if (c0 === CHAR_e && text.startsWith("event", start)) {
          const prev = this.lastType;
          if (prev.length === end - valueStart && text.startsWith(prev, valueStart)) {
            this.eventType = prev;
          } else {
            this.eventType = this.lastType = text.slice(valueStart, end);
          }
        } else if (c0 === CHAR_r && text.startsWith("retry", start)) {
          this.setRetry(text, valueStart, end);
        }
        return;
      case 2: // id
        if (c0 === CHAR_i && text.charCodeAt(start + 1) === CHAR_d) {
          const id = text.slice(valueStart, end);
          if (id.indexOf("\u0000") === -1) this.lastEventId = id;
        }
        return;
      default: // unknown field: ignored
        return;
    }
  }

  private setRetry(text: string, start: number, end: number): void {
    if (start === end) return; // empty is not a number
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < DIGIT_0 || c > DIGIT_9) return;
    }
    const ms = Number(text.slice(start, end));
    this.retry = ms;
    if (this.callbacks.onRetry !== undefined) this.callbacks.onRetry(ms);
  }

  private dispatch(): void {
    this.eventBytes = 0;
    if (this.dataLines === 0) {
      this.eventType = "";
      return;
    }
    const event = this.eventType === "" ? "message" : this.eventType;
    const retry = this.retry;
    const message: SseMessage =
      retry === undefined
        ? { event, data: this.data, id: this.lastEventId }
        : { event, data: this.data, id: this.lastEventId, retry };
    this.data = "";
    this.dataLines = 0;
    this.eventType = "";
    this.callbacks.onMessage(message);
  }
}
