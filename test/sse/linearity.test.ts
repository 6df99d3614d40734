/**
 * Linear work whatever the chunking, checked structurally (work counters of
 * the line splitter), never with wall-clock time: each input byte is decoded
 * at most once and copied a bounded number of times, so a long line arriving
 * in small chunks cannot go quadratic. Timing lives in bench/sse.ts.
 */
import { describe, expect, it } from "vitest";
import { LineSplitter, type LineSink } from "../../runtime/sse/line-splitter.js";
import { toBytes } from "./helpers.js";

class CountingSink implements LineSink {
  lines = 0;
  chars = 0;
  line(_text: string, start: number, end: number): void {
    this.lines++;
    this.chars += end - start;
  }
}

function feed(bytes: Uint8Array, chunkSize: number) {
  const sink = new CountingSink();
  const splitter = new LineSplitter(sink, Infinity);
  let chunks = 0;
  for (let i = 0; i < bytes.length; i += chunkSize) {
    splitter.push(bytes.subarray(i, i + chunkSize));
    chunks++;
  }
  return { sink, stats: splitter.stats, chunks };
}

const realistic = toBytes(
  Array.from(
    { length: 2000 },
    (_, i) => `id: ${i}\nevent: assistant_delta\ndata: {"seq":${i},"type":"assistant_delta","data":{"text":"héllo ${"w".repeat(i % 50)}"}}\n\n`,
  ).join(""),
);

describe("linear work", () => {
  it.each([1, 7, 100, 1024, 16 * 1024, 1 << 20])("realistic stream in %i-byte chunks: each byte decoded once, copies bounded", (size) => {
    const { sink, stats, chunks } = feed(realistic, size);
    expect(sink.lines).toBe(2000 * 4);
    expect(stats.decodedBytes).toBeLessThanOrEqual(realistic.length);
    expect(stats.copiedBytes).toBeLessThanOrEqual(2 * realistic.length);
    // At most one decode per chunk plus one per line that spanned chunks.
    expect(stats.decodeCalls).toBeLessThanOrEqual(chunks + sink.lines);
  });

  it.each([1, 1024, 4 * 1024 * 1024])("one 4 MiB line in %i-byte chunks is decoded once", (size) => {
    const line = new Uint8Array(4 * 1024 * 1024 + 2).fill(0x61);
    line[line.length - 2] = 0x0a;
    line[line.length - 1] = 0x0a;
    const { sink, stats } = feed(line, size);
    expect(sink.lines).toBe(2);
    expect(sink.chars).toBe(4 * 1024 * 1024);
    expect(stats.decodeCalls).toBeLessThanOrEqual(2);
    expect(stats.decodedBytes).toBeLessThanOrEqual(line.length);
    // Into the scratch buffer, into a byte chunk, joined once: at most 3 copies per byte.
    expect(stats.copiedBytes).toBeLessThanOrEqual(3 * line.length);
  });

  it("work per byte does not grow with line length", () => {
    const perByte = [64 * 1024, 1024 * 1024, 8 * 1024 * 1024].map((n) => {
      const line = new Uint8Array(n + 1).fill(0x62);
      line[n] = 0x0a;
      const { stats } = feed(line, 1000);
      return (stats.copiedBytes + stats.decodedBytes) / n;
    });
    // Per byte: into scratch, scratch doublings (amortised <= 1, capped at 64 KiB),
    // scratch -> byte chunk, the final join, one decode.
    for (const r of perByte) expect(r).toBeLessThanOrEqual(5);
  });
});
