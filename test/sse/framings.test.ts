/**
 * The two framings of the SSE decoder (runtime/sse/framing.ts for servers,
 * framing.browser.ts for browser builds) against each other: the same
 * messages, retries, comments and `maxEventBytes` errors for any valid
 * UTF-8 stream under any chunking, with limits near the sizes the streams
 * reach; and their one documented difference on invalid UTF-8. (Every other
 * decoder test runs on both: vitest.config.ts, project `browser-variants`.)
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseParseError } from "../../runtime/sse/errors.js";
import type { SseParserCallbacks } from "../../runtime/sse/fields.js";
import { decoder as serverFraming } from "../../runtime/sse/framing.js";
import { decoder as browserFraming } from "../../runtime/sse/framing.browser.js";
import { splitAt, toBytes } from "./helpers.js";

type Framing = typeof serverFraming;

/** Everything one framing did with the chunks: what it reported, in order, and how it stopped. */
function run(framing: Framing, chunks: readonly Uint8Array[], max: number): unknown[] {
  const seen: unknown[] = [];
  const cb: SseParserCallbacks = {
    onMessage: (m) => seen.push(["message", m]),
    onRetry: (ms) => seen.push(["retry", ms]),
    onComment: (c) => seen.push(["comment", c]),
  };
  const feed = framing(cb, max);
  try {
    for (const chunk of chunks) feed(chunk);
  } catch (error) {
    seen.push(error instanceof SseParseError ? ["error", error.buffer, error.size] : ["thrown", String(error)]);
  }
  return seen;
}

const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.constantFrom("", "é", "😀", "\uFEFF", "ü".repeat(40), "a:b", " x"),
);
const line = fc.oneof(
  fc
    .tuple(fc.constantFrom("data", "data", "event", "id", "retry", "x", ""), fc.constantFrom(":", ": ", ""), text)
    .map(([n, s, v]) => n + s + v),
  fc.constant(""),
  text.map((v) => `:${v}`),
  fc.stringMatching(/^retry: ?[0-9]{1,4}$/),
);
const stream = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, fc.constantFrom("\n", "\r", "\r\n")), { maxLength: 30 }))
  .map(([bom, lines]) => toBytes((bom ? "\uFEFF" : "") + lines.map(([l, t]) => l + t).join("")));

/** `bytes` cut at the points `cuts` (taken modulo its length + 1, each once, in order). */
const cut = (bytes: Uint8Array, cuts: number[]): Uint8Array[] =>
  splitAt(bytes, ...[...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b));

describe("the server and browser framings", () => {
  it("agree on every valid UTF-8 stream, chunking and limit", () => {
    fc.assert(
      fc.property(
        stream,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 200 }),
        (bytes, cuts, max) => {
          const chunks = cut(bytes, cuts);
          expect(run(browserFraming, chunks, max)).toEqual(run(serverFraming, chunks, max));
        },
      ),
      { numRuns: 3000, seed: 2026_12_01 },
    );
  });

  it("agree byte by byte", () => {
    fc.assert(
      fc.property(stream, fc.integer({ min: 1, max: 200 }), (bytes, max) => {
        const chunks = [...bytes].map((b) => Uint8Array.of(b));
        expect(run(browserFraming, chunks, max)).toEqual(run(serverFraming, chunks, max));
      }),
      { numRuns: 500, seed: 2026_12_01 },
    );
  });

  it("differ only in how an invalid UTF-8 sequence counts toward the limit: the bytes received (server), its U+FFFDs, 3 bytes each (browser)", () => {
    // `data:` and one invalid byte: 6 bytes received, 8 once decoded.
    const chunks = [Uint8Array.from([...toBytes("data:"), 0xff, 0x0a, 0x0a])];
    const delivered = [["message", { event: "message", data: "\uFFFD", id: "" }]];
    expect(run(serverFraming, chunks, 6)).toEqual(delivered);
    expect(run(browserFraming, chunks, 6)).toEqual([["error", "event", 8]]);
    expect(run(browserFraming, chunks, 8)).toEqual(delivered);
  });
});
