/**
 * When the client reconnects and when it gives up, with its default
 * settings: at once after a connection that delivered events; a back-off
 * that grows only over connections in a row that delivered nothing, and
 * honours Retry-After; request retries and stream reconnects set apart; a
 * live run's silence (a slow tool, no heartbeats) never failing a run under
 * the idle timeout; and a timeout on every non-stream request. Counted, not
 * timed: the delays come from onReconnect, the attempts from the server.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent, ToolResultRequest } from "../../generated/types.js";
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  MantyxConnectionError,
  runAgent,
  ToolRegistry,
  type ClientOptions,
  type ReconnectInfo,
} from "../../index.js";
import { reconnectDelay } from "../../runtime/client/internal/backoff.js";
import type { MockServer } from "../../generator/mock/index.js";
import { collect, useMockServer } from "./helpers.js";

const server = useMockServer();

/** A client with the library's defaults (no test-sized back-off), plus `options`. */
function defaultClient(s: MockServer, options: Partial<ClientOptions> = {}): MantyxClient {
  return new MantyxClient({
    baseUrl: s.url,
    workspace: s.workspace,
    apiKey: s.apiKey,
    onWarning: () => undefined,
    ...options,
  });
}

async function finishedRun(count: number): Promise<{ runId: string; seqs: number[] }> {
  const { runId } = await defaultClient(server()).createRun({
    systemPrompt: "You are helpful.",
    prompt: "x",
    metadata: { scenario: "many", count: String(count) },
  });
  const run = await server().waitForRun(runId);
  return { runId, seqs: run.events.map((e) => e.seq) };
}

afterEach(() => {
  vi.restoreAllMocks();
  server().faults.length = 0;
});

describe("stream reconnects", () => {
  it("after a connection that delivered events, reconnects at once (a little jitter), whatever the request retry back-off is", async () => {
    const { runId, seqs } = await finishedRun(6);
    server().faults.push(...Array.from({ length: 5 }, () => "drop-after=1"));
    const infos: ReconnectInfo[] = [];
    const client = defaultClient(server(), { retryDelay: { initialDelayMs: 5000, maxDelayMs: 10_000 } });
    const events = (await collect(client.streamRun(runId, { onReconnect: (i) => infos.push(i) }))) as AgentRunEvent[];
    expect(events.map((e) => e.seq)).toEqual(seqs);
    expect(infos).toHaveLength(5);
    for (const info of infos) {
      expect(info.attempt).toBe(1);
      expect(info.delayMs).toBeLessThanOrEqual(25);
      expect(info.counted).toBe(false);
    }
  });

  it("the back-off grows only over connections in a row that delivered nothing, and starts again after progress", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0); // the shortest jitter: delays are exact
    const { runId, seqs } = await finishedRun(6);
    server().faults.push("drop-after=1", "status=503", "status=503", "status=503", "drop-after=1");
    const infos: ReconnectInfo[] = [];
    const client = defaultClient(server(), { reconnectDelay: { initialDelayMs: 10, maxDelayMs: 30 } });
    const events = (await collect(client.streamRun(runId, { onReconnect: (i) => infos.push(i) }))) as AgentRunEvent[];
    expect(events.map((e) => e.seq)).toEqual(seqs);
    expect(infos.map((i) => [i.attempt, i.delayMs, i.counted])).toEqual([
      [1, 0, false], // after progress: at once
      [2, 5, true], // 10 ms, equal jitter
      [3, 10, true], // doubled
      [4, 15, true], // 40, capped at 30
      [1, 0, false], // progress again: at once
    ]);
  });

  it("never reconnects sooner than a Retry-After", async () => {
    const { runId } = await finishedRun(2);
    server().faults.push("status=503,retry-after=1");
    const delays: number[] = [];
    await collect(defaultClient(server()).streamRun(runId, { onReconnect: (i) => delays.push(i.delayMs) }));
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(1000);
  });

  it("the reconnect back-off is bounded by its cap, and a retry: above it is honoured", () => {
    for (const empties of [1, 5, 30]) expect(reconnectDelay(empties, undefined)).toBeLessThanOrEqual(5000);
    expect(reconnectDelay(30, { maxDelayMs: 100 }, 3000)).toBe(3000);
    expect(reconnectDelay(0, undefined, 250)).toBe(250);
  });
});

describe("a slow tool behind a silent server", () => {
  /** The run's tool-result POSTs. */
  const posts = (runId: string): ToolResultRequest[] =>
    server()
      .requests.filter((r) => r.method === "POST" && r.path.endsWith(`/agent-runs/${runId}/tool-results`))
      .map((r) => r.body as ToolResultRequest);

  it("a tool taking 15 idle timeouts (15 s at a 1 s idle timeout, scaled down) completes: the silent connections of a live run do not count toward maxReconnects", async () => {
    const infos: ReconnectInfo[] = [];
    const tools = new ToolRegistry().local({
      name: "slow",
      handler: () => new Promise((r) => setTimeout(() => r("finally"), 1500)),
    });
    const terminal = await runAgent(
      defaultClient(server()),
      { systemPrompt: "You are helpful.", prompt: "x" },
      { tools, idleTimeoutMs: 100, onReconnect: (i) => infos.push(i) },
    );
    expect(terminal).toMatchObject({ type: "result", data: { text: "Tool said: finally" } });
    const runId = [...server().runs.keys()].pop()!;
    expect(posts(runId)).toHaveLength(1);
    // More idle reconnects than the default maxReconnects (8) allows in a row, none of them counted.
    expect(infos.length).toBeGreaterThan(8);
    expect(infos.every((i) => !i.counted)).toBe(true);
    expect(server().requests.some((r) => r.path.endsWith(`/agent-runs/${runId}/cancel`))).toBe(false);
  }, 20_000);

  it("with every default (a 60 s idle timeout), the same slow tool needs no reconnect at all", async () => {
    expect(DEFAULT_IDLE_TIMEOUT_MS).toBe(60_000);
    const infos: ReconnectInfo[] = [];
    const tools = new ToolRegistry().local({
      name: "slow",
      handler: () => new Promise((r) => setTimeout(() => r("finally"), 300)),
    });
    const terminal = await runAgent(
      defaultClient(server()),
      { systemPrompt: "You are helpful.", prompt: "x" },
      { tools, onReconnect: (i) => infos.push(i) },
    );
    expect(terminal).toMatchObject({ type: "result" });
    expect(infos).toEqual([]);
  });

  it("a half-open connection (headers, then nothing) is noticed by the idle timeout and resumed", async () => {
    const { runId, seqs } = await finishedRun(3);
    server().faults.push("stall=1", "stall=0");
    const events = (await collect(defaultClient(server()).streamRun(runId, { idleTimeoutMs: 100 }))) as AgentRunEvent[];
    expect(events.map((e) => e.seq)).toEqual(seqs);
    expect(server().faults).toEqual([]);
  });
});

describe("request timeout", () => {
  it("a stalled request (no answer) fails with MantyxConnectionError after timeoutMs instead of hanging; per call it overrides the client's", async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(60_000);
    // Every request stalls while this test runs: on a loaded machine a request the client gave up on
    // may reach the server after the next one, so a count of one stall each would race.
    server().stallNext(1_000);
    try {
      const e = await defaultClient(server(), { timeoutMs: 100 })
        .createRun({ systemPrompt: "You are helpful.", prompt: "x" })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MantyxConnectionError);
      expect((e as Error).message).toBe("createRun: no complete answer within 100 ms (timeoutMs)");
      const perCall = await defaultClient(server())
        .listModels({ timeoutMs: 80 })
        .catch((x: unknown) => x);
      expect((perCall as Error).message).toBe("listModels: no complete answer within 80 ms (timeoutMs)");
    } finally {
      server().stallNext(0);
    }
  });

  it("a body that stalls half-way is covered too", async () => {
    server().stallNext(1, "body");
    const e = await defaultClient(server(), { timeoutMs: 100 })
      .createRun({ systemPrompt: "You are helpful.", prompt: "x" })
      .catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/^createRun: no complete answer within 100 ms/);
  });

  it("0 turns it off (the caller's signal still ends the call)", async () => {
    server().stallNext(1);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("caller gave up")), 150);
    const e = await defaultClient(server(), { timeoutMs: 0 })
      .listModels({ signal: controller.signal })
      .catch((x: unknown) => x);
    expect((e as Error).message).toBe("caller gave up");
  });
});
