/**
 * Property tests: for generated event streams (every field kind, unicode,
 * comments, CR/LF/CRLF mixes, ids with NUL, good and bad retry values,
 * invalid UTF-8, stray BOMs, large non-ASCII blocks that switch decoders),
 * the decoder matches a naive reference implementation, and the result is
 * the same however the bytes are chunked and whichever API is used.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteByByte, concatBytes, runBatches, runIter, runPush, splitAt, toBytes } from "./helpers.js";
import { referenceParse } from "./reference.js";

const terminator = fc.constantFrom("\n", "\r", "\r\n");

const value = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 8 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,5}$/) },
  { weight: 2, arbitrary: fc.constantFrom("", " ", "12a", "-1", "\u0000", "a\u0000b", "😀", "\uFEFF", "x:y", "  two") },
);

const fieldName = fc.constantFrom("data", "data", "data", "event", "id", "retry", "foo", "dat", "Data", "datas", "");
const separator = fc.constantFrom(":", ": ", ": ", ":  ", "");

/** One line's content as bytes (terminator added separately). */
const lineContent: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fieldName, separator, value).map(([n, s, v]) => toBytes(n + s + v)) },
  { weight: 4, arbitrary: fc.constant(new Uint8Array(0)) }, // blank line: dispatch
  { weight: 1, arbitrary: value.map((v) => toBytes(`:${v}`)) }, // comment
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("data: ", "id: ", ""),
        fc.constantFrom([0xff], [0xc3], [0xf0, 0x9f], [0x80], [0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80], [0xc3, 0xa9]),
      )
      .map(([prefix, raw]) => concatBytes([toBytes(prefix), Uint8Array.from(raw)])),
  },
);

/** A large non-ASCII event: once decoded, the splitter predicts non-ASCII text and switches TextDecoder. */
const preamble = toBytes(`data: ${"ü".repeat(300)}\n\n`);

const stream: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    fc.boolean(), // leading BOM
    fc.boolean(), // non-ASCII preamble event
    fc.array(fc.tuple(lineContent, terminator), { maxLength: 40 }),
    fc.option(lineContent), // unterminated tail
  )
  .map(([bom, pre, lines, tail]) =>
    concatBytes([
      bom ? Uint8Array.of(0xef, 0xbb, 0xbf) : new Uint8Array(0),
      pre ? preamble : new Uint8Array(0),
      ...lines.flatMap(([content, t]) => [content, toBytes(t)]),
      tail ?? new Uint8Array(0),
    ]),
  );

/** Split points as sorted offsets into the input. */
function chunkingOf(bytesArb: fc.Arbitrary<Uint8Array>) {
  return bytesArb.chain((bytes) =>
    fc
      .uniqueArray(fc.integer({ min: 0, max: bytes.length }), { maxLength: 30 })
      .map((points) => [bytes, splitAt(bytes, ...points.sort((a, b) => a - b))] as const),
  );
}

describe("properties", () => {
  it("matches the naive reference implementation", () => {
    fc.assert(
      fc.property(stream, (bytes) => {
        expect(runPush([bytes])).toStrictEqual(referenceParse(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it("every single split point and byte-by-byte give the same result as one chunk", () => {
    fc.assert(
      fc.property(stream, (bytes) => {
        const whole = runPush([bytes]);
        for (let i = 0; i <= bytes.length; i++) expect(runPush(splitAt(bytes, i))).toStrictEqual(whole);
        expect(runPush(byteByByte(bytes))).toStrictEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it("random chunkings give the reference result", () => {
    fc.assert(
      fc.property(chunkingOf(stream), ([bytes, chunks]) => {
        expect(runPush(chunks)).toStrictEqual(referenceParse(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it("parseSse (stream and iterable), parseSseBatches and createSseParser agree", async () => {
    await fc.assert(
      fc.asyncProperty(chunkingOf(stream), async ([bytes, chunks]) => {
        const want = referenceParse(bytes);
        expect(runPush(chunks)).toStrictEqual(want);
        expect(await runIter(chunks, "stream")).toStrictEqual(want);
        expect(await runIter(chunks, "iterable")).toStrictEqual(want);
        const { batches: _b, ...batched } = await runBatches(chunks);
        expect(batched).toStrictEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it("long lines (scratch growth and byte-chunk lists) under random chunkings", async () => {
    const longValue = fc
      .tuple(fc.integer({ min: 500, max: 100_000 }), fc.constantFrom("x", "é", "日", "😀"))
      .map(([n, ch]) => ch.repeat(Math.ceil(n / ch.length)));
    const longStream = fc
      .array(
        fc.tuple(fc.constantFrom("data: ", "data:", ": ", "id: ", "event: "), longValue, terminator, fc.boolean()),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => toBytes(parts.map(([p, v, t, blank]) => p + v + t + (blank ? t : "")).join("")));
    await fc.assert(
      fc.asyncProperty(
        longStream,
        fc.integer({ min: 16, max: 70_000 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        async (bytes, maxChunk, seed) => {
          const want = referenceParse(bytes);
          let s = seed;
          const chunks: Uint8Array[] = [];
          for (let i = 0; i < bytes.length; ) {
            s = (s * 1103515245 + 12345) % 2 ** 31;
            const n = 1 + (s % maxChunk);
            chunks.push(bytes.subarray(i, i + n));
            i += n;
          }
          expect(runPush(chunks)).toStrictEqual(want);
          expect(await runIter(chunks)).toStrictEqual(want);
        },
      ),
      { numRuns: 40 },
    );
  });
});
