/**
 * Linear work whatever the chunking, checked structurally, never with
 * wall-clock time: while the public push parser runs, TextDecoder#decode and
 * the typed-array copy methods (set, slice) are counted. Each input byte must
 * be decoded at most once and copied a bounded number of times, so a long
 * line arriving in small chunks cannot go quadratic. Timing lives in
 * bench/sse.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSseParser } from "../../runtime/sse/index.js";
import { toBytes } from "./helpers.js";

const work = { decodeCalls: 0, decodedBytes: 0, copiedBytes: 0 };
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as Uint8Array;
const originals = { decode: TextDecoder.prototype.decode, set: typedArrayProto.set, slice: typedArrayProto.slice };

beforeEach(() => {
  const { decode, set, slice } = originals;
  TextDecoder.prototype.decode = function (
    this: TextDecoder,
    input?: AllowSharedBufferSource,
    options?: TextDecodeOptions,
  ) {
    work.decodeCalls++;
    work.decodedBytes += input === undefined ? 0 : input.byteLength;
    return decode.call(this, input, options);
  };
  typedArrayProto.set = function (this: Uint8Array, array: ArrayLike<number>, offset?: number) {
    work.copiedBytes += array.length;
    return set.call(this, array, offset);
  };
  typedArrayProto.slice = function (this: Uint8Array, start?: number, end?: number) {
    const out = slice.call(this, start, end);
    work.copiedBytes += out.length;
    return out;
  } as typeof typedArrayProto.slice;
});

afterEach(() => {
  TextDecoder.prototype.decode = originals.decode;
  typedArrayProto.set = originals.set;
  typedArrayProto.slice = originals.slice;
});

function feed(bytes: Uint8Array, chunkSize: number) {
  const seen = { messages: 0, chars: 0 };
  const parser = createSseParser(
    {
      onMessage: (m) => {
        seen.messages++;
        seen.chars += m.data.length;
      },
    },
    { maxEventBytes: Infinity },
  );
  work.decodeCalls = work.decodedBytes = work.copiedBytes = 0;
  let chunks = 0;
  for (let i = 0; i < bytes.length; i += chunkSize) {
    parser.feed(bytes.subarray(i, i + chunkSize));
    chunks++;
  }
  return { seen, stats: { ...work }, chunks };
}

const frames = Array.from(
  { length: 2000 },
  (_, i) =>
    `id: ${i}\nevent: assistant_delta\ndata: {"seq":${i},"type":"assistant_delta","data":{"text":"${i % 3 ? "h" : "hé"}llo ${"w".repeat(i % 50)}"}}\n\n`,
);
const realistic = toBytes(frames.join(""));
const realisticChars = frames.reduce((n, f) => n + f.split("\n")[2]!.length - "data: ".length, 0);

describe("linear work", () => {
  it.each([1, 7, 100, 1024, 16 * 1024, 1 << 20])(
    "realistic stream (ASCII and non-ASCII lines) in %i-byte chunks: each byte decoded once, copies bounded",
    (size) => {
      const { seen, stats } = feed(realistic, size);
      expect(seen).toStrictEqual({ messages: 2000, chars: realisticChars });
      expect(stats.decodedBytes).toBeLessThanOrEqual(realistic.length);
      expect(stats.decodedBytes).toBeGreaterThanOrEqual(realistic.length - 8 * 2000); // the counters do count
      expect(stats.copiedBytes).toBeLessThanOrEqual(2 * realistic.length);
      // Each decode call covers at least one whole line: never more calls than lines.
      expect(stats.decodeCalls).toBeLessThanOrEqual(2000 * 4);
    },
  );

  it("one 16 KiB chunk of ASCII frames with a few non-ASCII ones: decoded in one call, or two (split at the last blank line)", () => {
    const chunk = toBytes(frames.slice(0, 100).join(""));
    expect(frames.slice(0, 100).filter((f) => f.includes("é")).length).toBeGreaterThan(10);
    const { seen, stats } = feed(chunk, chunk.length);
    expect(seen.messages).toBe(100);
    expect(stats.decodeCalls).toBeLessThanOrEqual(2);
    expect(stats.copiedBytes).toBe(0);
  });

  it.each([1, 1024, 4 * 1024 * 1024])("one 4 MiB line in %i-byte chunks is decoded once", (size) => {
    const line = new Uint8Array(4 * 1024 * 1024 + 8).fill(0x61);
    line.set(toBytes("data: "));
    line[line.length - 2] = 0x0a;
    line[line.length - 1] = 0x0a;
    const { seen, stats } = feed(line, size);
    expect(seen).toStrictEqual({ messages: 1, chars: 4 * 1024 * 1024 });
    // Buffered as it arrives and decoded once it ends, whatever the chunking (not one call per chunk): the line, then the blank line.
    expect(stats.decodeCalls).toBeLessThanOrEqual(3);
    expect(stats.decodedBytes).toBeLessThanOrEqual(line.length);
    expect(stats.decodedBytes).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    // Into the line buffer, plus its doublings (amortised <= 1): at most 3 copies per byte.
    expect(stats.copiedBytes).toBeLessThanOrEqual(3 * line.length);
  });

  it("work per byte does not grow with line length", () => {
    const perByte = [64 * 1024, 1024 * 1024, 8 * 1024 * 1024].map((n) => {
      const line = new Uint8Array(n + 2).fill(0x62);
      line[0] = 0x3a; // a comment line
      line[n] = 0x0a;
      line[n + 1] = 0x0a;
      const { stats } = feed(line, 1000);
      return (stats.copiedBytes + stats.decodedBytes) / n;
    });
    // Per byte: into the line buffer, its doublings (amortised <= 1), one decode.
    for (const r of perByte) expect(r).toBeLessThanOrEqual(4);
  });
});
