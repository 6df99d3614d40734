/**
 * maxEventBytes: the only error the decoder raises. It must be typed, say how
 * to fix it, come after the messages completed before it, and bound memory
 * even when the peer never sends a line terminator.
 */
import { describe, expect, it } from "vitest";
import {
  createSseParser,
  isSseParseError,
  parseSse,
  parseSseBatches,
  SseParseError,
  type SseMessage,
} from "../../runtime/sse/index.js";
import { streamOf, toBytes } from "./helpers.js";

const LIMIT = 1000;
const small = "data: first\n\ndata: second\n\n";
const big = `data: ${"x".repeat(600)}\ndata: ${"y".repeat(600)}\n\n`;

async function collect(iterable: AsyncIterable<SseMessage>): Promise<{ messages: SseMessage[]; error: unknown }> {
  const messages: SseMessage[] = [];
  try {
    for await (const m of iterable) messages.push(m);
  } catch (error) {
    return { messages, error };
  }
  return { messages, error: undefined };
}

function expectLimitError(error: unknown, buffer: "event" | "line"): asserts error is SseParseError {
  expect(error).toBeInstanceOf(SseParseError);
  expect(isSseParseError(error)).toBe(true);
  const e = error as SseParseError;
  expect(e.name).toBe("SseParseError");
  expect(e.type).toBe("max-event-bytes-exceeded");
  expect(e.buffer).toBe(buffer);
  expect(e.limit).toBe(LIMIT);
  expect(e.size).toBeGreaterThan(LIMIT);
  expect(e.message).toMatch(/maxEventBytes/);
}

describe("maxEventBytes", () => {
  it("an event over the limit throws a typed error after the earlier messages of the same chunk (parseSse)", async () => {
    const { messages, error } = await collect(parseSse(streamOf([toBytes(small + big + small)]), { maxEventBytes: LIMIT }));
    expect(messages.map((m) => m.data)).toStrictEqual(["first", "second"]);
    expectLimitError(error, "event");
  });

  it("the same through parseSseBatches: the batch before the error is delivered, then the error", async () => {
    const batches: string[][] = [];
    let error: unknown;
    try {
      for await (const b of parseSseBatches(streamOf([toBytes(small), toBytes(small + big)]), { maxEventBytes: LIMIT })) {
        batches.push(b.map((m) => m.data));
      }
    } catch (e) {
      error = e;
    }
    expect(batches).toStrictEqual([["first", "second"], ["first", "second"]]);
    expectLimitError(error, "event");
  });

  it("the same through createSseParser: onError receives it after onMessage calls, and later input is ignored", () => {
    const seen: string[] = [];
    const errors: SseParseError[] = [];
    const parser = createSseParser(
      { onMessage: (m) => seen.push(m.data), onError: (e) => errors.push(e) },
      { maxEventBytes: LIMIT },
    );
    parser.feed(toBytes(small + big + small));
    parser.feed(toBytes(small));
    expect(seen).toStrictEqual(["first", "second"]);
    expect(errors).toHaveLength(1);
    expectLimitError(errors[0], "event");
    parser.reset();
    parser.feed(toBytes(small));
    expect(seen).toStrictEqual(["first", "second", "first", "second"]);
  });

  it("without onError, feed() throws the error", () => {
    const parser = createSseParser({ onMessage: () => {} }, { maxEventBytes: LIMIT });
    let error: unknown;
    try {
      parser.feed(toBytes(big));
    } catch (e) {
      error = e;
    }
    expectLimitError(error, "event");
  });

  it("counts the field lines of one event, not the stream: many small events never trip it", () => {
    const seen: string[] = [];
    const parser = createSseParser({ onMessage: (m) => seen.push(m.data) }, { maxEventBytes: 20 });
    for (let i = 0; i < 1000; i++) parser.feed(toBytes(`data: ${i}\n: a comment longer than twenty bytes\n\n`));
    expect(seen).toHaveLength(1000);
  });

  it("an event exactly at the limit passes, one byte more fails", () => {
    const line = `data: ${"z".repeat(LIMIT - 6)}`; // exactly LIMIT bytes
    const ok: string[] = [];
    createSseParser({ onMessage: (m) => ok.push(m.data) }, { maxEventBytes: LIMIT }).feed(toBytes(`${line}\n\n`));
    expect(ok).toHaveLength(1);
    const errors: SseParseError[] = [];
    createSseParser({ onMessage: () => {}, onError: (e) => errors.push(e) }, { maxEventBytes: LIMIT }).feed(
      toBytes(`${line}z\n\n`),
    );
    expect(errors[0]?.size).toBe(LIMIT + 1);
  });

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    const errors: SseParseError[] = [];
    const parser = createSseParser({ onMessage: () => {}, onError: (e) => errors.push(e) }, { maxEventBytes: LIMIT });
    // 6 + 3 * 334 = 1008 bytes, but only 340 UTF-16 units.
    parser.feed(toBytes(`data: ${"日".repeat(334)}\n\n`));
    expect(errors[0]?.size).toBe(1008);
  });

  it("one unterminated huge line is caught as it grows, before it is buffered whole (memory bound)", async () => {
    const chunkSize = 100;
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(chunkSize).fill(0x78)); // "xxxx..." and never a newline
      },
      cancel() {
        cancelled = true;
      },
    });
    const { messages, error } = await collect(parseSse(endless, { maxEventBytes: LIMIT }));
    expect(messages).toStrictEqual([]);
    expectLimitError(error, "line");
    // Caught at the first chunk that crossed the limit: at most limit + one chunk was ever held.
    expect((error as SseParseError).size).toBeLessThanOrEqual(LIMIT + chunkSize);
    expect(pulled).toBeLessThanOrEqual(LIMIT / chunkSize + 3);
    expect(cancelled).toBe(true);
  });

  it("an unterminated comment line is bounded too", () => {
    const errors: SseParseError[] = [];
    const parser = createSseParser({ onMessage: () => {}, onError: (e) => errors.push(e) }, { maxEventBytes: LIMIT });
    parser.feed(toBytes(":"));
    for (let i = 0; i < 20 && errors.length === 0; i++) parser.feed(new Uint8Array(64).fill(0x20));
    expectLimitError(errors[0], "line");
  });

  it("the default limit is 16 MiB, and Infinity disables it", () => {
    const errors: SseParseError[] = [];
    const parser = createSseParser({ onMessage: () => {}, onError: (e) => errors.push(e) });
    const mib = new Uint8Array(1024 * 1024).fill(0x61);
    parser.feed(toBytes("data: "));
    for (let i = 0; i < 16; i++) parser.feed(mib);
    expect(errors[0]?.limit).toBe(16 * 1024 * 1024);
    const seen: number[] = [];
    const unlimited = createSseParser({ onMessage: (m) => seen.push(m.data.length) }, { maxEventBytes: Infinity });
    unlimited.feed(toBytes("data: "));
    for (let i = 0; i < 17; i++) unlimited.feed(mib);
    unlimited.feed(toBytes("\n\n"));
    expect(seen).toStrictEqual([17 * 1024 * 1024]);
  });

  it.each([0, -1, Number.NaN])("rejects maxEventBytes %s", (v) => {
    expect(() => createSseParser({ onMessage: () => {} }, { maxEventBytes: v })).toThrow(RangeError);
    expect(() => parseSse(streamOf([]), { maxEventBytes: v })).toThrow(RangeError);
  });

  it("isSseParseError rejects other values", () => {
    expect(isSseParseError(new Error("x"))).toBe(false);
    expect(isSseParseError(null)).toBe(false);
    expect(isSseParseError("SseParseError")).toBe(false);
    expect(isSseParseError({ name: "SseParseError", type: "max-event-bytes-exceeded" })).toBe(true);
  });
});
