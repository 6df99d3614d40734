/**
 * runtime/events on byte chunks (no network): chunk boundaries, batching,
 * terminal detection, onInvalid, and the layering rules (no MANTYX knowledge
 * in runtime/sse, no Node APIs or eval in the client runtime).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent } from "../../generated/types.js";
import type { DecodeEventsOptions } from "../../index.js";
import {
  decodeEventBatches,
  decodeEvents,
  decodeEventMessage,
  isTerminalEvent,
  runOutcome,
  StreamDecodeError,
} from "../../index.js";

const enc = new TextEncoder();
const frame = (seq: number, type: string, data: unknown) =>
  `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify({ seq, type, data })}\n\n`;

async function* chunks(text: string, sizes: number[]): AsyncIterable<Uint8Array> {
  const bytes = enc.encode(text);
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const STREAM = `${frame(1, "assistant_delta", { text: "héllo 😀" })}: heartbeat\n\n${frame(2, "result", { ok: true, text: "héllo 😀" })}`;

describe("decodeEvents", () => {
  it.each([[[1]], [[2, 3]], [[7]], [[64]], [[10_000]]])(
    "decodes the same events whatever the chunking (%j bytes per chunk)",
    async (sizes) => {
      const events = await all(decodeEvents(chunks(STREAM, sizes)));
      expect(events).toEqual([
        { seq: 1, type: "assistant_delta", data: { text: "héllo 😀" } },
        { seq: 2, type: "result", data: { ok: true, text: "héllo 😀" } },
      ]);
    },
  );

  it("takes the type from the envelope even when event: is missing or different", async () => {
    const text = `data: ${JSON.stringify({ seq: 1, type: "result", data: { ok: true } })}\n\n`;
    const [e] = await all(decodeEvents(chunks(text, [100])));
    expect(e).toMatchObject({ type: "result" });
  });

  it("ends after the terminal event and cancels the source", async () => {
    let cancelled = false;
    const text = frame(1, "cancelled", { reason: "user" }) + frame(2, "assistant_delta", { text: "after" });
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode(text));
      },
      cancel() {
        cancelled = true;
      },
    });
    const events = await all(decodeEvents(source));
    expect(events).toHaveLength(1);
    expect(cancelled).toBe(true);
  });

  it("ends cleanly at a terminal event even when bytes after it in the same chunk would be a decoding error (nothing after it is read)", async () => {
    const text = `${frame(1, "result", { ok: true })}data: ${"x".repeat(200)}`;
    for (const sizes of [[text.length], [40, 1000]]) {
      const events = await all(decodeEvents(chunks(text, sizes), { maxEventBytes: 100 }));
      expect(events.map((e) => e.type)).toEqual(["result"]);
      expect(await all(decodeEventBatches(chunks(text, sizes), { maxEventBytes: 100 }))).toHaveLength(1);
    }
  });

  it("batches: one array per chunk, never empty", async () => {
    const text =
      frame(1, "assistant_delta", { text: "a" }) +
      frame(2, "assistant_delta", { text: "b" }) +
      frame(3, "result", { ok: true });
    const batches = await all(decodeEventBatches(chunks(text, [text.length - 5, 5])));
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
  });

  it("calls onComment for heartbeats and onRetry for retry:", async () => {
    const comments: string[] = [];
    const retries: number[] = [];
    await all(
      decodeEvents(chunks(`retry: 1500\n\n${STREAM}`, [5]), {
        onComment: (c) => comments.push(c),
        onRetry: (ms) => retries.push(ms),
      }),
    );
    expect(comments).toEqual([" heartbeat"]);
    expect(retries).toEqual([1500]);
  });

  it('onInvalid "throw" delivers what came before, then throws', async () => {
    const text = `${frame(1, "assistant_delta", { text: "a" })}data: {oops\n\n${frame(3, "result", { ok: true })}`;
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const e of decodeEvents(chunks(text, [1000]))) seen.push(e);
      })(),
    ).rejects.toBeInstanceOf(StreamDecodeError);
    expect(seen).toHaveLength(1);
  });

  it('onInvalid "deliver" and "skip-and-warn"', async () => {
    const text = `${frame(1, "assistant_delta", { text: "a" })}data: {oops\n\n${frame(3, "assistant_delta", {})}${frame(4, "result", { ok: true })}`;
    const delivered = await all(decodeEvents(chunks(text, [9]), { onInvalid: "deliver" }));
    expect(delivered.map((d) => (d instanceof StreamDecodeError ? d.type : d.type))).toEqual([
      "assistant_delta",
      "invalid-json",
      "invalid-event",
      "result",
    ]);
    const warnings: string[] = [];
    const skipped = await all(
      decodeEvents(chunks(text, [9]), { onInvalid: "skip-and-warn", onWarning: (m) => warnings.push(m) }),
    );
    expect(skipped).toHaveLength(2);
    expect(warnings).toHaveLength(2);
  });

  it('validation "off" still requires the envelope', () => {
    expect(
      decodeEventMessage({ event: "x", data: '{"type":"assistant_delta","data":{}}', id: "" }, { validation: "off" }),
    ).toBeInstanceOf(StreamDecodeError);
    expect(
      decodeEventMessage(
        { event: "x", data: '{"seq":1,"type":"assistant_delta","data":{}}', id: "" },
        { validation: "off" },
      ),
    ).toEqual({ seq: 1, type: "assistant_delta", data: {} });
  });
});

describe('item types follow onInvalid (StreamDecodeError items only with "deliver")', () => {
  it("decodeEvents, decodeEventBatches and streamRun", () => {
    const body = new ReadableStream<Uint8Array>();
    expectTypeOf(decodeEvents(body)).toEqualTypeOf<AsyncIterableIterator<AgentRunEvent>>();
    expectTypeOf(
      decodeEvents(body, { onInvalid: "skip-and-warn", onRetry: (ms) => expectTypeOf(ms).toBeNumber() }),
    ).toEqualTypeOf<AsyncIterableIterator<AgentRunEvent>>();
    expectTypeOf(decodeEvents(body, { onInvalid: "deliver" })).toEqualTypeOf<
      AsyncIterableIterator<AgentRunEvent | StreamDecodeError>
    >();
    const options: DecodeEventsOptions = {};
    expectTypeOf(decodeEvents(body, options)).toEqualTypeOf<AsyncIterableIterator<AgentRunEvent | StreamDecodeError>>();
    expectTypeOf(decodeEventBatches(body)).toEqualTypeOf<AsyncIterableIterator<AgentRunEvent[]>>();
    const client = {} as MantyxClient;
    type Item<S> = S extends AsyncIterable<infer T> ? T : never;
    expectTypeOf<Item<ReturnType<typeof client.streamRun<"throw">>>>().toEqualTypeOf<AgentRunEvent>();
    expectTypeOf<Item<ReturnType<typeof client.streamRun<"deliver">>>>().toEqualTypeOf<
      AgentRunEvent | StreamDecodeError
    >();
    // The README's loop: a switch on the type with a default branch that reads the envelope.
    const loop = async () => {
      for await (const event of client.streamRun("run_1")) {
        switch (event.type) {
          case "assistant_delta":
            expectTypeOf(event.data.text).toBeString();
            break;
          default:
            expectTypeOf(event.seq).toBeNumber();
        }
      }
    };
    void loop;
  });
});

describe("terminal detection", () => {
  it.each([
    [{ seq: 1, type: "result", data: { ok: true } }, "succeeded"],
    [{ seq: 1, type: "result", data: { subtype: "success" } }, "succeeded"],
    [{ seq: 1, type: "result", data: { subtype: "error_local_tool_timeout", error: "x" } }, "failed"],
    [{ seq: 1, type: "result", data: { ok: false } }, "failed"],
    // Neither marker (the official SDKs' test servers send it): a success, unless it carries an error message (docs/schema-decisions.md).
    [{ seq: 1, type: "result", data: { text: "ok" } }, "succeeded"],
    [{ seq: 1, type: "result", data: { error: "boom" } }, "failed"],
    [{ seq: 1, type: "result", data: { error: "" } }, "succeeded"],
    [{ seq: 1, type: "result", data: { ok: true, error: "ignored: ok says" } }, "succeeded"],
    [{ seq: 1, type: "result", data: { subtype: "success", error: "ignored: subtype says" } }, "succeeded"],
    [{ seq: 1, type: "error", data: { error: "x", code: "server" } }, "failed"],
    [{ seq: 1, type: "cancelled", data: {} }, "cancelled"],
    [{ seq: 1, type: "assistant_message", data: { text: "" } }, undefined],
  ] as const)("%j -> %s", (event, outcome) => {
    expect(runOutcome(event)).toBe(outcome);
    expect(isTerminalEvent(event)).toBe(outcome !== undefined);
  });
});

describe("layering and portability", () => {
  const root = join(import.meta.dirname, "../..");
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const rel = `${dir}/${name}`;
      return statSync(join(root, rel)).isDirectory() ? files(rel) : rel.endsWith(".ts") ? [rel] : [];
    });

  it("runtime/sse knows no MANTYX event types", () => {
    for (const f of files("runtime/sse"))
      expect(readFileSync(join(root, f), "utf8")).not.toMatch(
        /\b(local_tool_call|assistant_delta|thinking_delta|tool_result|seq)\b/,
      );
  });

  it.each(["runtime/events", "runtime/client"])("%s imports no Node modules and uses no eval / new Function", (dir) => {
    for (const f of [...files(dir), "generated/client.ts"]) {
      const text = readFileSync(join(root, f), "utf8");
      expect(text, f).not.toMatch(/from "node:|require\(|from "(fs|http|net|path|url|util|crypto|stream|buffer)"/);
      expect(text, f).not.toMatch(/\beval\(|new Function\(|\bBuffer\b|\bprocess\./);
    }
  });
});
