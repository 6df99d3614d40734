/**
 * runAgent and the stream's resources, with default settings (the idle
 * timeout scaled down), against the audit server (./fault-server.ts): tool
 * results under rate limiting, and nothing left behind after a run,
 * whatever ended it: no stream connection open on the server, and nothing
 * keeping the process alive (a child process runs it: ./exit-probe.ts).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runAgent, ToolRegistry } from "../../index.js";
import type { Step } from "./fault-server.js";
import { auditServer } from "./support.js";

const { server, client } = await auditServer();

const IDLE = 400;
const tools = (delayMs = 0) =>
  new ToolRegistry().local({
    name: "add",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    handler: async ({ a, b }: { a: number; b: number }) => {
      await new Promise((r) => setTimeout(r, delayMs));
      return String(a + b);
    },
  });
const toolRun = (waitMs = 10_000): Step[] => [
  { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "add", args: { a: 1, b: 2 } } } },
  { awaitTool: "tu_1", waitMs },
  { emit: { type: "assistant_delta", data: { text: "3" } } },
  { emit: { type: "result", data: { subtype: "success", text: "3" } } },
];
const lastRun = () => [...server.runs.values()].at(-1)!;

/** Every stream connection closed on the server (the client let go of each), within a moment. Timers: see the last describe. */
async function settled(): Promise<void> {
  for (let i = 0; i < 100 && server.openStreams > 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(server.openStreams).toBe(0);
}

describe("tool results under rate limiting", () => {
  it("a 429 (Retry-After 0) to the tool-result POST is retried: the call is answered, one POST processed", async () => {
    server.script = toolRun();
    server.faults = () => ({});
    let posts = 0;
    server.toolResultFault = () => (++posts === 1 ? 429 : undefined);
    const terminal = await runAgent(
      client(),
      { systemPrompt: "s", prompt: "p" },
      { tools: tools(), idleTimeoutMs: IDLE },
    ).catch((e: unknown) => e);
    server.toolResultFault = () => undefined;
    expect((terminal as { type: string }).type).toBe("result");
    expect(lastRun().posts.get("tu_1")).toEqual([429, 200]);
  });

  it("a 503 to the tool-result POST (not resent: at most one POST per call) fails the run with the typed error and cancels it", async () => {
    server.script = toolRun(3000);
    server.faults = () => ({});
    server.toolResultFault = () => 503;
    const error = await runAgent(
      client(),
      { systemPrompt: "s", prompt: "p" },
      { tools: tools(), idleTimeoutMs: IDLE },
    ).catch((e: unknown) => e);
    server.toolResultFault = () => undefined;
    expect((error as { name: string; status: number }).name).toBe("ApiError");
    expect(lastRun().posts.get("tu_1")).toEqual([503]);
    expect(lastRun().cancels).toBe(1);
  });
});

describe("no stream connection left open", () => {
  it("after a run through drops and a stall", async () => {
    server.script = toolRun();
    server.faults = (n) => (n === 1 ? { dropAfter: 1 } : n === 2 ? { stallAfter: 0 } : {});
    await runAgent(client(), { systemPrompt: "s", prompt: "p" }, { tools: tools(), idleTimeoutMs: IDLE });
    await settled();
  });

  it("after a late result (409) past the terminal event", async () => {
    server.script = toolRun(100);
    server.faults = () => ({});
    await runAgent(client(), { systemPrompt: "s", prompt: "p" }, { tools: tools(400), idleTimeoutMs: IDLE });
    expect(lastRun().posts.get("tu_1")).toEqual([409]);
    await settled();
  });

  it("after a late result answered 404 with another code than unknown_tool_use: a late arrival, not a failure", async () => {
    server.script = toolRun(100);
    server.faults = () => ({});
    server.toolResultFault = () => 404;
    const outcomes: unknown[] = [];
    const terminal = await runAgent(
      client(),
      { systemPrompt: "s", prompt: "p" },
      {
        tools: tools(400),
        idleTimeoutMs: IDLE,
        onToolResult: (_c, o, info) => void outcomes.push([o.status, info.late]),
      },
    ).catch((e: unknown) => e);
    server.toolResultFault = () => undefined;
    expect(terminal).toMatchObject({ type: "result" });
    expect(outcomes).toEqual([["unknown_tool_use", true]]);
    expect(lastRun().posts.get("tu_1")).toEqual([404]);
    await settled();
  });

  it("after the consumer breaks out of a stream mid-run (the connection is let go)", async () => {
    server.script = [
      { emit: { type: "assistant_delta", data: { text: "a" } } },
      { pauseMs: 5000 },
      { emit: { type: "result", data: { subtype: "success" } } },
    ];
    server.faults = () => ({});
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    for await (const _ of c.streamRun(runId, { idleTimeoutMs: IDLE })) break;
    await settled();
  });

  it("after a caller's abort during a reconnect back-off", async () => {
    server.script = [
      { emit: { type: "assistant_delta", data: { text: "a" } } },
      { emit: { type: "result", data: { subtype: "success" } } },
    ];
    server.faults = () => ({ status: 503 });
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    const controller = new AbortController();
    const error = await (async () => {
      for await (const _ of c.streamRun(runId, {
        idleTimeoutMs: IDLE,
        signal: controller.signal,
        onReconnect: (i) => i.attempt === 2 && controller.abort(new Error("stop")),
      }))
        void _;
    })().catch((e: unknown) => e);
    expect((error as Error).message).toBe("stop");
    await settled();
  });
});

describe("the process can end after a run (nothing keeps its event loop alive)", () => {
  for (const kind of ["late", "faults"] as const) {
    it(`a ${kind === "late" ? "run with a late 409 result" : "run through a drop and a stall"}: the script returns and its process exits by itself`, async () => {
      server.script = toolRun(kind === "late" ? 100 : 10_000).map((s) =>
        "emit" in s && s.emit.type === "local_tool_call"
          ? { emit: { ...s.emit, data: { toolUseId: "tu_1", name: "add", args: { a: 3 } } } }
          : s,
      );
      server.faults =
        kind === "faults" ? (n) => (n === 1 ? { dropAfter: 1 } : n === 2 ? { stallAfter: 0 } : {}) : () => ({});
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "test/audit/exit-probe.ts", server.url, server.apiKey, kind],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      let out = "";
      child.stdout.on("data", (c: Buffer) => (out += c));
      // Far past the run, far short of the 60 s a leaked default timer (lateResultTimeoutMs, idle, request timeout) would hold it.
      const killer = setTimeout(() => child.kill(), 25_000);
      const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
      clearTimeout(killer);
      expect({ code, out: out.trim() }).toEqual({
        code: 0,
        out: JSON.stringify({ terminal: "result", outcomes: [kind === "late" ? "run_terminal" : "accepted"] }),
      });
    }, 40_000);
  }
});

describe("a local tool call of a kind this client does not know (a newer server's)", () => {
  it("is delivered, answered by one POST with an error the model can read, and the run goes on to its end", async () => {
    server.script = [
      {
        emit: {
          type: "local_tool_call",
          data: { toolUseId: "tu_new", name: "browse", args: { url: "https://example.com" }, kind: "browser_local" },
        },
      },
      { awaitTool: "tu_new", waitMs: 10_000 },
      { emit: { type: "result", data: { subtype: "success", text: "done" } } },
    ];
    server.faults = () => ({});
    const seen: string[] = [];
    const terminal = await runAgent(
      client(),
      { systemPrompt: "s", prompt: "p" },
      { tools: tools(), idleTimeoutMs: IDLE, onEvent: (e) => void seen.push(String(e.type)) },
    );
    expect(terminal).toMatchObject({ type: "result" });
    expect(seen).toContain("local_tool_call");
    expect(lastRun().posts.get("tu_new")).toEqual([200]);
    expect(lastRun().postBodies).toEqual([{ toolUseId: "tu_new", error: expect.stringContaining('"browser_local"') }]);
    await settled();
  });
});
