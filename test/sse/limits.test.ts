/**
 * maxEventBytes: the only error the decoder raises. It must be typed, say how
 * to fix it, come after the messages completed before it, and bound memory
 * even when the peer never sends a line terminator.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSseParser,
  isSseParseError,
  parseSse,
  parseSseBatches,
  SseParseError,
  type SseMessage,
} from "../../runtime/sse/index.js";
import { concatBytes, runWithLimit, splitAt, streamOf, terminatorCuts, toBytes } from "./helpers.js";
import { referenceWithLimit } from "./reference.js";

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
    const { messages, error } = await collect(
      parseSse(streamOf([toBytes(small + big + small)]), { maxEventBytes: LIMIT }),
    );
    expect(messages.map((m) => m.data)).toStrictEqual(["first", "second"]);
    expectLimitError(error, "event");
  });

  it("the same through parseSseBatches: the batch before the error is delivered, then the error", async () => {
    const batches: string[][] = [];
    let error: unknown;
    try {
      for await (const b of parseSseBatches(streamOf([toBytes(small), toBytes(small + big)]), {
        maxEventBytes: LIMIT,
      })) {
        batches.push(b.map((m) => m.data));
      }
    } catch (e) {
      error = e;
    }
    expect(batches).toStrictEqual([
      ["first", "second"],
      ["first", "second"],
    ]);
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

  it("counts the field lines of one event, not the stream (nor comments): many small events never trip it", () => {
    const seen: string[] = [];
    const parser = createSseParser({ onMessage: (m) => seen.push(m.data) }, { maxEventBytes: 20 });
    // Up to 9 bytes of field line and a 20-byte comment: 29 bytes if comments counted.
    for (let i = 0; i < 1000; i++) parser.feed(toBytes(`data: ${i}\n: a twenty-byte note\n\n`));
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

  it("a comment line longer than the limit fails whatever the chunking: whole, or split at any point", async () => {
    const push = (chunks: Uint8Array[]) => {
      const seen: string[] = [];
      const comments: number[] = [];
      const errors: SseParseError[] = [];
      const parser = createSseParser(
        {
          onMessage: (m) => seen.push(m.data),
          onComment: (c) => comments.push(c.length),
          onError: (e) => errors.push(e),
        },
        { maxEventBytes: LIMIT },
      );
      for (const c of chunks) parser.feed(c);
      return { seen, comments, errors };
    };
    for (const [length, fails] of [
      [LIMIT, false],
      [LIMIT + 1, true],
      [3 * LIMIT, true],
    ] as const) {
      // The comment line is `length` bytes, its ':' included.
      const bytes = toBytes(`data: before\n\n:${"c".repeat(length - 1)}\ndata: after\n\n`);
      for (let at = 0; at <= bytes.length; at++) {
        const where = `${length}-byte comment, split at ${at}`;
        const { seen, comments, errors } = push(at === bytes.length ? [bytes] : splitAt(bytes, at));
        if (fails) {
          expect(seen, where).toStrictEqual(["before"]);
          expect(comments, where).toStrictEqual([]);
          expect(errors, where).toHaveLength(1);
          expectLimitError(errors[0], "line");
        } else {
          expect({ seen, comments, errors }, where).toStrictEqual({
            seen: ["before", "after"],
            comments: [length - 1],
            errors: [],
          });
        }
      }
      if (fails) {
        const { messages, error } = await collect(parseSse(streamOf([bytes]), { maxEventBytes: LIMIT }));
        expect(messages.map((m) => m.data)).toStrictEqual(["before"]);
        expectLimitError(error, "line");
      }
    }
  });

  it("a leading BOM is not part of the first line's size, whole or split at any point (also while that line is unterminated)", () => {
    for (const [line, fails] of [
      ["data:12345", false],
      ["data:123456", true],
    ] as const) {
      const bytes = concatBytes([Uint8Array.from([0xef, 0xbb, 0xbf]), toBytes(`${line}\n\n`)]);
      for (let at = 0; at <= bytes.length; at++) {
        const seen: string[] = [];
        const errors: SseParseError[] = [];
        const parser = createSseParser(
          { onMessage: (m) => seen.push(m.data), onError: (e) => errors.push(e) },
          { maxEventBytes: 10 },
        );
        for (const c of at === bytes.length ? [bytes] : splitAt(bytes, at)) parser.feed(c);
        expect({ at, seen, errors: errors.map((e) => e.size) }).toStrictEqual({
          at,
          seen: fails ? [] : ["12345"],
          errors: fails ? [11] : [],
        });
      }
    }
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

describe("maxEventBytes counts exact UTF-8 bytes for non-ASCII text", () => {
  function sizeError(text: string, limit: number, chunks = 1): { seen: string[]; error: SseParseError | undefined } {
    const seen: string[] = [];
    let error: SseParseError | undefined;
    const parser = createSseParser(
      { onMessage: (m) => seen.push(m.data), onError: (e) => (error = e) },
      { maxEventBytes: limit },
    );
    const bytes = toBytes(text);
    const step = Math.ceil(bytes.length / chunks);
    for (let i = 0; i < bytes.length; i += step) parser.feed(bytes.subarray(i, i + step));
    return { seen, error };
  }
  const utf8 = (s: string) => toBytes(s).length;

  it("2-byte text under the limit passes although 3 bytes per UTF-16 unit would not", () => {
    const line = `data: ${"é".repeat(400)}`; // 806 bytes, 406 units (3 * 406 > 1000)
    expect(sizeError(`${line}\n\n`, LIMIT)).toStrictEqual({ seen: ["é".repeat(400)], error: undefined });
  });

  it("the error reports the exact size at the line that crossed the limit", () => {
    const a = `data: ${"é".repeat(200)}`; // 406 bytes
    const b = `data: ${"日".repeat(100)}`; // 306 bytes
    const c = `data: ${"😀".repeat(80)}`; // 326 bytes
    const { seen, error } = sizeError(`data: ok\n\n${a}\n${b}\n${c}\nid: never\n\n`, LIMIT);
    expect(seen).toStrictEqual(["ok"]);
    expect(error?.size).toBe(utf8(a) + utf8(b) + utf8(c));
  });

  it("keeps counting exactly once the UTF-16 bound has come close", () => {
    // 80 bytes (43 units) per line: the 3x bound passes 1000 at line 8, the exact count at line 13.
    const lines = Array.from({ length: 14 }, () => `data: ${"é".repeat(37)}`);
    expect(sizeError(`${lines.join("\n")}\n\n`, LIMIT).error?.size).toBe(13 * 80);
    expect(sizeError(`${lines.slice(0, 12).join("\n")}\n\n`, LIMIT).error).toBeUndefined();
  });

  it("non-data fields with non-ASCII values count exactly too", () => {
    const ev = `event: ${"ü".repeat(200)}`; // 407 bytes
    const id = `id: ${"ü".repeat(200)}`; // 404 bytes
    const data = `data: ${"x".repeat(189)}`; // 195 bytes: 1006 in all
    const { error } = sizeError(`${ev}\n${id}\n${data}\n\n`, LIMIT);
    expect(error?.size).toBe(utf8(ev) + utf8(id) + utf8(data));
    expect(sizeError(`${ev}\n${id}\ndata: ${"x".repeat(183)}\n\n`, LIMIT).error).toBeUndefined();
  });
});

describe("maxEventBytes property", () => {
  const piece = fc.oneof(
    fc.string({ unit: "grapheme-ascii", maxLength: 30 }),
    fc.string({ unit: "binary", maxLength: 30 }),
    fc.constantFrom("é", "日本語", "😀", "ü".repeat(40), "x".repeat(60)),
  );
  const line = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom("data: ", "data:", "event: ", "id: ", "foo: ", ":"), fc.array(piece, { maxLength: 4 }))
        .map(([p, v]) => p + v.join("")),
    },
    { weight: 2, arbitrary: fc.constant("") },
  );
  const stream = fc
    .tuple(fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "\r")), { maxLength: 30 }), fc.option(line))
    .map(([ls, tail]) => ls.map(([l, t]) => l + t).join("") + (tail ?? ""));

  it("errors exactly where a reference byte count says, for whole input and for line-aligned chunks", () => {
    fc.assert(
      fc.property(stream, fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 8 }), (text, limit, every) => {
        const bytes = toBytes(text);
        const want = referenceWithLimit(bytes, limit);
        // Whole input, then chunks cut after every `every`-th line terminator (no line ever pending across chunks).
        for (const chunks of [[bytes], splitAt(bytes, ...terminatorCuts(bytes, every))])
          expect(runWithLimit(chunks, limit)).toStrictEqual(want);
      }),
      { numRuns: 500 },
    );
  });
});
