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
 * - Each chunk is cut at its last line terminator (found with native
 *   lastIndexOf): before it are complete lines, which never split a UTF-8
 *   sequence, so they decode on their own.
 * - Those bytes are decoded in one `TextDecoder.decode` call (two where
 *   non-ASCII text is expected: see `block`), without a scan of their own:
 *   no byte sequence decodes to more UTF-16 units than it has bytes, so if
 *   the text is as long as the bytes (ASCII text), so is each line, and its
 *   UTF-8 size (for `maxEventBytes`) is its length. Otherwise it is read
 *   from the bytes, unless the lines cannot reach the limit and end the
 *   event they hold.
 * - The bytes after the last terminator (an unfinished line) are copied (a
 *   push-style caller may reuse its buffer) into a doubling buffer; the next
 *   chunk with a terminator appends its complete lines there and the whole
 *   is decoded as one block. A split multi-byte character or an invalid
 *   sequence thus decodes exactly as in one piece. Every byte is decoded
 *   once and copied about twice (amortised), whatever the chunking or the
 *   length of the line.
 * - Lines are read as ranges of the decoded text: no string per line.
 * - Two decoders: one never called with `{stream: true}` for ASCII text
 *   (Node loses its ASCII fast path for good after one such call), one
 *   streaming for other text (see `ascii`).
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
export const DEFAULT_MAX_EVENT_BYTES = 16777216;

/** `maxEventBytes`, checked; default 16 MiB. */
export function maxBytes(value = DEFAULT_MAX_EVENT_BYTES): number {
  if (value > 0) return value;
  throw new RangeError(`maxEventBytes must be > 0, got ${value}`);
}

/**
 * The core: returns `feed`, for one stream (a new stream gets a new
 * decoder). Callbacks are called as methods of `cb`. `feed` throws the
 * SseParseError of `maxEventBytes`, a TypeError for a chunk that is not
 * bytes, and whatever a callback throws; the decoder is then unusable.
 */
export function decoder(cb: SseParserCallbacks, max: number): (chunk: Uint8Array) => void {
  /**
   * Two decoders: in Node, a non-streaming call is fastest on ASCII (~3 GB/s
   * against ~250 MB/s: any other byte forfeits the fast path for the whole
   * call) and a streaming one on other text (but loses the ASCII fast path
   * for good). Each block goes to the one that suited the last block (see
   * `wide`). Every input ends a line, so the streaming one never holds bytes
   * back.
   */
  const ascii = new TextDecoder("utf-8", { ignoreBOM: true });
  const other = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The last block (its lines up to the last blank line, if split) was not all ASCII. */
  let wide = false;
  /** Bytes of the unfinished line: `buf[0, pending)`. */
  let buf = new Uint8Array();
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

  /** The line `text[start, end)`, `bytes` bytes of UTF-8. */
  const line = (text: string, start: number, end: number, bytes: number): void => {
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
    // (an unfinished one could not: see feed), whatever the chunking.
    if (colon === start) {
      if (bytes > max) throw new SseParseError("line", max, bytes);
      return cb.onComment?.(text.slice(start + 1, end));
    }
    if ((size += bytes) > max) throw new SseParseError("event", max, size);
    // Without a colon (colon === end) this starts past `end`: the value is "".
    const value = text.slice(text[colon + 1] === " " ? colon + 2 : colon + 1, end);
    const field = text.slice(start, colon);
    if (field === "data") data = data === undefined ? value : data + "\n" + value;
    else if (field === "event") type = value;
    else if (field === "id") {
      if (!value.includes("\0")) id = value;
    } else if (field === "retry" && /^\d+$/.test(value)) {
      // Saturated at 2^53 - 1, as the Go and Python reference decoders do (no float beyond it).
      retry = Math.min(+value, Number.MAX_SAFE_INTEGER);
      cb.onRetry?.(retry);
    }
  };

  /**
   * `c`: complete lines, decoded in one call. If the text is as long as
   * the bytes (ASCII), so is each line: its UTF-8 size is its length.
   * Otherwise it is read from the bytes, unless the lines end the event
   * being built and cannot reach the limit: then their lengths (lower
   * bounds) do, as the event's size is reset after them anyway. So where
   * other bytes are expected, the lines up to the last blank line are
   * decoded apart from the rest.
   */
  const block = (c: Uint8Array): void => {
    for (let p = 0, to = c.length, e = to; p < to; p = e, e = to) {
      while (wide && e > p && !(c[e - 1] === 10 && c[e - 2] === 10)) e--;
      if (e === p) e = to;
      let t = (wide ? other : ascii).decode(c.subarray(p, e), { stream: wide });
      // Bytes and units differ: not all ASCII.
      const sized = t.length < e - p;
      // The next block is decoded as suits this one (its main part).
      if (!p) wide = sized;
      const exact = sized && !(c[e - 1] === 10 && c[e - 2] === 10 && size + e - p <= max);
      // CR and CRLF to LF (rare: one search when there is none). A segment
      // never ends between the CR and LF of a CRLF.
      if (t.includes("\r")) t = t.replace(/\r\n?/g, "\n");
      for (let i = 0, j, q = p, b; i < t.length; i = j + 1) {
        j = t.indexOf("\n", i);
        b = j - i;
        if (exact) {
          // The line's bytes, to its terminator.
          for (b = q; c[b] !== 10 && c[b] !== 13; ) b++;
          [b, q] = [b - q, b + (c[b] === 13 && c[b + 1] === 10 ? 2 : 1)];
        }
        line(t, i, j, b);
      }
    }
  };

  /** Appends `c[from, to)` to the unfinished line (a doubling buffer: each byte is copied about twice). */
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

  return (c: Uint8Array): void => {
    if (c?.BYTES_PER_ELEMENT !== 1) throw new TypeError(`SSE parser expects Uint8Array chunks, got a ${typeof c}`);
    const n = c.length;
    let s = +(skipLF && c[0] === 10);
    // A CR ending the chunk may be the first half of a CRLF.
    if (n) skipLF = c[n - 1] === 13;
    // The last LF, or a CR after it (native scans: fast in long lines).
    let l = c.lastIndexOf(10);
    const cr = c.subarray(l + 1).lastIndexOf(13);
    if (cr >= 0) l += cr + 1;
    if (l >= s) {
      // The chunk's complete lines; with an unfinished line, appended to it.
      block(pending ? (keep(c, s, l + 1), buf.subarray(0, pending)) : c.subarray(s, l + 1));
      // Let go of a buffer grown for a very long line.
      if (pending >> 20) buf = new Uint8Array();
      pending = 0;
      s = l + 1;
    }
    if (s < n) {
      keep(c, s, n);
      // A leading BOM is not part of the first line (see `line`).
      const bom = atStart && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
      if (pending - bom > max) throw new SseParseError("line", max, pending - bom);
    }
  };
}

/**
 * Push-style decoder: call feed() with each chunk and end() at the end of
 * the stream. After an error (an SseParseError, or an exception thrown by
 * one of your callbacks) the parser stops: feed() ignores input until end()
 * or reset().
 */
export function createSseParser(callbacks: SseParserCallbacks, options?: { maxEventBytes?: number }): SseParser {
  const max = maxBytes(options?.maxEventBytes);
  let feed: (chunk: Uint8Array) => void;
  const end = (): void => {
    feed = decoder(callbacks, max);
  };
  end();
  return {
    feed(chunk) {
      try {
        feed(chunk);
      } catch (error) {
        feed = () => {};
        if (error instanceof SseParseError && callbacks.onError) callbacks.onError(error);
        else throw error;
      }
    },
    end,
    reset: end,
  };
}
