/**
 * Less hand-work around tool calls: handlers see the call's envelope (the
 * whole local_tool_call event), a catch-all handler serves tools nobody
 * declared up front (a dynamic MCP tool set), runAgent's onEvent is typed
 * by onInvalid, and answerToolCall answers a call on the plain streamRun
 * path from a handler's return value or thrown error. Over real HTTP.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AgentRunEvent, LocalToolCallEvent, ToolResultRequest } from "../../generated/types.js";
import {
  answerToolCall,
  runAgent,
  StreamDecodeError,
  ToolRegistry,
  withFiles,
  type ToolResultOutcome,
} from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const server = useMockServer();

const posted = (runId: string): ToolResultRequest[] =>
  server()
    .requests.filter((r) => r.method === "POST" && r.path.endsWith(`/agent-runs/${runId}/tool-results`))
    .map((r) => r.body as ToolResultRequest);
const lastRun = (): string => [...server().runs.keys()].pop()!;

describe("runAgent and the registry", () => {
  it("a handler sees the whole local_tool_call event (seq, type, data), not only its data", async () => {
    const seen: unknown[] = [];
    const tools = new ToolRegistry().local({
      name: "env",
      handler: (_args, ctx) => {
        seen.push({ seq: ctx.event?.seq, type: ctx.event?.type, same: ctx.event?.data === ctx.call });
        return "ok";
      },
    });
    await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    const call = server()
      .runs.get(lastRun())!
      .events.find((e) => e.type === "local_tool_call")!;
    expect(seen).toEqual([{ seq: call.seq, type: "local_tool_call", same: true }]);
  });

  it("a fallback handler answers calls no registered tool matches: a local tool the spec declares itself, and an MCP tool missing from the server's declared list (its CallToolResult flattened)", async () => {
    const calls: unknown[] = [];
    const tools = new ToolRegistry()
      .mcpLocal({ name: "fs", tools: [{ name: "fs_list" }], handler: () => "declared" })
      .fallback((call, ctx) => {
        calls.push({ name: call.name, kind: call.kind, run: ctx.runId === lastRun() });
        return call.kind === "mcp_local"
          ? { content: [{ type: "text", text: "dynamic mcp" }] }
          : { dynamic: call.name };
      });
    // The run calls a local tool no registry entry has, and an MCP tool of `fs` that the registry did not list.
    const declared = [
      { kind: "local" as const, name: "declared_elsewhere" },
      { kind: "mcp_local" as const, name: "fs", tools: [{ name: "fs_watch" }] },
    ];
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", tools: declared },
      { tools },
    );
    expect(calls).toEqual([
      { name: "declared_elsewhere", kind: "local", run: true },
      { name: "fs_watch", kind: "mcp_local", run: true },
    ]);
    expect(posted(lastRun()).map((b) => b.result)).toEqual(['{"dynamic":"declared_elsewhere"}', "dynamic mcp"]);
    expect(terminal).toMatchObject({ type: "result" });
  });

  it("without a fallback, such calls still get an error the model can read; a fallback that throws posts its error", async () => {
    const throwing = new ToolRegistry().fallback(() => {
      throw new Error("no such tool here");
    });
    await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", tools: [{ kind: "local", name: "ghost" }] },
      { tools: throwing },
    );
    expect(posted(lastRun())).toEqual([{ toolUseId: expect.any(String), error: "no such tool here" }]);
    expect(() => new ToolRegistry().fallback(() => "a").fallback(() => "b")).toThrow(/already registered/);
  });

  it('onEvent is typed by onInvalid: StreamDecodeErrors only with "deliver"', async () => {
    await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x" },
      {
        onEvent: (item) => {
          expectTypeOf(item).toEqualTypeOf<AgentRunEvent>();
        },
      },
    );
    const items: unknown[] = [];
    await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "invalid" } },
      {
        onInvalid: "deliver",
        onEvent: (item) => {
          expectTypeOf(item).toEqualTypeOf<AgentRunEvent | StreamDecodeError>();
          items.push(item);
        },
      },
    );
    expect(items.filter((i) => i instanceof StreamDecodeError)).toHaveLength(2);
  });
});

describe("answerToolCall on the plain streamRun path", () => {
  /** Streams a run with one local tool, answering its call with `handler`; the outcome and the POST body. */
  async function answerWith(
    handler: Parameters<typeof answerToolCall>[3],
    metadata: Record<string, string> = {},
  ): Promise<{ outcome: ToolResultOutcome; bodies: ToolResultRequest[] }> {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      tools: [{ kind: "local", name: "t" }],
      metadata,
    });
    let outcome: Promise<ToolResultOutcome> | undefined;
    for await (const event of client.streamRun(runId)) {
      if (event.type === "local_tool_call")
        outcome = answerToolCall(client, runId, event as LocalToolCallEvent, handler);
    }
    return { outcome: await outcome!, bodies: posted(runId) };
  }

  it("a string is posted as the result, with the event's arguments and context given to the handler", async () => {
    const got: unknown[] = [];
    const { outcome, bodies } = await answerWith(
      (args, ctx) => {
        got.push({ args, seq: typeof ctx.event?.seq });
        return "plain";
      },
      { args: JSON.stringify({ q: 1 }) },
    );
    expect(got).toEqual([{ args: { q: 1 }, seq: "number" }]);
    expect(outcome).toEqual({ status: "accepted", httpStatus: 204 });
    expect(bodies).toEqual([{ toolUseId: expect.any(String), result: "plain" }]);
  });

  it("a value that is not a string is JSON-encoded; withFiles carries files", async () => {
    expect((await answerWith(async () => ({ n: [1, 2] }))).bodies).toEqual([
      { toolUseId: expect.any(String), result: '{"n":[1,2]}' },
    ]);
    const file = { filename: "a.txt", mimeType: "text/plain", data: "YQ==" };
    expect((await answerWith(() => withFiles("see", [file]))).bodies).toEqual([
      { toolUseId: expect.any(String), result: "see", files: [file] },
    ]);
  });

  it("a thrown error (or rejection) is posted as the tool's error", async () => {
    const { bodies } = await answerWith(async () => {
      throw new Error("quota exceeded");
    });
    expect(bodies).toEqual([{ toolUseId: expect.any(String), error: "quota exceeded" }]);
  });

  it("a late answer's 409 run_terminal is returned as the outcome, not thrown", async () => {
    const { outcome, bodies } = await answerWith(() => new Promise((r) => setTimeout(() => r("late"), 150)), {
      toolTimeoutMs: "30",
    });
    expect(outcome).toMatchObject({ status: "run_terminal" });
    expect(bodies).toHaveLength(1);
  });
});
