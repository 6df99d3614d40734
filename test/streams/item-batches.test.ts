/**
 * The item stream (runtime/client/item-stream.ts) decodes the messages of
 * each chunk read in one step and delivers them one per next(). What a
 * consumer sees must not depend on where the chunks end: for every way of
 * cutting the same bytes (one chunk, each byte apart, random cuts), the
 * items before an error are delivered and then the error; a sentinel ends
 * the stream at once and cancels the source (nothing after it is read);
 * `break` in the middle of a chunk's items cancels the source; a drop names
 * the id of the last item delivered; a resumed stream delivers each item
 * once.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { itemStream, type ItemStreamSpec } from "../../runtime/client/item-stream.js";
import { ConnectionError, ServerSentError, StreamDecodeError } from "../../runtime/client/index.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body of `parts` (then closed, failed, or held open), recording what the reader did. */
function body(parts: Uint8Array[], end: "close" | "fail" | "hold" = "close") {
  const log = { pulls: 0, cancelled: false };
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      log.pulls++;
      if (i < parts.length) controller.enqueue(parts[i++]!);
      else if (end === "close") controller.close();
      else if (end === "fail") controller.error(new TypeError("terminated"));
    },
    cancel() {
      log.cancelled = true;
    },
  });
  return { stream, log };
}

const answer = (stream: ReadableStream<Uint8Array>): Response =>
  new Response(stream, { headers: { "content-type": "text/event-stream" } });

/** The bytes cut at `cuts` (offsets). */
function cutAt(all: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, all.length]) {
    if (c > from) parts.push(all.subarray(from, c));
    from = Math.max(from, c);
  }
  return parts;
}

async function run(
  spec: ItemStreamSpec,
  parts: Uint8Array[],
  end: "close" | "fail" | "hold" = "close",
  stopAfter = Infinity,
) {
  const { stream, log } = body(parts, end);
  const got: unknown[] = [];
  let error: unknown;
  try {
    for await (const item of itemStream("op", spec, async () => answer(stream), { maxReconnects: 0 })) {
      got.push(item);
      if (got.length >= stopAfter) break;
    }
  } catch (e) {
    error = e;
  }
  return { got, error, log };
}

const frames = (...datas: string[]): string => datas.map((d) => `data: ${d}\n\n`).join("");
const cuts = fc.array(fc.nat(), { maxLength: 12 });

describe("item stream: one decoding step per chunk, one item per next()", () => {
  it("the items before stray data are delivered, then the StreamDecodeError, whatever the chunking", async () => {
    const all = bytes(frames('{"n":1}', '{"n":2}', "not json", '{"n":3}'));
    await fc.assert(
      fc.asyncProperty(cuts, async (c) => {
        const parts = cutAt(all, c);
        const { got, error, log } = await run({ mode: "sse-data" }, parts);
        expect(got).toEqual([{ n: 1 }, { n: 2 }]);
        expect(error).toBeInstanceOf(StreamDecodeError);
        expect(error).toMatchObject({ type: "invalid-json", frame: { data: "not json" } });
        // The source is let go of, not left open: cancelled, or already read
        // to its close (the pull after the last part), which the body's
        // read-ahead can reach before the error is thrown. Counted against the
        // parts, not the cuts: repeated or zero cuts make fewer parts.
        expect(log.cancelled || log.pulls > parts.length).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("an event: error frame after items: the items, then the ServerSentError", async () => {
    const all = bytes(`${frames('{"n":1}')}event: error\ndata: {"message":"busy"}\n\n${frames('{"n":2}')}`);
    await fc.assert(
      fc.asyncProperty(cuts, async (c) => {
        const { got, error } = await run({ mode: "sse-data" }, cutAt(all, c));
        expect(got).toEqual([{ n: 1 }]);
        expect(error).toBeInstanceOf(ServerSentError);
        expect(error).toMatchObject({ data: { message: "busy" } });
      }),
      { numRuns: 40 },
    );
  });

  it("the sentinel ends the stream at once (the body held open) and cancels the source; nothing after it", async () => {
    const all = bytes(frames('{"n":1}', '{"n":2}', "[DONE]", '{"n":3}'));
    await fc.assert(
      fc.asyncProperty(cuts, async (c) => {
        const { got, error, log } = await run({ mode: "sse-data", sentinel: "[DONE]" }, cutAt(all, c), "hold");
        expect(error).toBeUndefined();
        expect(got).toEqual([{ n: 1 }, { n: 2 }]);
        expect(log.cancelled).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("break in the middle of a chunk's items cancels the source, and no item after it is delivered", async () => {
    const { got, error, log } = await run(
      { mode: "sse-data" },
      [bytes(frames('{"n":1}', '{"n":2}', '{"n":3}'))],
      "hold",
      2,
    );
    expect(error).toBeUndefined();
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    expect(log.cancelled).toBe(true);
  });

  it("a drop names the id of the last item delivered; a resumed stream delivers each item once", async () => {
    const first = bytes('id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\nid: 3\ndata: {"n":3');
    await fc.assert(
      fc.asyncProperty(cuts, async (c) => {
        const { got, error } = await run({ mode: "sse" }, cutAt(first, c), "fail");
        expect(got.map((e) => (e as { id: string }).id)).toEqual(["1", "2"]);
        expect(error).toBeInstanceOf(ConnectionError);
        expect(error).toMatchObject({ lastEventId: "2" });
        // Resumed: the server replays from Last-Event-ID; the item stream reconnects and goes on.
        const opened: (string | undefined)[] = [];
        const bodies = [first, bytes('id: 3\ndata: {"n":3}\n\nid: 4\ndata: {"n":4}\n\n')];
        const items: unknown[] = [];
        const open = async (last: string | undefined): Promise<Response> => {
          opened.push(last);
          return answer(body(cutAt(bodies[opened.length - 1]!, c), opened.length === 1 ? "fail" : "close").stream);
        };
        for await (const item of itemStream("op", { mode: "sse-json", resume: true }, open, {
          reconnectDelay: { initialDelayMs: 1, maxDelayMs: 1 },
        }))
          items.push(item);
        expect(items).toEqual([1, 2, 3, 4].map((n) => ({ event: "message", data: { n }, id: String(n) })));
        expect(opened).toEqual([undefined, "2"]);
      }),
      { numRuns: 30 },
    );
  });
});
