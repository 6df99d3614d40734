/**
 * The fault suite: our own client (`streamRun`, and `runAgent` from
 * mantyx/) through every fault of the mock (generator/mock/faults/), each
 * alone and in 20 seeded combinations (`mix=N`), asked for the way an SDK's
 * test asks: the `X-Mock-Fault` header of the create-run request. With the
 * client's default settings (only the idle timeout is scaled down, since
 * some faults stall a connection): every event (and malformed frame, read
 * with `onInvalid: "deliver"`) is delivered once, in `seq` order, ending
 * with the terminal event, and every tool call is answered by exactly one
 * POST, counted on the server. Each case also checks that its faults were
 * met (the connections' `X-Mock-Faults`, or how many connections it
 * took): counts, never durations.
 */
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { FAULT_CATALOG, UNKNOWN_EVENT_TYPE } from "../../generator/mock/faults/index.js";
import type { MockRun, MockServer } from "../../generator/mock/index.js";
import { isTerminalEvent, runAgent, StreamDecodeError, ToolRegistry, UnexpectedResponseError } from "../../index.js";
import { collect, useMockServer } from "./helpers.js";

const server = useMockServer();

/** Idle timeout of the suite (60 s by default, scaled down here): stalls outlast it. */
const IDLE_MS = 150;

/** A client with the defaults: no test-sized back-off, no tuned reconnect budget. */
function defaultClient(s: MockServer): MantyxClient {
  return new MantyxClient({ baseUrl: s.url, workspace: s.workspace, apiKey: s.apiKey, onWarning: () => undefined });
}

/** The seq of a delivered item: an event's, or a malformed frame's `id:`. */
const seqOf = (item: unknown): number =>
  item instanceof StreamDecodeError ? Number(item.frame.id) : (item as AgentRunEvent).seq;

/** Each fault alone (a fault that only bites on a reconnect comes with the drop that causes one), and how many stream connections it takes at least. */
const ALONE: ReadonlyArray<readonly [spec: string, minConnections: number]> = [
  ["drop-after=2@*", 3],
  ["drop-after=0@1-2", 3],
  ["cut-frame=1@1-3,seed=1", 4],
  ["cut-frame=0@1", 2],
  ["cut-bytes=150@1-2", 3],
  ["end-clean=2@1-2", 3],
  ["end-clean=0@1", 2],
  ["stall=1", 2],
  ["stall=0", 2],
  ["heartbeat=20@*,delay=450", 1],
  ["delay=40", 1],
  ["chunk@*", 1],
  ["chunk=5@*", 1],
  ["status=503,retry-after=0", 2],
  ["status=429,retry-after=1", 2],
  ["status=502@1-2", 3],
  ["replay=3@2-,drop-after=3@1-2", 3],
  ["ignore-resume@2,drop-after=3", 2],
  ["ignore-resume=header@2-,drop-after=2@1-3", 4],
  ["ignore-resume=query@2-,drop-after=2@1-3", 4],
  ["eol=cr@*,drop-after=2", 2],
  ["eol=crlf@*,cut-frame=2", 2],
  ["eol=lf@*", 1],
  ["bom@*,drop-after=1", 2],
  ["unknown-event=2", 1],
  ["malformed-frame=3", 1],
  ["duplicate-call", 1],
];

/**
 * Faults a correct client fails the stream on (WHATWG SSE fails the connection): at once, with the typed error naming the content
 * type. On every connection: one the idle timeout gave up on before its answer came (a loaded machine) never showed the page.
 */
const FAILING = ["wrong-type=html@*", "wrong-type=json@*"] as const;

/** The run's last connection was answered with the wrong type: the client made none after the one it saw (an earlier one it had given up on may have been answered so too, unseen). */
function expectEndedByWrongType(run: MockRun): void {
  expect(
    server()
      .streams.filter((s) => s.runId === run.id)
      .at(-1)?.end,
  ).toBe("wrong-type");
}

/** Every connection fault named above. */
const NAMED = new Set(
  [...ALONE.map(([spec]) => spec), ...FAILING].flatMap((spec) => spec.split(",").map((i) => /^[a-z-]+/.exec(i)![0])),
);

const COMBINATIONS = Array.from({ length: 20 }, (_, i) => `mix=${i + 1}`);

function runTagged(tag: string): MockRun {
  const run = [...server().runs.values()].find(
    (r) => (r.spec["metadata"] as Record<string, string> | undefined)?.["tag"] === tag,
  );
  if (run === undefined) throw new Error(`no run tagged ${tag}`);
  return run;
}

/** The faults its connections met, and how many there were. */
function metFaults(run: MockRun): { connections: number; met: string[] } {
  const streams = server().streams.filter((s) => s.runId === run.id);
  return { connections: streams.length, met: streams.map((s) => s.faults).filter((f) => f !== "") };
}

/** Some fault took effect: a connection met one, or the run stores one. */
function expectSomeFaultMet(run: MockRun, spec: string): void {
  const { met } = metFaults(run);
  const stored =
    run.events.some((e) => e.type === UNKNOWN_EVENT_TYPE || "raw" in e) || run.faults.some((f) => f.run.length > 0);
  expect({ spec, metSome: met.length > 0 || stored }).toEqual({ spec, metSome: true });
}

let tags = 0;

async function streamRunThrough(spec: string): Promise<{ run: MockRun; items: unknown[] }> {
  const client = defaultClient(server());
  const tag = `stream-${++tags}`;
  const { runId } = await client.createRun(
    { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "many", count: "12", stepMs: "3", tag } },
    { headers: { "X-Mock-Fault": spec } },
  );
  const stream = client.streamRun(runId, { idleTimeoutMs: IDLE_MS, onInvalid: "deliver" });
  const items = await collect(stream);
  const run = await server().waitForRun(runId);
  expect(run.id).toBe(runTagged(tag).id);
  expect({ spec, seqs: items.map(seqOf) }).toEqual({ spec, seqs: run.events.map((e) => e.seq) });
  expect(isTerminalEvent(items[items.length - 1]!)).toBe(true);
  expect(stream.terminal).toBe(items[items.length - 1]);
  return { run, items };
}

async function runAgentThrough(spec: string): Promise<{ run: MockRun; seen: number[]; handled: number[] }> {
  const client = defaultClient(server());
  const tag = `agent-${++tags}`;
  const handled: number[] = [];
  const tools = new ToolRegistry().local({
    name: "lookup",
    handler: async (args: { round: number }) => {
      handled.push(args.round);
      return `answer ${args.round}`;
    },
  });
  const seen: number[] = [];
  const terminal = await runAgent(
    client,
    { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "tool-rounds", rounds: "3", tag } },
    // The header goes on every request runAgent makes, as a client-wide header would; the mock applies it to the run once.
    {
      tools,
      idleTimeoutMs: IDLE_MS,
      onInvalid: "deliver",
      headers: { "X-Mock-Fault": spec },
      onEvent: (e) => void seen.push(seqOf(e)),
    },
  );
  const run = await server().waitForRun(runTagged(tag).id);
  expect({ spec, seen }).toEqual({ spec, seen: run.events.map((e) => e.seq) });
  expect(terminal).toMatchObject({ type: "result", data: { text: "Tools said: answer 0 | answer 1 | answer 2" } });
  // Every call (however often it was delivered) answered by exactly one POST, counted by the server.
  const calls = [
    ...new Set(
      run.events
        .filter((e) => e.type === "local_tool_call")
        .map((e) => (e as { data: { toolUseId: string } }).data.toolUseId),
    ),
  ];
  expect({ spec, posts: Object.fromEntries(run.toolResultPosts) }).toEqual({
    spec,
    posts: Object.fromEntries(calls.map((id) => [id, 1])),
  });
  expect(handled).toEqual([0, 1, 2]);
  return { run, seen, handled };
}

describe("the suite covers every fault of the mock", () => {
  it("each connection and stored-event fault of the catalog appears alone above", () => {
    const faults = FAULT_CATALOG.filter((f) => f.scope !== "spec").map((f) => f.name);
    expect(faults.filter((f) => !NAMED.has(f))).toEqual([]);
  });
});

describe.concurrent("each fault alone, default client settings", () => {
  it.each(ALONE)(
    "streamRun through %s: every item once, in order, ending with the terminal event",
    async (spec, minConnections) => {
      const { run, items } = await streamRunThrough(spec);
      const { connections } = metFaults(run);
      expect({ spec, enough: connections >= minConnections }).toEqual({ spec, enough: true });
      expectSomeFaultMet(run, spec);
      if (spec.startsWith("unknown-event"))
        expect(items.filter((i) => String((i as AgentRunEvent).type) === UNKNOWN_EVENT_TYPE)).toHaveLength(1);
      if (spec.startsWith("malformed-frame"))
        expect(items.filter((i) => i instanceof StreamDecodeError)).toHaveLength(1);
      // Heartbeats kept a held-back connection alive: no reconnect.
      if (spec.startsWith("heartbeat")) expect(connections).toBe(1);
    },
    60_000,
  );

  it.each(ALONE)(
    "runAgent through %s: every event once, in order; every tool call run once and answered by one POST",
    async (spec, minConnections) => {
      const { run } = await runAgentThrough(spec);
      expect({ spec, enough: metFaults(run).connections >= minConnections }).toEqual({ spec, enough: true });
      expectSomeFaultMet(run, spec);
      if (spec === "duplicate-call") expect(run.events.filter((e) => e.type === "local_tool_call")).toHaveLength(6);
    },
    60_000,
  );
});

describe.concurrent("a 200 that is not an event stream, default client settings", () => {
  it.each(FAILING)(
    "streamRun through %s: the typed error naming the content type, no reconnect after it",
    async (spec) => {
      const client = defaultClient(server());
      const tag = `stream-${++tags}`;
      const { runId } = await client.createRun(
        {
          systemPrompt: "You are helpful.",
          prompt: "x",
          metadata: { scenario: "many", count: "12", stepMs: "3", tag },
        },
        { headers: { "X-Mock-Fault": spec } },
      );
      const reasons: unknown[] = [];
      const error = await collect(
        client.streamRun(runId, {
          idleTimeoutMs: IDLE_MS,
          onInvalid: "deliver",
          onReconnect: (i) => void reasons.push(i.reason),
        }),
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect((error as UnexpectedResponseError).contentType).toMatch(
        spec.includes("json") ? /^application\/json/ : /^text\/html/,
      );
      expectEndedByWrongType(runTagged(tag));
      expect(reasons.filter((r) => r instanceof UnexpectedResponseError)).toEqual([]);
    },
  );

  it.each(FAILING)("runAgent through %s: the same typed error, no tool run, no reconnect after it", async (spec) => {
    const client = defaultClient(server());
    const tag = `agent-${++tags}`;
    let ran = 0;
    const reasons: unknown[] = [];
    const tools = new ToolRegistry().local({ name: "lookup", handler: async () => String(++ran) });
    const error = await runAgent(
      client,
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "tool-rounds", rounds: "3", tag } },
      {
        tools,
        idleTimeoutMs: IDLE_MS,
        headers: { "X-Mock-Fault": spec },
        onReconnect: (i) => void reasons.push(i.reason),
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(ran).toBe(0);
    expectEndedByWrongType(runTagged(tag));
    expect(reasons.filter((r) => r instanceof UnexpectedResponseError)).toEqual([]);
  });
});

describe.concurrent("20 seeded combinations (mix=N), default client settings", () => {
  it.each(COMBINATIONS)(
    "streamRun through %s",
    async (spec) => {
      const { run } = await streamRunThrough(spec);
      expectSomeFaultMet(run, spec);
    },
    60_000,
  );

  it.each(COMBINATIONS)(
    "runAgent through %s",
    async (spec) => {
      const { run } = await runAgentThrough(spec);
      expectSomeFaultMet(run, spec);
    },
    60_000,
  );
});

describe("a malformed frame with the default onInvalid (throw)", () => {
  it("streamRun delivers the events before it once, then throws the typed decode error naming its seq", async () => {
    const client = defaultClient(server());
    const { runId } = await client.createRun(
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "many", count: "6" } },
      { headers: { "X-Mock-Fault": "malformed-frame=3,drop-after=2" } },
    );
    const seen: number[] = [];
    const error = await (async () => {
      for await (const e of client.streamRun(runId, { idleTimeoutMs: IDLE_MS })) seen.push(e.seq);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(StreamDecodeError);
    expect((error as StreamDecodeError).frame.id).toBe("4");
  });
});

describe.concurrent("late answers: a tool that outlives the server's tool timeout, through seeded combinations", () => {
  it.each([3, 8, 13])(
    "the late answer is still posted exactly once, its 409 reported (mix=%i)",
    async (n) => {
      const client = defaultClient(server());
      const tag = `late-${n}`;
      const tools = new ToolRegistry().local({
        name: "lookup",
        handler: () => new Promise((r) => setTimeout(() => r("late answer"), 120)),
      });
      const outcomes: unknown[] = [];
      const terminal = await runAgent(
        client,
        {
          systemPrompt: "You are helpful.",
          prompt: "x",
          metadata: { scenario: "tool-rounds", rounds: "3", toolTimeoutMs: "40", tag },
        },
        {
          tools,
          idleTimeoutMs: IDLE_MS,
          onInvalid: "deliver",
          headers: { "X-Mock-Fault": `mix=${n}` },
          onToolResult: (_call, outcome, info) => outcomes.push([outcome.status, info.late]),
        },
      );
      const run = await server().waitForRun(runTagged(tag).id);
      expect(terminal).toMatchObject({ type: "error", data: { errorClass: "local_timeout" } });
      const calls = [
        ...new Set(
          run.events
            .filter((e) => e.type === "local_tool_call")
            .map((e) => (e as { data: { toolUseId: string } }).data.toolUseId),
        ),
      ];
      expect(Object.fromEntries(run.toolResultPosts)).toEqual(Object.fromEntries(calls.map((id) => [id, 1])));
      // (`late` says whether runAgent had read the terminal event by then; with a slow stream it may not have.)
      expect(outcomes).toEqual([["run_terminal", expect.any(Boolean)]]);
    },
    60_000,
  );
});
