/**
 * The generated client with its default settings (only the idle timeout is
 * set, scaled down as the suites set it to a few seconds) against
 * the audit's own fault-injecting server (./fault-server.ts): every event
 * exactly once and in order, nothing ending quietly short, and each fault
 * either survived or reported as a typed error.
 */
import { describe, expect, it } from "vitest";
import {
  isMantyxApiError,
  isMantyxConnectionError,
  isUnexpectedResponseError,
  runAgent,
  ToolRegistry,
} from "../../index.js";
import type { AuditRun, ConnectionFaults, Step } from "./fault-server.js";
import { auditServer } from "./support.js";

const { server, client } = await auditServer();

const IDLE = 400;

/** A run of deltas with non-ASCII text, then a terminal result. */
const chatter = (n: number): Step[] => [
  ...Array.from({ length: n }, (_, i) => ({ emit: { type: "assistant_delta", data: { text: `délta ${i} 😀\n` } } })),
  { emit: { type: "assistant_message", data: { text: "done", toolCalls: [] } } },
  { emit: { type: "result", data: { subtype: "success", text: "done" } } },
];

async function streamAll(
  faults: (n: number, run: AuditRun) => ConnectionFaults,
  steps: Step[],
  options: Record<string, unknown> = {},
) {
  server.script = steps;
  server.faults = faults;
  const c = client();
  const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
  const seqs: number[] = [];
  const types: string[] = [];
  const stream = c.streamRun(runId, { idleTimeoutMs: IDLE, ...options });
  let error: unknown;
  try {
    for await (const event of stream) {
      seqs.push((event as { seq: number }).seq);
      types.push((event as { type: string }).type);
    }
  } catch (e) {
    error = e;
  }
  const run = server.runs.get(runId)!;
  return { seqs, types, error, run, stream, runId };
}

/** Delivered exactly the stored log, once each, in order, ending with the terminal event; no stream connection left open. */
async function expectWhole(result: Awaited<ReturnType<typeof streamAll>>): Promise<void> {
  expect(result.error).toBeUndefined();
  expect(result.seqs).toEqual(result.run.log.map((e) => e.seq));
  expect(result.stream.terminal).toBeDefined();
  await expectNoOpenStream();
}

/** Every stream connection closed (the client let go of stalled ones), within a moment. */
async function expectNoOpenStream(): Promise<void> {
  for (let i = 0; i < 50 && server.openStreams > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(server.openStreams).toBe(0);
}

describe("connection faults, default settings", () => {
  const cases: Array<[string, (n: number) => ConnectionFaults]> = [
    ["no fault", () => ({})],
    ["drops after each frame", (n) => (n < 12 ? { dropAfter: 1 } : {})],
    ["cut mid-frame, 1..40 bytes in", (n) => (n < 12 ? { cutAfter: 1, cutBytes: n * 3 } : {})],
    [
      "cut between CR and LF (CRLF line ends)",
      (n) => (n < 6 ? { cutAfter: 1, cutBytes: "id: 2\r".length, eol: "\r\n" } : { eol: "\r\n" }),
    ],
    ["cut inside a UTF-8 sequence", (n) => (n < 3 ? { cutAfter: 2, cutBytes: 60 + n, chunk: 1 } : {})],
    ["clean ends without terminal", (n) => (n < 8 ? { endAfter: 2 } : {})],
    ["stalls (half-open) after 2 frames", (n) => (n < 3 ? { stallAfter: 2 } : {})],
    [
      "503 then 429 with Retry-After 0",
      (n) => (n === 1 ? { status: 503 } : n === 2 ? { status: 429, retryAfter: "0" } : {}),
    ],
    ["replays 3 old seqs on each reconnect", (n) => (n < 6 ? { dropAfter: 3, replay: 3 } : { replay: 3 })],
    ["stripped resume hints", (n) => (n < 5 ? { dropAfter: 2 + n, ignoreResume: true } : { ignoreResume: true })],
    ["CR line ends, BOM, 1-byte chunks", () => ({ eol: "\r", bom: true, chunk: 1 })],
    ["CRLF line ends in 3-byte chunks", () => ({ eol: "\r\n", chunk: 3 })],
    ["CRLF line ends in 1-byte chunks (every CR and LF apart)", () => ({ eol: "\r\n", chunk: 1 })],
    [
      "a partial frame, then a clean end (the partial frame is discarded)",
      (n) => (n < 8 ? { partialAfter: 1, partialBytes: 10 + n * 7 } : {}),
    ],
    [
      "a partial frame ending in its data line's last byte but no blank line, then a clean end",
      (n) => (n < 3 ? { partialAfter: 1, partialBytes: 10_000 } : {}),
    ],
    [
      "a partial frame, then silence (socket open)",
      (n) => (n < 3 ? { partialAfter: 2, partialBytes: 20, partialThen: "stall" } : {}),
    ],
    ["flat frames", (n) => (n < 3 ? { flat: true, dropAfter: 2 } : { flat: true })],
    [
      "flat frames with the type only on the event: line",
      (n) => (n < 3 ? { flatNoType: true, dropAfter: 2 } : { flatNoType: true }),
    ],
    [
      "comments, retry:, unknown fields and fields without colon before the frames",
      () => ({ preamble: ": hi\nretry: 10\nfoo: bar\nretry\nid\n\n" }),
    ],
  ];
  for (const [name, faults] of cases) {
    it(name, async () => {
      const result = await streamAll(faults, chatter(6));
      await expectWhole(result);
    });
  }
});

describe("what the server writes that the client must tolerate", () => {
  it("an unknown event type is delivered (the open variant), not dropped", async () => {
    const r = await streamAll(() => ({}), [{ emit: { type: "future_thing", data: { x: 1 } } }, ...chatter(1)]);
    await expectWhole(r);
    expect(r.types[0]).toBe("future_thing");
  });

  it("additive fields and additive enum values on known events", async () => {
    const r = await streamAll(
      () => ({}),
      [
        { emit: { type: "assistant_delta", data: { text: "a", newField: { deep: [1] } } } },
        {
          emit: {
            type: "task_plan",
            data: { brief: "b", steps: [{ id: "1", title: "t", status: "paused_new_status" }], v: 3 },
          },
        },
        {
          emit: {
            type: "error",
            data: { error: "e", code: "brand_new_class", errorClass: "brand_new_class", extra: true },
          },
        },
      ],
    );
    await expectWhole(r);
  });

  it("data split over several data: lines (joined with LF), and an event: line that disagrees with the JSON type (the JSON wins)", async () => {
    const r = await streamAll(
      () => ({}),
      [
        {
          emit: {
            type: "assistant_delta",
            rawData: JSON.stringify({ seq: 1, type: "assistant_delta", data: { text: "a" } }, null, 2),
          },
        },
        {
          emit: {
            type: "tool_call",
            rawData: JSON.stringify({ seq: 2, type: "assistant_delta", data: { text: "b" } }),
          },
        },
        ...chatter(1),
      ],
    );
    await expectWhole(r);
    expect(r.types.slice(0, 2)).toEqual(["assistant_delta", "assistant_delta"]);
  });

  it("a terminal error event ends the stream (typed, delivered once)", async () => {
    const r = await streamAll(
      (n) => (n < 3 ? { dropAfter: 1 } : {}),
      [
        { emit: { type: "assistant_delta", data: { text: "a" } } },
        {
          emit: {
            type: "error",
            data: {
              error: "Model output was truncated",
              code: "truncation",
              errorClass: "truncation",
              finishReason: "max_tokens",
              partialText: "{",
            },
          },
        },
      ],
    );
    await expectWhole(r);
    expect(r.types).toEqual(["assistant_delta", "error"]);
  });

  it("an id: line with NUL is ignored by the SSE rules; the seq in data still resumes", async () => {
    const r = await streamAll(
      (n) => (n < 3 ? { dropAfter: 2 } : {}),
      [
        { emit: { type: "assistant_delta", data: { text: "a" }, idLine: "1\0x" } },
        { emit: { type: "assistant_delta", data: { text: "b" }, idLine: null } },
        { emit: { type: "assistant_delta", data: { text: "c" }, noEventLine: true } },
        ...chatter(1),
      ],
    );
    await expectWhole(r);
  });

  it("a broken frame is a typed StreamDecodeError (default onInvalid throw), after the events before it", async () => {
    const r = await streamAll(
      () => ({}),
      [
        { emit: { type: "assistant_delta", data: { text: "a" } } },
        { emit: { type: "assistant_delta", rawData: '{"seq":2,"type":"assistant_delta","data":{"text":' } },
        ...chatter(1),
      ],
    );
    expect(r.seqs).toEqual([1]);
    expect((r.error as Error).name).toBe("StreamDecodeError");
  });

  it("a known type missing a field its type promises is a typed StreamDecodeError", async () => {
    const r = await streamAll(
      () => ({}),
      [{ emit: { type: "local_tool_call", data: { name: "x", args: {} } } }, ...chatter(1)],
    );
    expect(r.seqs).toEqual([]);
    expect((r.error as Error).name).toBe("StreamDecodeError");
  });

  it("a 4xx on reconnect is a MantyxApiError, not retried", async () => {
    const r = await streamAll((n) => (n === 1 ? { dropAfter: 1 } : { status: 403 }), chatter(3));
    expect(r.seqs).toEqual([1]);
    expect(isMantyxApiError(r.error)).toBe(true);
  });

  it("a wrong content type is an UnexpectedResponseError at once (WHATWG SSE fails the connection), on the first connection or a later one", async () => {
    const r = await streamAll(() => ({ contentType: "text/html; charset=utf-8" }), chatter(1), {
      reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
    });
    expect(r.run.connections).toBe(1);
    expect(isUnexpectedResponseError(r.error)).toBe(true);
    const later = await streamAll(
      (n) => (n === 1 ? { dropAfter: 2 } : n === 2 ? { contentType: "application/json" } : {}),
      chatter(3),
    );
    expect([later.run.connections, later.seqs]).toEqual([2, [1, 2]]);
    expect(isUnexpectedResponseError(later.error)).toBe(true);
  });

  it("connections that end cleanly with nothing while getRun says running (a proxy closing quiet streams) never fail the run", async () => {
    // While the run is quiet (the pause), every connection closes at once with nothing new.
    const r = await streamAll(
      (_n, run) => (run.log.length < 2 ? { endAfter: 0 } : {}),
      [{ emit: { type: "assistant_delta", data: { text: "a" } } }, { pauseMs: 1500 }, ...chatter(1)],
    );
    await expectWhole(r);
  });

  it("a stream that never comes back ends in MantyxConnectionError, never quietly", async () => {
    const r = await streamAll((n) => (n === 1 ? { dropAfter: 2 } : { status: 503 }), chatter(3), {
      reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
    });
    expect(r.seqs).toEqual([1, 2]);
    expect(isMantyxConnectionError(r.error)).toBe(true);
  });
});

describe("runAgent with default settings", () => {
  const toolScript = (waitMs = 10_000): Step[] => [
    { emit: { type: "assistant_delta", data: { text: "calling" } } },
    { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "add", args: { a: 1, b: 2 } } } },
    { awaitTool: "tu_1", waitMs },
    ...chatter(1),
  ];
  const registry = (delayMs = 0) =>
    new ToolRegistry().local({
      name: "add",
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      handler: async ({ a, b }: { a: number; b: number }) => {
        await new Promise((r) => setTimeout(r, delayMs));
        return String(a + b);
      },
    });

  async function run(
    faults: (n: number) => ConnectionFaults,
    steps: Step[],
    delayMs = 0,
    extra: Record<string, unknown> = {},
  ) {
    server.script = steps;
    server.faults = faults;
    const seqs: number[] = [];
    const outcomes: string[] = [];
    let error: unknown;
    let terminal: unknown;
    try {
      terminal = await runAgent(
        client(),
        { systemPrompt: "s", prompt: "p" },
        {
          tools: registry(delayMs) as never,
          idleTimeoutMs: IDLE,
          onEvent: (e) => void seqs.push((e as { seq: number }).seq),
          onToolResult: (_c, o, info) => void outcomes.push(`${o.status}${info.late ? " late" : ""}`),
          ...extra,
        },
      );
    } catch (e) {
      error = e;
    }
    const r = [...server.runs.values()].at(-1)!;
    return { seqs, outcomes, error, terminal, run: r };
  }

  it("a tool round trip under drops, replays and stripped hints: one POST, every event once", async () => {
    const r = await run((n) => (n < 6 ? { dropAfter: 1, ignoreResume: n % 2 === 0, replay: 2 } : {}), toolScript());
    expect(r.error).toBeUndefined();
    expect(r.seqs).toEqual(r.run.log.map((e) => e.seq));
    expect(r.run.posts.get("tu_1")).toEqual([200]);
  });

  it("five calls of one turn under drops, replays and stripped hints: each answered by exactly one POST", async () => {
    const ids = ["tu_a", "tu_b", "tu_c", "tu_d", "tu_e"];
    const r = await run(
      (n) => (n < 8 ? { dropAfter: 2, ignoreResume: n % 3 === 0, replay: 3 } : {}),
      [
        ...ids.map((id, i) => ({
          emit: { type: "local_tool_call", data: { toolUseId: id, name: "add", args: { a: i, b: 1 } } },
        })),
        // The server's patience is not under test: the replaying connections bring nothing new, so the back-off grows over them
        // (about 7.6 s of waits in one run, by onReconnect), and the default 10 s tool timeout then ended the run on a loaded machine.
        ...ids.map((id) => ({ awaitTool: id, waitMs: 60_000 })),
        ...chatter(1),
      ],
      30,
    );
    expect(r.error).toBeUndefined();
    expect(r.seqs).toEqual(r.run.log.map((e) => e.seq));
    expect(Object.fromEntries(r.run.posts)).toEqual(Object.fromEntries(ids.map((id) => [id, [200]])));
    expect(r.run.postBodies.map((b) => (b as { result: string }).result).sort()).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("a slow tool (20 idle timeouts) with no heartbeats completes, one POST", async () => {
    const r = await run(() => ({}), toolScript(), IDLE * 20);
    expect(r.error).toBeUndefined();
    expect(r.seqs).toEqual(r.run.log.map((e) => e.seq));
    expect(r.run.posts.get("tu_1")).toEqual([200]);
  }, 30_000);

  it("a tool answered after the server timed it out: the terminal event, then one late POST answered 409 run_terminal", async () => {
    const r = await run(() => ({}), toolScript(200), 900);
    expect(r.error).toBeUndefined();
    expect(r.run.posts.get("tu_1")).toEqual([409]);
    expect(r.outcomes).toEqual(["run_terminal late"]);
  });

  it("a duplicated local_tool_call (its own seq) runs once and posts once", async () => {
    const r = await run(
      () => ({}),
      [
        { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "add", args: { a: 1, b: 2 } } } },
        { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "add", args: { a: 1, b: 2 } } } },
        { awaitTool: "tu_1" },
        ...chatter(1),
      ],
    );
    expect(r.error).toBeUndefined();
    expect(r.run.posts.get("tu_1")).toEqual([200]);
  });

  it("a local_tool_call of a kind no schema names (a newer server's) is delivered and answered by one POST with an error, through drops; the run goes on", async () => {
    const r = await run(
      (n) => (n < 3 ? { dropAfter: 1 } : {}),
      [
        {
          emit: {
            type: "local_tool_call",
            data: { toolUseId: "tu_1", name: "add", args: { a: 1, b: 2 }, kind: "wasm_local" },
          },
        },
        { awaitTool: "tu_1", waitMs: 3000 },
        ...chatter(1),
      ],
    );
    expect(r.error).toBeUndefined();
    expect(r.seqs).toEqual(r.run.log.map((e) => e.seq));
    expect(r.run.posts.get("tu_1")).toEqual([200]);
    expect(r.run.cancels).toBe(0);
  });
});
