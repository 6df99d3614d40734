/**
 * The SSE decoder's core: bytes -> lines, fast, for servers (Node, Deno,
 * Bun, edge workers); what each line means is ./fields.ts. A browser build
 * gets ./framing.browser.ts instead (the package's `#sse-framing` import,
 * `browser` condition; scripts/platform-variants.mjs): Node's TextDecoder
 * fast path that this file is built around buys a page nothing, and the
 * simpler framing is smaller. One closure, driven by createSseParser (push
 * style, ./parser.ts) and by the async iterators of iterate.ts; nothing here
 * knows about sources or protocols.
 *
 * Lines end at LF, CR or CRLF (a CR ending a chunk may pair with an LF
 * starting the next). Invalid UTF-8 becomes U+FFFD.
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
import { lineReader, type SseParserCallbacks } from "./fields.js";

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
  const [line, starting, eventSize] = lineReader(cb, max);

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
      const exact = sized && !(c[e - 1] === 10 && c[e - 2] === 10 && eventSize() + e - p <= max);
      // CR and CRLF to LF (rare: one search when there is none). A segment
      // never ends between the CR and LF of a CRLF.
      if (t.includes("\r")) t = t.replace(/\r\n?/g, "\n");
      for (let i = 0, j: number, q = p, b: number; i < t.length; i = j + 1) {
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
      if (pending) {
        keep(c, s, l + 1);
        block(buf.subarray(0, pending));
      } else block(c.subarray(s, l + 1));
      // Let go of a buffer grown for a very long line.
      if (pending >> 20) buf = new Uint8Array();
      pending = 0;
      s = l + 1;
    }
    if (s < n) {
      keep(c, s, n);
      // A leading BOM is not part of the first line (see `line`).
      const bom = starting() && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
      if (pending - bom > max) throw new SseParseError("line", max, pending - bom);
    }
  };
}
