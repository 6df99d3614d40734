/**
 * Bytes -> lines for a `text/event-stream` body (no knowledge of SSE fields).
 *
 * Handles the three line terminators (LF, CR, CRLF), a CRLF split across two
 * chunks, UTF-8 decoding (invalid bytes become U+FFFD, a character split
 * across chunks decodes intact) and a UTF-8 BOM at the very start of the
 * stream only.
 *
 * How it stays fast and linear:
 * - Each chunk is cut at its *last* terminator byte. Everything before that is
 *   a block of complete lines, decoded with ONE `TextDecoder.decode` call. LF
 *   and CR are ASCII, so they never sit inside a UTF-8 sequence: a block that
 *   ends on a terminator decodes exactly as the whole stream would, and no
 *   decoder state is carried from one block to the next. (Every decode input
 *   ends on a terminator byte, which is what makes that true.)
 * - Two decoders, picked by whether the previous block was pure ASCII: Node
 *   has a one-shot path that is several times faster for ASCII but about half
 *   as fast as its streaming decoder for other text, and loses it for good on
 *   a decoder's first `{stream: true}` call. Elsewhere both are the same
 *   standard decoder, so the choice is harmless.
 * - The bytes after the last terminator (the start of the next line) are kept
 *   as bytes, not decoded: a small reusable scratch buffer for ordinary lines,
 *   and for a very long line a list of byte chunks that is joined and decoded
 *   once when the line ends. Nothing is re-scanned or re-copied per chunk, so
 *   cost is linear in the input whatever the chunking.
 * - Lines are handed to the sink as (text, start, end) ranges of the decoded
 *   block, so the common path allocates no string per line.
 */
import { SseParseError } from "./errors.js";

/** Receives complete lines, in order. */
export interface LineSink {
  /**
   * One complete line without its terminator: `text.slice(start, end)`.
   * `byteLength` is its size in bytes when known for free (the line came
   * from a pure-ASCII block, or was assembled from buffered bytes), else -1:
   * then `utf8Length(text, start, end)` gives it, at a per-character cost the
   * sink can choose to avoid.
   */
  line(text: string, start: number, end: number, byteLength: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = 0xfeff;
/** Initial size of the buffer holding the unterminated tail of a chunk. */
const SCRATCH_INITIAL = 1024;
/** The scratch buffer doubles up to this; longer lines become a list of byte chunks. */
const SCRATCH_MAX = 64 * 1024;
/** Below this, a byte loop beats `set(subarray())` (which allocates a view). */
const SMALL_COPY = 24;
const STREAM = { stream: true } as const;
/** Blocks shorter than this do not change which decoder is used next. */
const PREDICT_MIN_BYTES = 512;

export class LineSplitter {
  private readonly sink: LineSink;
  private readonly maxLineBytes: number;
  /** Never called with `{stream: true}` (keeps Node's fast ASCII path). */
  private readonly oneShotDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Always called with `{stream: true}`; each input ends on a terminator, so it never holds bytes back. */
  private readonly streamingDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private lastBlockAscii = true;
  /** Bytes of the unterminated line: `parts` (oldest first) then `scratch[0, scratchLen)`. */
  private scratch = new Uint8Array(SCRATCH_INITIAL);
  private scratchLen = 0;
  private parts: Uint8Array[] = [];
  private pendingBytes = 0;
  /** The previous chunk ended with CR: a leading LF of the next chunk completes that CRLF. */
  private skipLF = false;
  /** Nothing decoded yet: a leading U+FEFF is the BOM and is dropped. */
  private atStart = true;

  /** Work counters, for tests that check linearity structurally (never on time). */
  readonly stats = { decodeCalls: 0, decodedBytes: 0, copiedBytes: 0 };

  /**
   * @param maxLineBytes an unterminated line longer than this throws a
   *   SseParseError ("max-event-bytes-exceeded"), bounding memory when a peer
   *   never sends a newline.
   */
  constructor(sink: LineSink, maxLineBytes: number) {
    this.sink = sink;
    this.maxLineBytes = maxLineBytes;
  }

  /** Feed the next chunk of the body. Only byte chunks: a string is rejected with a TypeError. */
  push(chunk: Uint8Array): void {
    if (!(chunk instanceof Uint8Array) && !isByteView(chunk)) throw notBytes(chunk);
    const len = chunk.length;
    let start = 0;
    if (this.skipLF) {
      if (len === 0) return;
      this.skipLF = false;
      if (chunk[0] === LF) start = 1;
    }
    const last = lastTerminator(chunk, start);
    if (last < start) {
      if (len > start) this.appendPending(chunk, start, len);
      return;
    }
    if (this.pendingBytes !== 0) start = this.completePending(chunk, start, last);
    if (start <= last) this.splitBlock(chunk, start, last + 1);
    if (last === len - 1) {
      // A CR as the chunk's last byte may be the first half of a CRLF.
      if (chunk[last] === CR) this.skipLF = true;
    } else {
      this.appendPending(chunk, last + 1, len);
    }
  }

  /**
   * End of stream or reconnection: drop the unterminated line (the stream
   * ended mid-line, so it is not a line) and start again as at a new stream.
   */
  reset(): void {
    this.scratchLen = 0;
    this.parts = [];
    this.pendingBytes = 0;
    this.skipLF = false;
    this.atStart = true;
  }

  /** Decode bytes that end with a line terminator. */
  private decode(bytes: Uint8Array): string {
    const stats = this.stats;
    stats.decodeCalls++;
    stats.decodedBytes += bytes.length;
    const text = this.lastBlockAscii
      ? this.oneShotDecoder.decode(bytes)
      : this.streamingDecoder.decode(bytes, STREAM);
    // Streams are mostly all-ASCII or mostly not: predict the next block from
    // this one, judging by sizeable blocks only (the short line spanning two
    // chunks is often ASCII when the rest of the chunk is not).
    if (bytes.length >= PREDICT_MIN_BYTES) this.lastBlockAscii = text.length === bytes.length;
    return text;
  }

  /** Decode `chunk[from, to)`, a run of complete lines ending with a terminator, and emit them. */
  private splitBlock(chunk: Uint8Array, from: number, to: number): void {
    const text = this.decode(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to));
    let pos = 0;
    let bytes = to - from;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BOM) {
        pos = 1;
        bytes -= 3;
      }
    }
    const n = text.length;
    // Every UTF-16 unit came from exactly one byte (ASCII, or one invalid byte
    // -> U+FFFD): line byte lengths are then just range lengths. Otherwise
    // they are left to the sink (-1): counting them costs a pass per character.
    const ascii = n - pos === bytes;
    const sink = this.sink;
    // Next LF / CR positions, each searched again only once passed, so a block
    // without CRs costs one failed CR search, not one per line. n = none left.
    let lf = text.indexOf("\n", pos);
    if (lf < 0) lf = n;
    let cr = text.indexOf("\r", pos);
    if (cr < 0) cr = n;
    while (pos < n) {
      let end: number;
      let next: number;
      if (lf < cr) {
        end = lf;
        next = lf + 1;
        lf = text.indexOf("\n", next);
        if (lf < 0) lf = n;
      } else {
        end = cr;
        next = cr + 1;
        if (next === lf) {
          next++;
          lf = text.indexOf("\n", next);
          if (lf < 0) lf = n;
        }
        cr = text.indexOf("\r", next);
        if (cr < 0) cr = n;
      }
      sink.line(text, pos, end, ascii ? end - pos : -1);
      pos = next;
    }
  }

  /**
   * The chunk holds the end of the pending line: decode pending bytes plus the
   * chunk's bytes up to its first terminator as one line. Returns the index
   * just past that terminator.
   */
  private completePending(chunk: Uint8Array, start: number, last: number): number {
    const first = firstTerminator(chunk, start, last);
    // Decode through the terminator byte (see decode()); the line excludes it.
    const n = first + 1 - start;
    const total = this.pendingBytes + n;
    let bytes: Uint8Array;
    if (this.parts.length === 0 && this.scratchLen + n <= this.scratch.length) {
      copyInto(this.scratch, this.scratchLen, chunk, start, first + 1);
      bytes = this.scratch.subarray(0, total);
    } else {
      // A long line: join its byte chunks once, then decode once.
      bytes = new Uint8Array(total);
      let off = 0;
      for (const part of this.parts) {
        bytes.set(part, off);
        off += part.length;
      }
      if (this.scratchLen > 0) bytes.set(this.scratch.subarray(0, this.scratchLen), off);
      off += this.scratchLen;
      bytes.set(chunk.subarray(start, first + 1), off);
      this.parts = [];
    }
    this.stats.copiedBytes += total;
    this.scratchLen = 0;
    this.pendingBytes = 0;
    const text = this.decode(bytes);
    let from = 0;
    let size = total - 1;
    if (this.atStart) {
      this.atStart = false;
      if (text.charCodeAt(0) === BOM) {
        from = 1;
        size -= 3;
      }
    }
    this.sink.line(text, from, text.length - 1, size);
    let next = first + 1;
    if (chunk[first] === CR && chunk[next] === LF) next++;
    return next;
  }

  /** Keep `chunk[from, to)`, the start of a line whose terminator has not arrived. */
  private appendPending(chunk: Uint8Array, from: number, to: number): void {
    const n = to - from;
    const size = this.pendingBytes + n;
    if (size > this.maxLineBytes) {
      this.reset();
      throw new SseParseError("max-event-bytes-exceeded", "line", this.maxLineBytes, size);
    }
    this.pendingBytes = size;
    this.stats.copiedBytes += n;
    if (this.scratchLen + n > this.scratch.length) {
      const needed = this.scratchLen + n;
      if (this.parts.length === 0 && needed <= SCRATCH_MAX) {
        let cap = this.scratch.length * 2;
        while (cap < needed) cap *= 2;
        const grown = new Uint8Array(Math.min(cap, SCRATCH_MAX));
        grown.set(this.scratch.subarray(0, this.scratchLen));
        this.stats.copiedBytes += this.scratchLen;
        this.scratch = grown;
      } else {
        // Long line: keep byte chunks (no doubling buffer, no string joins per
        // chunk); they are joined and decoded once when the line ends.
        if (this.scratchLen > 0) {
          this.parts.push(this.scratch.slice(0, this.scratchLen));
          this.stats.copiedBytes += this.scratchLen;
          this.scratchLen = 0;
        }
        if (n > this.scratch.length) {
          // Copied: a push-style caller may reuse its buffer after feed().
          this.parts.push(chunk.slice(from, to));
          return;
        }
      }
    }
    copyInto(this.scratch, this.scratchLen, chunk, from, to);
    this.scratchLen += n;
  }
}

/** How far back to look byte by byte before handing over to native searches. */
const SHORT_SCAN = 64;

/** Index of the last LF or CR in `chunk[start..]`, or start - 1. */
function lastTerminator(chunk: Uint8Array, start: number): number {
  // Lines are usually short, so the last terminator is usually a few bytes
  // from the end: look there first, byte by byte.
  let i = chunk.length - 1;
  const stop = Math.max(start, i - SHORT_SCAN);
  for (; i >= stop; i--) {
    const b = chunk[i];
    if (b === LF || b === CR) return i;
  }
  if (i < start) return i;
  // Inside a long line: two native scans beat a byte loop by about 2x.
  const lf = chunk.lastIndexOf(LF, i);
  const cr = chunk.lastIndexOf(CR, i);
  const found = lf > cr ? lf : cr;
  return found < start ? start - 1 : found;
}

/** Index of the first LF or CR in `chunk[start..last]`; `chunk[last]` is one. */
function firstTerminator(chunk: Uint8Array, start: number, last: number): number {
  const stop = Math.min(last, start + SHORT_SCAN);
  let i = start;
  for (; i < stop; i++) {
    const b = chunk[i];
    if (b === LF || b === CR) return i;
  }
  if (i === last) return last;
  const lf = chunk.indexOf(LF, i);
  const cr = chunk.indexOf(CR, i);
  // At least one is found, at or before `last`.
  if (lf < 0) return cr;
  if (cr < 0) return lf;
  return lf < cr ? lf : cr;
}

function copyInto(dst: Uint8Array, at: number, src: Uint8Array, from: number, to: number): void {
  if (to - from <= SMALL_COPY) {
    for (let i = from; i < to; i++) dst[at++] = src[i]!;
  } else {
    dst.set(src.subarray(from, to), at);
  }
}

/** UTF-8 size of `s[start, end)` (a TextDecoder result: no lone surrogates). */
export function utf8Length(s: string, start: number, end: number): number {
  let bytes = end - start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      // 2-byte: +1; 3-byte: +2; a surrogate pair is 4 bytes for 2 units: +1 each.
      if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff)) bytes += 1;
      else bytes += 2;
    }
  }
  return bytes;
}

/** A byte view from another realm (iframe, vm context) fails `instanceof`. */
function isByteView(chunk: unknown): boolean {
  return ArrayBuffer.isView(chunk) && (chunk as Partial<Uint8Array>).BYTES_PER_ELEMENT === 1;
}

function notBytes(chunk: unknown): TypeError {
  const got = typeof chunk === "string" ? "a string" : Object.prototype.toString.call(chunk);
  return new TypeError(
    `SSE parser expects Uint8Array chunks, got ${got}. Pass the raw byte stream ` +
      `(e.g. response.body), not a decoded text stream.`,
  );
}
