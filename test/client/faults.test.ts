/**
 * The fault suite: with the client's default settings (only the idle
 * timeout is scaled down, since some faults stall a connection), a stream
 * and runAgent deliver every event exactly once, in order, and end with the
 * terminal event, and every tool call is answered by exactly one POST,
 * whatever mix of faults the connections meet: drops, mid-frame cuts, clean
 * ends without a terminal event, stalls, half-open connections, 429/503,
 * wrong content types, replays (the resume hints ignored or stripped) and
 * heartbeat-only stretches; late answers (a tool that outlives the
 * server's timeout) included. The mixes are drawn from a seeded generator, so a
 * failure names its seed and reproduces.
 */
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent, ToolResultRequest } from "../../generated/types.js";
import { isTerminalEvent, runAgent, ToolRegistry } from "../../index.js";
import type { MockServer, StreamFault } from "../../generator/mock/index.js";
import { collect, useMockServer } from "./helpers.js";

const server = useMockServer();

/** Idle timeout of the suite (a few seconds in production, scaled down here): the stalls last longer. */
const IDLE_MS = 150;

/** mulberry32: a small seeded generator, so every mix reproduces from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mix of `count` faults for the next stream connections. */
function faultMix(seed: number, count: number): StreamFault[] {
  const next = random(seed);
  const int = (n: number): number => Math.floor(next() * n);
  const kinds: Array<() => StreamFault> = [
    () => ({ kind: "cut-bytes", after: 1 + int(300) }),
    () => ({ kind: "cut-events", after: int(4) }),
    () => ({ kind: "end-clean", after: int(4) }),
    () => ({ kind: "stall", after: int(3) }),
    () => ({ kind: "hang" }),
    () => ({ kind: "status", status: 503 }),
    () => ({ kind: "status", status: 429, retryAfterSeconds: 0 }),
    () => ({ kind: "non-sse" }),
    () => ({ kind: "wrong-type" }),
    () => ({ kind: "ignore-resume" }), // a server without resume, or a proxy stripping Last-Event-ID and ?lastSeq=
    () => ({ kind: "heartbeats", everyMs: 30, forMs: 100 }),
  ];
  return Array.from({ length: count }, () => kinds[int(kinds.length)]!());
}

/** A client with the defaults: no test-sized back-off, no tuned reconnect budget. */
function defaultClient(s: MockServer): MantyxClient {
  return new MantyxClient({ baseUrl: s.url, workspace: s.workspace, apiKey: s.apiKey, onWarning: () => undefined });
}

const SEEDS = Array.from({ length: 8 }, (_, i) => i + 1);

describe("fault suite, default settings", () => {
  it.each(SEEDS)("streamRun of a live run: every event exactly once, in order, ending with the terminal event (seed %i)", async (seed) => {
    const client = defaultClient(server());
    const { runId } = await client.createRun({ systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "many", count: "12", stepMs: "4" } });
    const faults = faultMix(seed, 4);
    server().faults.splice(0, server().faults.length, ...faults);
    const stream = client.streamRun(runId, { idleTimeoutMs: IDLE_MS });
    const events = (await collect(stream)) as AgentRunEvent[];
    const run = await server().waitForRun(runId);
    // (A run may end before it meets the last faults of its mix; it met some.)
    expect({ seed, faultsMet: faults.length - server().faults.length > 0 }).toEqual({ seed, faultsMet: true });
    server().faults.length = 0;
    expect({ seed, seqs: events.map((e) => e.seq) }).toEqual({ seed, seqs: run.events.map((e) => e.seq) });
    expect(isTerminalEvent(events[events.length - 1]!)).toBe(true);
    expect(stream.terminal).toBe(events[events.length - 1]);
  }, 60_000);

  it.each(SEEDS)("runAgent with three tool round trips: every event once and in order, every tool call answered by exactly one POST (seed %i)", async (seed) => {
    const next = random(seed * 7919);
    const client = defaultClient(server());
    const tools = new ToolRegistry().local({
      name: "lookup",
      handler: async (args: { round: number }) => {
        await new Promise((r) => setTimeout(r, Math.floor(next() * 30)));
        return `answer ${args.round}`;
      },
    });
    const seen: number[] = [];
    const before = server().requests.length;
    server().faults.splice(0, server().faults.length, ...faultMix(seed * 31, 5));
    const terminal = await runAgent(client, { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "tool-rounds", rounds: "3" } }, {
      tools,
      idleTimeoutMs: IDLE_MS,
      onEvent: (e) => void seen.push(e.seq),
    });
    const runId = [...server().runs.keys()].pop()!;
    const run = await server().waitForRun(runId);
    server().faults.length = 0;
    expect({ seed, seen }).toEqual({ seed, seen: run.events.map((e) => e.seq) });
    expect(terminal).toMatchObject({ type: "result", data: { text: "Tools said: answer 0 | answer 1 | answer 2" } });
    const calls = run.events.filter((e) => e.type === "local_tool_call").map((e) => (e as { data: { toolUseId: string } }).data.toolUseId);
    const posts = server()
      .requests.slice(before)
      .filter((r) => r.method === "POST" && r.path.endsWith("/tool-results"))
      .map((r) => (r.body as ToolResultRequest).toolUseId);
    expect({ seed, posts }).toEqual({ seed, posts: calls });
  }, 60_000);

  it.each(SEEDS)("runAgent whose tool outlives the server's tool timeout: the late answer is still posted exactly once, its 409 reported (seed %i)", async (seed) => {
    const client = defaultClient(server());
    const tools = new ToolRegistry().local({ name: "lookup", handler: () => new Promise((r) => setTimeout(() => r("late answer"), 120)) });
    const outcomes: unknown[] = [];
    const before = server().requests.length;
    server().faults.splice(0, server().faults.length, ...faultMix(seed * 131, 3));
    const terminal = await runAgent(client, { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "tool-rounds", rounds: "3", toolTimeoutMs: "40" } }, {
      tools,
      idleTimeoutMs: IDLE_MS,
      onToolResult: (_call, outcome, info) => outcomes.push([outcome.status, info.late]),
    });
    const runId = [...server().runs.keys()].pop()!;
    const run = await server().waitForRun(runId);
    server().faults.length = 0;
    expect(terminal).toMatchObject({ type: "error", data: { errorClass: "local_timeout" } });
    const calls = run.events.filter((e) => e.type === "local_tool_call").map((e) => (e as { data: { toolUseId: string } }).data.toolUseId);
    const posts = server()
      .requests.slice(before)
      .filter((r) => r.method === "POST" && r.path.endsWith("/tool-results"))
      .map((r) => (r.body as ToolResultRequest).toolUseId);
    expect({ seed, posts }).toEqual({ seed, posts: calls });
    // (`late` says whether runAgent had read the terminal event by then; with a slow stream it may not have.)
    expect(outcomes).toEqual([["run_terminal", expect.any(Boolean)]]);
  }, 60_000);
});
