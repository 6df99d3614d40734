/**
 * Source lifecycle of the async-iterator APIs (cancel on early exit, errors,
 * AbortSignal, concurrent next()) and the push parser's end()/reset().
 */
import { describe, expect, it } from "vitest";
import { createSseParser, parseSse, parseSseBatches, type SseMessage } from "../../runtime/sse/index.js";
import { toBytes } from "./helpers.js";

const apis = [
  [
    "parseSse",
    (s: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, o?: { signal?: AbortSignal }) => parseSse(s, o),
  ],
  [
    "parseSseBatches",
    (s: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, o?: { signal?: AbortSignal }) => parseSseBatches(s, o),
  ],
] as const;

/** An endless stream of one-message chunks that records pulls and cancellation. */
function endlessStream() {
  const state = { pulls: 0, cancelled: false, reason: undefined as unknown };
  let n = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulls++;
      controller.enqueue(toBytes(`data: ${n++}\n\n`));
    },
    cancel(reason) {
      state.cancelled = true;
      state.reason = reason;
    },
  });
  return { stream, state };
}

/** A stream that delivers one message and then never delivers anything again. */
function stallingStream() {
  const state = { cancelled: false, reason: undefined as unknown };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) controller.enqueue(toBytes("data: only\n\n"));
      sent = true;
      return new Promise(() => {}); // never resolves: the next read waits forever
    },
    cancel(reason) {
      state.cancelled = true;
      state.reason = reason;
    },
  });
  return { stream, state };
}

describe.each(apis)("%s lifecycle", (_name, parse) => {
  it("breaking out of for-await cancels the ReadableStream and releases its lock", async () => {
    const { stream, state } = endlessStream();
    let seen = 0;
    for await (const _ of parse(stream)) {
      if (++seen === 3) break;
    }
    expect(state.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
  });

  it("breaking out calls return() on an async-iterable source", async () => {
    let finalized = false;
    async function* source() {
      try {
        for (let i = 0; ; i++) yield toBytes(`data: ${i}\n\n`);
      } finally {
        finalized = true;
      }
    }
    for await (const _ of parse(source())) break;
    expect(finalized).toBe(true);
  });

  it("a source error reaches the consumer after the messages before it", async () => {
    const boom = new Error("connection reset");
    let step = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (step++ === 0) controller.enqueue(toBytes("data: a\n\n"));
        else controller.error(boom);
      },
    });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const m of parse(stream)) seen.push(m);
      })(),
    ).rejects.toBe(boom);
    expect(seen).toHaveLength(1);
  });

  it("an async-iterable source error propagates", async () => {
    const boom = new Error("bad source");
    async function* source() {
      yield toBytes("data: a\n\n");
      throw boom;
    }
    await expect(
      (async () => {
        for await (const _ of parse(source())) {
          // consume
        }
      })(),
    ).rejects.toBe(boom);
  });

  it("aborting mid-stream rejects with the abort reason and cancels the source", async () => {
    const { stream, state } = endlessStream();
    const controller = new AbortController();
    let seen = 0;
    const run = (async () => {
      for await (const _ of parse(stream, { signal: controller.signal })) {
        if (++seen === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toBe(2);
    expect(state.cancelled).toBe(true);
    expect(state.reason).toBe(controller.signal.reason);
  });

  it("aborting while the consumer holds an item cancels the source at once", async () => {
    const { stream, state } = endlessStream();
    const controller = new AbortController();
    const it = parse(stream, { signal: controller.signal })[Symbol.asyncIterator]();
    await it.next();
    const reason = new Error("user navigated away");
    controller.abort(reason);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.cancelled).toBe(true);
    expect(state.reason).toBe(reason);
    await expect(it.next()).rejects.toBe(reason);
    expect(await it.next()).toStrictEqual({ done: true, value: undefined });
  });

  it("aborting while a read is pending ends the wait at once", async () => {
    const { stream, state } = stallingStream();
    const controller = new AbortController();
    const it = parse(stream, { signal: controller.signal })[Symbol.asyncIterator]();
    await it.next(); // the one message
    const pending = it.next(); // waits on a read that never completes
    const reason = new Error("user navigated away");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(state.cancelled).toBe(true);
    expect(await it.next()).toStrictEqual({ done: true, value: undefined });
  });

  it("aborting while an async-iterable source is stuck ends the wait at once", async () => {
    async function* source() {
      yield toBytes("data: a\n\n");
      await new Promise(() => {});
    }
    const controller = new AbortController();
    const it = parse(source(), { signal: controller.signal })[Symbol.asyncIterator]();
    await it.next();
    const pending = it.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("an already-aborted signal rejects the first next() and cancels the stream", async () => {
    const { stream, state } = endlessStream();
    const reason = new Error("too late");
    const it = parse(stream, { signal: AbortSignal.abort(reason) })[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toBe(reason);
    expect(state.cancelled).toBe(true);
    expect(state.pulls).toBeLessThanOrEqual(1);
  });

  it("the abort listener is removed when the stream ends normally", async () => {
    const controller = new AbortController();
    let removed = 0;
    const signal = controller.signal;
    const original = signal.removeEventListener.bind(signal);
    signal.removeEventListener = ((...args: Parameters<typeof original>) => {
      removed++;
      return original(...args);
    }) as typeof signal.removeEventListener;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(toBytes("data: a\n\n"));
        c.close();
      },
    });
    for await (const _ of parse(stream, { signal })) {
      // consume
    }
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(stream.locked).toBe(false);
  });

  it("a string chunk is rejected with a TypeError that says to pass bytes", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue("data: a\n\n" as unknown as Uint8Array);
        c.close();
      },
    });
    await expect(
      (async () => {
        for await (const _ of parse(stream)) {
          // consume
        }
      })(),
    ).rejects.toThrow(/expects Uint8Array chunks, got a string/);
  });

  it("a stream already locked by another reader fails the first next(), then the iterator is done", async () => {
    const { stream } = endlessStream();
    const other = stream.getReader();
    const it = parse(stream)[Symbol.asyncIterator]();
    await expect(it.next()).rejects.toThrow(TypeError);
    expect(await it.next()).toStrictEqual({ done: true, value: undefined });
    other.releaseLock();
  });

  it("the source is not locked until iteration starts", () => {
    const { stream } = endlessStream();
    parse(stream);
    expect(stream.locked).toBe(false);
  });

  it("return() before any next() cancels the source, as a stream's own iterator does", async () => {
    const { stream, state } = endlessStream();
    const iterator = parse(stream)[Symbol.asyncIterator]();
    await iterator.return?.();
    expect(state.cancelled).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("return() before any next() calls return() on an async-iterable source", async () => {
    let returned = false;
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false as const, value: toBytes("data: x\n\n") }),
        return: async () => {
          returned = true;
          return { done: true as const, value: undefined };
        },
      }),
    };
    await parse(source)[Symbol.asyncIterator]().return?.();
    expect(returned).toBe(true);
  });
});

describe("parseSse iterator protocol", () => {
  it("concurrent next() calls resolve in order", async () => {
    const chunks = ["data: 1\n\ndata: 2\n\n", "data: 3\n\n", "data: 4", "\n\n"].map(toBytes);
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 1));
        const chunk = chunks[i++];
        if (chunk === undefined) c.close();
        else c.enqueue(chunk);
      },
    });
    const it = parseSse(stream)[Symbol.asyncIterator]();
    const results = await Promise.all([it.next(), it.next(), it.next(), it.next(), it.next()]);
    expect(results.map((r) => (r.done ? "done" : r.value.data))).toStrictEqual(["1", "2", "3", "4", "done"]);
  });

  it("next() after the end keeps returning done", async () => {
    const it = parseSse(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.close();
        },
      }),
    )[Symbol.asyncIterator]();
    expect(await it.next()).toStrictEqual({ done: true, value: undefined });
    expect(await it.next()).toStrictEqual({ done: true, value: undefined });
  });

  it("rejects sources that are neither streams nor async iterables", () => {
    expect(() => parseSse([toBytes("data: a\n\n")] as unknown as AsyncIterable<Uint8Array>)).toThrow(TypeError);
  });
});

describe("createSseParser", () => {
  it("end() discards an incomplete event and an unterminated line, then starts a fresh stream", () => {
    const seen: SseMessage[] = [];
    const parser = createSseParser({ onMessage: (m) => seen.push(m) });
    parser.feed(toBytes("retry: 9\nid: 4\ndata: a\n\ndata: incomplete\n"));
    parser.end();
    parser.feed(toBytes("data: b"));
    parser.end();
    parser.feed(toBytes("\uFEFFdata: c\n\n"));
    parser.end();
    expect(seen).toStrictEqual([
      { event: "message", data: "a", id: "4", retry: 9 },
      { event: "message", data: "c", id: "" },
    ]);
  });

  it("reset() mid-line drops the partial line", () => {
    const seen: string[] = [];
    const parser = createSseParser({ onMessage: (m) => seen.push(m.data) });
    parser.feed(toBytes("data: partial"));
    parser.reset();
    parser.feed(toBytes("data: whole\n\n"));
    expect(seen).toStrictEqual(["whole"]);
  });

  it("reset() after a chunk ending in CR does not swallow the next stream's first LF", () => {
    const seen: string[] = [];
    const parser = createSseParser({ onMessage: (m) => seen.push(m.data) });
    parser.feed(toBytes("data: a\r"));
    parser.reset();
    parser.feed(toBytes("\ndata: b\n\n"));
    expect(seen).toStrictEqual(["b"]);
  });

  it("calls callbacks as methods of the callbacks object", () => {
    const sink = {
      seen: [] as string[],
      onMessage(m: SseMessage) {
        this.seen.push(m.data);
      },
      onComment(c: string) {
        this.seen.push(`:${c}`);
      },
      onRetry(ms: number) {
        this.seen.push(`retry ${ms}`);
      },
    };
    createSseParser(sink).feed(toBytes(":hb\nretry: 3\ndata: x\n\n"));
    expect(sink.seen).toStrictEqual([":hb", "retry 3", "x"]);
  });

  it("an exception from a callback propagates out of feed() and stops the parser until reset()", () => {
    const seen: string[] = [];
    const parser = createSseParser({
      onMessage: (m) => {
        if (m.data === "bad") throw new Error("consumer bug");
        seen.push(m.data);
      },
    });
    expect(() => parser.feed(toBytes("data: ok\n\ndata: bad\n\ndata: lost\n\n"))).toThrow("consumer bug");
    parser.feed(toBytes("data: ignored\n\n"));
    parser.reset();
    parser.feed(toBytes("data: again\n\n"));
    expect(seen).toStrictEqual(["ok", "again"]);
  });

  it("rejects a string chunk", () => {
    const parser = createSseParser({ onMessage: () => {} });
    expect(() => parser.feed("data: x\n\n" as unknown as Uint8Array)).toThrow(TypeError);
  });
});
