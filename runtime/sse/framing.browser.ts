/**
 * ./framing.ts as a browser build gets it (the package's `#sse-framing`
 * import, `browser` condition; scripts/platform-variants.mjs): bytes ->
 * lines through one streaming TextDecoder and a split of its text. The
 * server framing's machinery (two decoders, byte ranges, a doubling buffer)
 * is built around a property of Node's TextDecoder and buys a page nothing;
 * this one is about 0.2 kB smaller gzipped. What each line means is
 * ./fields.ts, shared by both, and every decoder test runs on both
 * (test/sse/framings.ts).
 *
 * The one difference: in a complete line, an invalid UTF-8 sequence counts
 * toward `maxEventBytes` as the U+FFFDs it decodes to (3 bytes each), where the
 * server framing counts the bytes received; valid UTF-8 counts the same in
 * both, and an unfinished line counts its bytes as received in both.
 * Linear: each chunk is decoded and split once, and the pieces of an
 * unfinished line are joined once, when it ends.
 */
import { SseParseError } from "./errors.js";
import { lineReader, type SseParserCallbacks } from "./fields.js";

/** UTF-8 size of decoded text (which holds no unpaired surrogate: each of a pair is 2 bytes). */
const utf8 = (text: string): number => {
  let n = text.length;
  for (let i = 0; i < n; i++) {
    const u = text.charCodeAt(i);
    if (u > 0x7f) n += u < 0x800 || u >> 11 == 0x1b ? 1 : 2;
  }
  return n;
};

/** As ./framing.ts `decoder`. */
export function decoder(cb: SseParserCallbacks, max: number): (chunk: Uint8Array) => void {
  // The BOM is left to the line reader, which drops it once (TextDecoder would too, but the line reader must not then drop a second one).
  const utf = new TextDecoder("utf-8", { ignoreBOM: true });
  const [line, starting] = lineReader(cb, max);
  /** The unfinished line: its text in pieces, and its bytes (as received: a character split across chunks counts already). */
  let pending: string[] = [];
  let held = 0;
  /** The text so far ended with CR: an LF starting the next text belongs to it. */
  let skipLF = false;
  return (c: Uint8Array): void => {
    if (c?.BYTES_PER_ELEMENT !== 1) throw new TypeError(`SSE parser expects Uint8Array chunks, got a ${typeof c}`);
    const last = Math.max(c.lastIndexOf(10), c.lastIndexOf(13));
    held = last < 0 ? held + c.length : c.length - last - 1;
    let text = utf.decode(c, { stream: true });
    // (No text: the chunk's bytes are the start of a character, held by the decoder.)
    if (text) {
      if (skipLF && text[0] == "\n") text = text.slice(1);
      skipLF = text[text.length - 1] == "\r";
      const lines = text.split(/\r\n?|\n/);
      const rest = lines.pop()!;
      if (lines.length) {
        pending.push(lines[0]!);
        lines[0] = pending.join("");
        pending = [];
        for (const l of lines) line(l, 0, l.length, utf8(l));
      }
      if (rest) pending.push(rest);
    }
    // A leading BOM is not part of the first line (see ./fields.ts).
    const bytes = held - (starting() && pending[0]?.[0] == "\ufeff" ? 3 : 0);
    if (bytes > max) throw new SseParseError("line", max, bytes);
  };
}
