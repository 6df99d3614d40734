/**
 * The SSE decoder's core: bytes -> messages, per the WHATWG HTML event-stream
 * rules (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).
 * One closure, driven by createSseParser (push style) and by the async
 * iterators of iterate.ts; nothing here knows about sources or protocols.
 *
 * Lines: LF, CR or CRLF (a CR ending a chunk may pair with an LF starting the
 * next); a UTF-8 BOM is dropped once, at the start of the stream. Fields:
 * ':' starts a comment; `name:value` with one leading space of the value
 * stripped, a line without a colon is a name with an empty value; `data`
 * appends (joined with LF), `event` sets the type ("message" if empty),
 * `id` sets the last event ID unless it contains U+0000 (it persists across
 * events), `retry` counts only if all ASCII digits; unknown names are
 * ignored. A blank line dispatches the event if it has data lines, and
 * resets the type either way. Invalid UTF-8 becomes U+FFFD.
 *
 * How it stays fast and linear:
 * - Each chunk is cut at its last line terminator: before it are complete
 *   lines, which never split a UTF-8 sequence, so they decode on their own.
 * - Those bytes are scanned for bytes >= 0x80 four at a time. Runs of pure
 *   ASCII lines are decoded with one `TextDecoder.decode` call each (engines
 *   have a fast path for ASCII that any other byte forfeits for the whole
 *   call: several times faster in Node), and each line holding a non-ASCII
 *   byte is decoded alone. Every line's UTF-8 size is then known for free
 *   (for `maxEventBytes`).
 * - The bytes after the last terminator (an unfinished line) are kept as
 *   copies (a push-style caller may reuse its buffer), joined and decoded
 *   once when the line ends: every byte is decoded once and copied at most
 *   twice, whatever the chunking.
 * - Lines are read as ranges of the decoded text: no string per line.
 * - The decoder is never called with `{stream: true}` (Node loses its
 *   ASCII fast path for good after one such call).
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

export interface SseParser {
  /** Decode the next chunk; callbacks run synchronously before it returns. */
  feed(chunk: Uint8Array): void;
  /**
   * End of stream: discards an incomplete event (and an unterminated last
   * line), as the spec requires. The parser is then ready for a new stream
   * (last event ID and retry start afresh).
   */
  end(): void;
  /** Drop all state now (e.g. after an error or an abort) and start afresh. */
  reset(): void;
}

/** 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** `maxEventBytes`, checked; default 16 MiB. */
export function maxBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_EVENT_BYTES;
  if (!(value > 0)) throw new RangeError(`maxEventBytes must be > 0 (or Infinity), got ${value}`);
  return value;
}

/**
 * The core. Callbacks are called as methods of `cb`. `feed` throws the
 * SseParseError of `maxEventBytes`, a TypeError for a chunk that is not
 * bytes, and whatever a callback throws; the caller then calls `reset`.
 */
export function decoder(cb: SseParserCallbacks, max: number): [feed: (chunk: Uint8Array) => void, reset: () => void] {
  const td = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Bytes of the unfinished line: `buf[0, pending)`. */
  let buf = new Uint8Array(0);
  let pending = 0;
  /** The last chunk ended with CR: an LF starting the next one belongs to it. */
  let skipLF = false;
  /** No line yet: a leading U+FEFF is the BOM. */
  let atStart = true;
  /** The event being built: data (undefined: no data line yet), type, and the size of its field lines. */
  let data: string | undefined;
  let type = "";
  let size = 0;
  let id = "";
  let retry: number | undefined;

  const reset = (): void => {
    pending = size = 0;
    skipLF = false;
    atStart = true;
    data = retry = undefined;
    type = id = "";
  };

  /** The line `t[s, e)`, `b` bytes of UTF-8. */
  const line = (t: string, s: number, e: number, b: number): void => {
    if (atStart) {
      atStart = false;
      if (t.charCodeAt(s) === 0xfeff) {
        s++;
        b -= 3;
      }
    }
    if (s === e) {
      // Blank: dispatch.
      size = 0;
      const d = data;
      const event = type || "message";
      data = undefined;
      type = "";
      if (d !== undefined) cb.onMessage(retry === undefined ? { event, data: d, id } : { event, data: d, id, retry });
      return;
    }
    // The field name ends at the first colon; a manual scan, as indexOf
    // would search past `e` for lines without one.
    let c = s;
    while (c < e && t.charCodeAt(c) !== 58) c++;
    if (c === s) {
      cb.onComment?.(t.slice(s + 1, e));
      return;
    }
    if ((size += b) > max) throw new SseParseError("event", max, size);
    // Past `e` when there is no colon: the value is then "".
    const v = t.charCodeAt(c + 1) === 32 ? c + 2 : c + 1;
    const n = c - s;
    if (n === 4 && t.startsWith("data", s)) {
      const x = t.slice(v, e);
      data = data === undefined ? x : data + "\n" + x;
    } else if (n === 5 && t.startsWith("event", s)) {
      type = t.slice(v, e);
    } else if (n === 2 && t.startsWith("id", s)) {
      const x = t.slice(v, e);
      if (!x.includes("\0")) id = x;
    } else if (n === 5 && t.startsWith("retry", s)) {
      const x = t.slice(v, e);
      if (/^\d+$/.test(x)) {
        retry = +x;
        cb.onRetry?.(retry);
      }
    }
  };

  /** Decoded complete lines, pure ASCII: a byte per unit. */
  const lines = (t: string): void => {
    const n = t.length;
    // Next LF and CR, each searched again only once passed (no CR: one search).
    for (let p = 0, lf = -1, cr = -1, e; p < n; p = e + (e === cr && lf === e + 1 ? 2 : 1)) {
      if (lf < p && (lf = t.indexOf("\n", p)) < 0) lf = n;
      if (cr < p && (cr = t.indexOf("\r", p)) < 0) cr = n;
      e = lf < cr ? lf : cr;
      line(t, p, e, e - p);
    }
  };

  /** `c[p, to)`: complete lines, ending with a terminator. */
  const block = (c: Uint8Array, p: number, to: number): void => {
    while (p < to) {
      const h = nonAscii(c, p, to);
      if (h === to) return lines(td.decode(c.subarray(p, to)));
      // The line holding byte h: decoded alone, the ASCII lines before it together.
      let s = h;
      let e = h;
      while (s > p && c[s - 1] !== 10 && c[s - 1] !== 13) s--;
      while (c[e] !== 10 && c[e] !== 13) e++;
      if (s > p) lines(td.decode(c.subarray(p, s)));
      const t = td.decode(c.subarray(s, e));
      line(t, 0, t.length, e - s);
      p = e + (c[e] === 13 && c[e + 1] === 10 ? 2 : 1);
    }
  };

  /** Appends `c[from, to)` to the unfinished line (a doubling buffer: amortised, each byte is copied about twice). */
  const keep = (c: Uint8Array, from: number, to: number): void => {
    const n = pending + to - from;
    if (n > buf.length) {
      const b = new Uint8Array(2 * n);
      b.set(buf.subarray(0, pending));
      buf = b;
    }
    buf.set(c.subarray(from, to), pending);
    pending = n;
  };

  const feed = (c: Uint8Array): void => {
    if (!ArrayBuffer.isView(c) || (c as Uint8Array).BYTES_PER_ELEMENT !== 1) {
      throw new TypeError(`SSE parser expects Uint8Array chunks, got ${typeof c === "string" ? "a string" : typeof c}: pass the raw body`);
    }
    const n = c.length;
    let s = 0;
    if (skipLF && n) {
      skipLF = false;
      if (c[0] === 10) s = 1;
    }
    let l = n;
    while (--l >= s && c[l] !== 10 && c[l] !== 13);
    if (l >= s) {
      if (pending) {
        // The chunk ends the unfinished line: decode it whole, once.
        let f = s;
        while (c[f] !== 10 && c[f] !== 13) f++;
        keep(c, s, f);
        const t = td.decode(buf.subarray(0, pending));
        line(t, 0, t.length, pending);
        // Let go of a buffer grown for a very long line.
        if (pending > 65536) buf = new Uint8Array(0);
        pending = 0;
        s = f + (c[f] === 13 && c[f + 1] === 10 ? 2 : 1);
      }
      if (s <= l) block(c, s, l + 1);
      // A CR ending the chunk may be the first half of a CRLF.
      skipLF = c[l] === 13 && l === n - 1;
      s = l + 1;
    }
    if (s < n) {
      keep(c, s, n);
      if (pending > max) throw new SseParseError("line", max, pending);
    }
  };

  return [feed, reset];
}

/** Index of the first byte >= 0x80 in `c[p, to)`, or `to`: four bytes at a time where aligned. */
function nonAscii(c: Uint8Array, p: number, to: number): number {
  for (; p < to && (c.byteOffset + p) & 3; p++) if (c[p]! > 127) return p;
  if (to - p > 7) {
    const w = new Uint32Array(c.buffer, c.byteOffset + p, (to - p) >> 2);
    let i = 0;
    while (i < w.length && !(w[i]! & 0x80808080)) i++;
    p += i << 2;
  }
  for (; p < to; p++) if (c[p]! > 127) return p;
  return to;
}

/**
 * Push-style decoder: call feed() with each chunk and end() at the end of
 * the stream. After an error (an SseParseError, or an exception thrown by
 * one of your callbacks) the parser stops: feed() ignores input until end()
 * or reset().
 */
export function createSseParser(callbacks: SseParserCallbacks, options?: { maxEventBytes?: number }): SseParser {
  const [feed, reset] = decoder(callbacks, maxBytes(options?.maxEventBytes));
  let stopped = false;
  const end = (): void => {
    reset();
    stopped = false;
  };
  return {
    feed(chunk) {
      if (stopped) return;
      try {
        feed(chunk);
      } catch (error) {
        stopped = true;
        reset();
        if (error instanceof SseParseError && callbacks.onError) callbacks.onError(error);
        else throw error;
      }
    },
    end,
    reset: end,
  };
}
