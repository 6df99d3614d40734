/**
 * The ASCII fast path: complete lines are decoded in one call and, when the
 * text is as long as the bytes (ASCII), sized by their lengths; otherwise
 * from the bytes, or by their lengths where they end the event and cannot
 * reach the limit (after a non-ASCII block, the next one is split at its
 * last blank line and decoded by a streaming decoder). These properties put
 * non-ASCII characters and invalid bytes in the middle of long ASCII runs,
 * at chunk edges and split across chunks, and hand the decoder chunks that
 * are views at every byte offset of their buffers, comparing with the naive
 * reference.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser, parseSse, parseSseBatches, type SseMessage } from "../../runtime/sse/index.js";
import { concatBytes, runWithLimit, terminatorCuts, toBytes } from "./helpers.js";
import { referenceParse, referenceWithLimit } from "./reference.js";

const piece: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 10, arbitrary: fc.stringMatching(/^[a-z0-9 ":{},]{1,40}$/).map(toBytes) },
  { weight: 2, arbitrary: fc.constantFrom("é", "日本", "😀", "’", "ü").map(toBytes) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom([0xff], [0xc3], [0xf0, 0x9f], [0x80], [0xe6, 0x97], [0xed, 0xa0, 0x80])
      .map((b) => Uint8Array.from(b)),
  },
);

const line = fc
  .tuple(fc.constantFrom("data: ", "data:", "id: ", "event: ", ": ", "retry: ", ""), fc.array(piece, { maxLength: 6 }))
  .map(([prefix, pieces]) => concatBytes([toBytes(prefix), ...pieces]));

const stream = fc
  .tuple(
    fc.array(fc.tuple(line, fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"), fc.boolean()), { maxLength: 60 }),
    fc.option(line),
  )
  .map(([lines, tail]) =>
    concatBytes([...lines.flatMap(([l, t, blank]) => [l, toBytes(blank ? t + t : t)]), tail ?? new Uint8Array(0)]),
  );

/** Chunks cut at the given points, each a view at offset `shift` (0..7) of its own larger buffer. */
function shiftedChunks(bytes: Uint8Array, points: number[], shifts: number[]): Uint8Array[] {
  const cuts = [...new Set(points)].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  cuts.push(bytes.length);
  cuts.forEach((p, k) => {
    const part = bytes.subarray(prev, p);
    const shift = shifts[k % shifts.length]!;
    const view = new Uint8Array(new ArrayBuffer(part.length + shift + 5), shift, part.length);
    view.set(part);
    out.push(view);
    prev = p;
  });
  return out;
}

function push(chunks: readonly Uint8Array[]) {
  const out = { messages: [] as SseMessage[], retries: [] as number[], comments: [] as string[] };
  const parser = createSseParser({
    onMessage: (m) => out.messages.push(m),
    onRetry: (r) => out.retries.push(r),
    onComment: (c) => out.comments.push(c),
  });
  for (const c of chunks) parser.feed(c);
  return out;
}

function source(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]!);
      else c.close();
    },
  });
}

describe("ASCII fast path", () => {
  it("non-ASCII and invalid bytes anywhere in ASCII runs, chunks at any buffer offset: same as the reference", async () => {
    await fc.assert(
      fc.asyncProperty(
        stream.chain((bytes) =>
          fc.tuple(
            fc.constant(bytes),
            fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }),
            fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 8 }),
          ),
        ),
        async ([bytes, points, shifts]) => {
          const want = referenceParse(bytes);
          const chunks = shiftedChunks(bytes, points, shifts);
          expect(push(chunks)).toStrictEqual(want);
          expect(push(shiftedChunks(bytes, [], shifts))).toStrictEqual(want);
          const messages: SseMessage[] = [];
          for await (const m of parseSse(source(chunks))) messages.push(m);
          expect(messages).toStrictEqual(want.messages);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("maxEventBytes counts exact UTF-8 bytes through the fast path (error sizes as the reference says)", () => {
    fc.assert(
      fc.property(
        stream,
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 1, max: 6 }),
        (bytes, limit, shift, every) => {
          const want = referenceWithLimit(bytes, limit);
          // Whole input, and chunks cut after every `every`-th terminator (no line pending across chunks).
          const cuts = terminatorCuts(bytes, every);
          for (const chunks of [
            shiftedChunks(bytes, [], [shift]),
            shiftedChunks(bytes, cuts, [shift, (shift + 3) % 8]),
          ])
            expect(runWithLimit(chunks, limit)).toStrictEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("an event that spans chunks after a stretch of non-ASCII lines (with a comment) is sized exactly", () => {
    const first = toBytes(`data: a\n\ndata: bbb\ndata: ééé\n: a comment with ü ü ü ü ü\ndata: é\n`);
    for (const ys of [60, 70]) {
      const bytes = concatBytes([first, toBytes(`data: ${"y".repeat(ys)}\n\n`)]);
      const want = referenceWithLimit(bytes, 100);
      let errorSize: number | undefined;
      const parser = createSseParser(
        { onMessage: () => {}, onError: (e) => (errorSize = e.size) },
        { maxEventBytes: 100 },
      );
      for (const c of shiftedChunks(bytes, [first.length], [1, 2])) parser.feed(c);
      expect(errorSize).toBe(want.errorSize);
    }
    // "data: bbb" + "data: ééé" + "data: é" + "data: " and 70 y's: 9 + 12 + 8 + 76 bytes (the comment does not count).
    expect(referenceWithLimit(concatBytes([first, toBytes(`data: ${"y".repeat(70)}\n\n`)]), 100).errorSize).toBe(105);
  });

  it("one non-ASCII character at every position of a 16 KiB chunk of ASCII frames", async () => {
    const frame = (i: number) => `id: ${i}\nevent: assistant_delta\ndata: {"text":"the agent tool call ${i}"}\n\n`;
    let text = "";
    for (let i = 0; text.length < 16 * 1024; i++) text += frame(i);
    const ascii = toBytes(text);
    const want = referenceParse(ascii).messages.length;
    for (let at = 0; at < 600; at += 7) {
      // Replace one ASCII byte of a data value (or of a field name) by a 2-byte character.
      const bytes = concatBytes([ascii.subarray(0, at), toBytes("é"), ascii.subarray(at + 1)]);
      const ref = referenceParse(bytes);
      const seen: SseMessage[][] = [];
      for await (const b of parseSseBatches(source(shiftedChunks(bytes, [at, at + 1, 8192], [at % 8, 3]))))
        seen.push(b);
      expect(seen.flat()).toStrictEqual(ref.messages);
      expect(ref.messages.length).toBeGreaterThanOrEqual(want - 1);
    }
  });
});

describe("very long lines (buffered across chunks, decoded once they end)", () => {
  /** A stream whose lines are 60–300 KiB of ASCII with non-ASCII characters and invalid bytes sprinkled in (so some straddle chunk edges, 64 KiB ones included), plus short lines around them. */
  const longStream = fc
    .array(
      fc.tuple(
        fc.constantFrom("data: ", ": ", "id: ", "event: "),
        fc.integer({ min: 60 * 1024, max: 300 * 1024 }),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 1, noNaN: true }),
            fc.constantFrom("é", "日本", "😀", "\u{FFFF}", "\xff", "\xc3", "\xf0\x9f"),
          ),
          { maxLength: 8 },
        ),
        fc.constantFrom("\n", "\r\n", "\r", "\n\n"),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((lines) =>
      concatBytes(
        lines.flatMap(([prefix, length, sprinkles, end]) => {
          const body = new Uint8Array(length).fill(0x61);
          const parts: Uint8Array[] = [toBytes(prefix)];
          let from = 0;
          for (const [where, what] of [...sprinkles].sort((a, b) => a[0] - b[0])) {
            const at = Math.floor(where * length);
            parts.push(
              body.subarray(from, at),
              what.startsWith("\\x")
                ? toBytes(what)
                : /[\x80-\xff]/.test(what) && what.length <= 2
                  ? Uint8Array.from([...what].map((c) => c.charCodeAt(0)))
                  : toBytes(what),
            );
            from = at;
          }
          parts.push(body.subarray(from), toBytes(end), toBytes("data: short\n\n"));
          return parts;
        }),
      ),
    );

  it("any chunking, split characters and invalid bytes at chunk edges: same as the reference", async () => {
    await fc.assert(
      fc.asyncProperty(
        longStream.chain((bytes) =>
          fc.tuple(
            fc.constant(bytes),
            fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 20 }),
            fc.constantFrom(1000, 4096, 65535, 65536, 65537),
          ),
        ),
        async ([bytes, points, every]) => {
          const want = referenceParse(bytes);
          expect(push(shiftedChunks(bytes, points, [0, 3]))).toStrictEqual(want);
          const regular: number[] = [];
          for (let at = every; at < bytes.length; at += every) regular.push(at);
          expect(push(shiftedChunks(bytes, regular, [1]))).toStrictEqual(want);
          const messages: SseMessage[] = [];
          for await (const m of parseSse(source(shiftedChunks(bytes, regular, [0])))) messages.push(m);
          expect(messages).toStrictEqual(want.messages);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("a character split at a chunk edge around 64 KiB into a long line, and a CR ending a long line at a chunk's end, decode as in one piece", () => {
    for (const char of ["é", "日", "😀", "\ufffd"]) {
      const c = toBytes(char);
      for (let at = 65530; at < 65540; at++) {
        const line = concatBytes([
          toBytes("data: "),
          new Uint8Array(at - 6).fill(0x61),
          c,
          new Uint8Array(90_000).fill(0x62),
        ]);
        for (const end of ["\n\n", "\r\n\r\n", "\r\r", "\r\ndata: more\n\n"]) {
          const bytes = concatBytes([line, toBytes(end), toBytes("data: next\n\n")]);
          const want = referenceParse(bytes);
          for (let cut = at; cut <= at + c.length; cut++) {
            // Cut inside the character, 64 KiB into the line, and right after the first CR.
            const chunks = shiftedChunks(bytes, [cut, line.length + 1, line.length + 2], [0]);
            expect(push(chunks), `${char} at ${at}, cut ${cut}, end ${JSON.stringify(end)}`).toStrictEqual(want);
          }
        }
      }
    }
  });

  it("maxEventBytes counts a long line's exact bytes, buffered across chunks", () => {
    const line = concatBytes([toBytes("data: "), new Uint8Array(200 * 1024).fill(0x62), toBytes("é\n\n")]);
    const inKiB = shiftedChunks(
      line,
      Array.from({ length: 300 }, (_, i) => (i + 1) * 1000),
      [0],
    );
    // The line is 204808 bytes without its terminator ("é" is 2).
    for (const limit of [100 * 1024, line.length - 3, line.length - 4]) {
      const want = referenceWithLimit(line, limit);
      expect(runWithLimit([line], limit), `limit ${limit}, whole`).toStrictEqual(want);
      const chunked = runWithLimit(inKiB, limit);
      if (want.errorSize === undefined) {
        expect(chunked, `limit ${limit}, 1 KB chunks`).toStrictEqual(want);
      } else {
        // The error comes as soon as the line read so far passes the limit
        // (unterminated: the bytes received; at its end: its exact size).
        expect(chunked.messages).toEqual([]);
        const over = chunked.errorSize! - limit;
        expect(over, `limit ${limit}, 1 KB chunks`).toBeGreaterThan(0);
        expect(
          chunked.errorSize === want.errorSize || (over <= 1000 && chunked.errorSize! % 1000 === 0),
          `size ${chunked.errorSize}`,
        ).toBe(true);
      }
    }
  });
});
