/**
 * The project's SSE decoder (runtime/sse) against the audit's own reading of
 * the WHATWG rules (./sse-reference.ts) on seeded random streams built from
 * the rules' corner cases (CR / LF / CRLF, a BOM at the start and later,
 * `id:` with NUL, `retry:` valid and not, comments, fields without a colon,
 * data-only frames, empty data lines, unknown fields, non-ASCII and broken
 * UTF-8), each cut into chunks at random offsets (inside UTF-8 sequences and
 * between CR and LF included).
 */
import { describe, expect, it } from "vitest";
import { createSseParser } from "../../runtime/sse/index.js";
import { interpretEventStream, type ReferenceEvent } from "./sse-reference.js";

/** A small seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EOLS = ["\n", "\r", "\r\n"];
const PIECES = [
  "data",
  "data:",
  "data: x",
  "data:  two spaces",
  "data: é😀",
  "data: \uFEFFin",
  "event: delta",
  "event:",
  "event",
  "id: 7",
  "id:",
  "id: 1\0x",
  "id",
  "retry: 250",
  "retry: 25x",
  "retry:",
  "retry",
  ": comment",
  ":",
  "unknown: y",
  "DATA: upper",
  " data: leading space",
  "data:a:b",
];

function stream(next: () => number): Uint8Array {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const parts: Uint8Array[] = [];
  const text = (s: string) => parts.push(new TextEncoder().encode(s));
  if (next() < 0.3) text("\uFEFF");
  const lines = 1 + Math.floor(next() * 30);
  for (let i = 0; i < lines; i++) {
    const r = next();
    if (r < 0.25)
      text(pick(EOLS)); // a blank line: dispatch
    else if (r < 0.3)
      parts.push(Uint8Array.of(0x64, 0x61, 0x74, 0x61, 0x3a, 0xe2, 0x82)); // data: + a truncated UTF-8 sequence
    else if (r < 0.33) parts.push(Uint8Array.of(0xff, 0xfe));
    if (r >= 0.25) text(pick(PIECES) + pick(EOLS));
  }
  if (next() < 0.5) text(pick(EOLS));
  const size = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

function decode(bytes: Uint8Array, next: () => number): { events: ReferenceEvent[]; retries: number[] } {
  const events: ReferenceEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser({
    onMessage: (m) => void events.push({ event: m.event, data: m.data, id: m.id }),
    onRetry: (ms: number) => void retries.push(ms),
  });
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(next() * (next() < 0.5 ? 3 : 40));
    parser.feed(bytes.subarray(i, i + n));
    i += n;
  }
  return { events, retries };
}

describe("the SSE decoder agrees with a plain reading of the WHATWG rules", () => {
  it("on 3,000 seeded random streams, each in random chunks", () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const bytes = stream(next);
      const expected = interpretEventStream(bytes);
      const got = decode(bytes, next);
      if (JSON.stringify(got) !== JSON.stringify(expected))
        expect({ seed, input: JSON.stringify(new TextDecoder().decode(bytes)), got }).toEqual({
          seed,
          input: JSON.stringify(new TextDecoder().decode(bytes)),
          got: expected,
        });
    }
  });
});
