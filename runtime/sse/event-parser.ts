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
 *
 * Size limit: the UTF-8 bytes of the event's field lines (comments, blank
 * lines and terminators not counted) may not exceed maxEventBytes. Line
 * sizes are free for ASCII text; for other text, counting costs a pass per
 * character, so data values (the bulk) are counted lazily: their UTF-16
 * length bounds their size (units <= bytes <= 3 * units), and only once
 * that bound could exceed the limit are the buffered values measured, after
 * which the event is counted exactly line by line.
 */
import { SseParseError } from "./errors.js";
import { type LineSink, utf8Length } from "./line-splitter.js";

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
const CHAR_v = 0x76;
const CHAR_n = 0x6e;
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
  /** UTF-8 size of `lastType`. */
  private lastTypeBytes = 0;
  private lastEventId = "";
  private retry: number | undefined = undefined;
  // Size of the event being built = fixedBytes + dataValueBytes + (between
  // dataValueUnits and 3 * dataValueUnits).
  /** Exact bytes of non-data lines and of data lines' "data:" prefixes. */
  private fixedBytes = 0;
  /** Exact bytes of data values counted so far. */
  private dataValueBytes = 0;
  /** UTF-16 length of data values not counted in bytes yet. */
  private dataValueUnits = 0;
  /** The bound got near the limit: count every line exactly until dispatch. */
  private exact = false;

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
    this.clearSize();
  }

  private clearSize(): void {
    this.fixedBytes = 0;
    this.dataValueBytes = 0;
    this.dataValueUnits = 0;
    this.exact = false;
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
          // The "data:" prefix is ASCII: its units are its bytes.
          this.fixedBytes += valueStart - start;
          if (byteLength >= 0) this.dataValueBytes += byteLength - (valueStart - start);
          else if (this.exact) this.dataValueBytes += utf8Length(text, valueStart, end);
          else this.dataValueUnits += end - valueStart;
          const value = text.slice(valueStart, end);
          this.data = this.dataLines === 0 ? value : this.data + "\n" + value;
          this.dataLines++;
          this.checkSize();
          return;
        }
        break;
      case 5: // event, retry
        if (
          c0 === CHAR_e &&
          text.charCodeAt(start + 1) === CHAR_v &&
          text.charCodeAt(start + 2) === CHAR_e &&
          text.charCodeAt(start + 3) === CHAR_n &&
          text.charCodeAt(start + 4) === CHAR_t
        ) {
          const prev = this.lastType;
          if (prev.length === end - valueStart && text.startsWith(prev, valueStart)) {
            this.eventType = prev;
            this.fixedBytes += byteLength >= 0 ? byteLength : valueStart - start + this.lastTypeBytes;
          } else {
            this.eventType = this.lastType = text.slice(valueStart, end);
            this.lastTypeBytes = byteLength >= 0 ? byteLength - (valueStart - start) : utf8Length(text, valueStart, end);
            this.fixedBytes += valueStart - start + this.lastTypeBytes;
          }
          this.checkSize();
          return;
        }
        if (c0 === CHAR_r && text.startsWith("retry", start)) {
          this.countLine(text, start, end, byteLength);
          this.setRetry(text, valueStart, end);
          return;
        }
        break;
      case 2: // id
        if (c0 === CHAR_i && text.charCodeAt(start + 1) === CHAR_d) {
          this.countLine(text, start, end, byteLength);
          const id = text.slice(valueStart, end);
          if (id.indexOf("\u0000") === -1) this.lastEventId = id;
          return;
        }
        break;
    }
    // Unknown field: ignored, but its bytes count toward the event.
    this.countLine(text, start, end, byteLength);
  }

  private countLine(text: string, start: number, end: number, byteLength: number): void {
    this.fixedBytes += byteLength >= 0 ? byteLength : utf8Length(text, start, end);
    this.checkSize();
  }

  private checkSize(): void {
    const max = this.maxEventBytes;
    if (this.fixedBytes + this.dataValueBytes + 3 * this.dataValueUnits <= max) return;
    if (this.dataValueUnits !== 0) {
      // The bound is no longer enough: measure the buffered data values once
      // (joined by one-byte LFs), then count exactly from here on.
      this.dataValueBytes = utf8Length(this.data, 0, this.data.length) - (this.dataLines - 1);
      this.dataValueUnits = 0;
      this.exact = true;
    }
    const size = this.fixedBytes + this.dataValueBytes;
    if (size > max) {
      this.reset();
      throw new SseParseError("max-event-bytes-exceeded", "event", max, size);
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
    this.clearSize();
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
