/**
 * runAgent and the tool registry through real HTTP: a full run with a local
 * tool round trip, a2a_local by Agent Card url, mcp_local by server label,
 * omitted kind, argument validation, handler failures and return values.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { AgentCard, ToolResultRequest } from "../../generated/types.js";
import {
  isTerminalEvent,
  MantyxConnectionError,
  MAX_ERROR_BYTES,
  runAgent,
  runOutcome,
  ToolRegistry,
  truncateUtf8,
  UnexpectedResponseError,
  withFiles,
} from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const server = useMockServer();

/** The tool-result POST bodies the server received for a run. */
function posted(runId: string): ToolResultRequest[] {
  return server()
    .requests.filter((r) => r.method === "POST" && r.path.endsWith(`/agent-runs/${runId}/tool-results`))
    .map((r) => r.body as ToolResultRequest);
}

/** The latest run the server created. */
function runIdOf(): string {
  return [...server().runs.keys()].pop()!;
}

const HR_CARD: AgentCard = {
  name: "Acme HR",
  url: "https://hr.intranet.acme/a2a",
  skills: [],
  provider: { organization: "Acme Co." },
};
const OTHER_CARD: AgentCard = { name: "Acme IT", url: "https://it.intranet.acme/a2a", skills: [] };

describe("runAgent", () => {
  it("runs a local tool round trip and resolves with the terminal result", async () => {
    const seen: string[] = [];
    const calls: unknown[] = [];
    const tools = new ToolRegistry().local({
      name: "compute_total",
      parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      handler: (args: { amount: number }, ctx) => {
        calls.push({ args, runId: ctx.runId });
        return `total ${args.amount * 2}`;
      },
    });
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "total?", metadata: { args: JSON.stringify({ amount: 21 }) } },
      { tools, onEvent: (e) => void seen.push(String((e as { type: unknown }).type)) },
    );
    const runId = runIdOf();
    expect(runOutcome(terminal)).toBe("succeeded");
    expect((terminal.data as { text: string }).text).toBe("Tool said: total 42");
    expect(calls).toEqual([{ args: { amount: 21 }, runId }]);
    expect(posted(runId)).toEqual([{ toolUseId: expect.stringMatching(/^tu_/), result: "total 42" }]);
    expect(seen).toContain("local_tool_call");
    expect(seen[seen.length - 1]).toBe("result");
    // The spec carried the registry's tool ref.
    const spec = server().runs.get(runId)!.spec as { tools: unknown[] };
    expect(spec.tools).toEqual([
      {
        kind: "local",
        name: "compute_total",
        parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
      },
    ]);
  });

  it("dispatches a local_tool_call without kind to the local registry", async () => {
    const tools = new ToolRegistry().local({ name: "ping", handler: () => "pong" });
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "ping", metadata: { omitKind: "true" } },
      { tools },
    );
    const runId = runIdOf();
    expect(
      server()
        .runs.get(runId)!
        .events.find((e) => e.type === "local_tool_call"),
    ).toMatchObject({ data: { name: "ping" } });
    expect(
      "kind" in
        (
          server()
            .runs.get(runId)!
            .events.find((e) => e.type === "local_tool_call") as { data: object }
        ).data,
    ).toBe(false);
    expect((terminal.data as { text: string }).text).toBe("Tool said: pong");
  });

  it("dispatches a2a_local by the Agent Card url, not by tool name", async () => {
    const hr: string[] = [];
    const it_: string[] = [];
    const tools = new ToolRegistry()
      .a2aLocal({
        name: "it_agent",
        agentCard: OTHER_CARD,
        handler: (_message, ctx) => {
          it_.push(ctx.call.name);
          return "IT answer";
        },
      })
      .a2aLocal({
        name: "hr_agent",
        agentCard: HR_CARD,
        handler: (message, ctx) => {
          hr.push(`${ctx.call.name}: ${message}`);
          return "PTO resets on Jan 1";
        },
      });
    // The spec declares the HR peer under another tool name; the IT peer is appended from the registry.
    const spec = {
      systemPrompt: "You are helpful.",
      prompt: "PTO?",
      metadata: { message: "When does PTO reset?" },
      tools: [{ kind: "a2a_local" as const, name: "hr_desk", agentCard: HR_CARD }],
    };
    const terminal = await runAgent(clientFor(server()), spec, { tools });
    expect(hr).toEqual(["hr_desk: When does PTO reset?"]);
    expect(it_).toEqual(["it_agent"]);
    expect((server().runs.get(runIdOf())!.spec as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(
      ["hr_desk", "it_agent"],
    );
    expect((terminal.data as { text: string }).text).toBe("Tool said: PTO resets on Jan 1 | IT answer");
  });

  it("indexes a2a_local peers by another Agent Card field when asked", async () => {
    const tools = new ToolRegistry({
      a2aIndexBy: (card) => (card.provider as { organization?: string } | undefined)?.organization,
    }).a2aLocal({
      name: "hr_agent",
      agentCard: HR_CARD,
      handler: () => "by organization",
    });
    const terminal = await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    expect((terminal.data as { text: string }).text).toBe("Tool said: by organization");
  });

  it("dispatches an a2a_local call without its Agent Card by tool name, and answers an unmatched one with a tool error", async () => {
    // Official SDK test servers send such calls (the card is required at the strict level only); the SDKs dispatch them by name.
    const asked: string[] = [];
    const tools = new ToolRegistry()
      .a2aLocal({
        name: "hr_agent",
        agentCard: HR_CARD,
        handler: (message) => {
          asked.push(message);
          return "PTO resets on Jan 1";
        },
      })
      .a2aLocal({ name: "it_agent", agentCard: OTHER_CARD, handler: () => "wrong peer" });
    const context = { runId: "run_x", signal: undefined };
    const call = (name: string) => ({
      toolUseId: "tu_1",
      name,
      args: { message: "When?" },
      kind: "a2a_local" as const,
    });
    expect(await tools.dispatch(call("hr_agent"), context)).toEqual({ result: "PTO resets on Jan 1" });
    expect(asked).toEqual(["When?"]);
    const unmatched = await tools.dispatch(call("nope"), context);
    expect(unmatched).toEqual({
      error:
        'The a2a_local call of tool "nope" came without its Agent Card, and no a2a_local peer is registered under that name.',
    });
    // With a card, the card decides (not the name).
    expect(await tools.dispatch({ ...call("hr_agent"), agentCard: OTHER_CARD }, context)).toEqual({
      result: "wrong peer",
    });
    // A fallback serves an unmatched cardless call.
    const withFallback = new ToolRegistry().fallback((c) => `fallback ran ${c.name}`);
    expect(await withFallback.dispatch(call("nope"), context)).toEqual({ result: "fallback ran nope" });
  });

  it("dispatches mcp_local by mcpServer, validates against inputSchema and flattens MCP content", async () => {
    const received: unknown[] = [];
    const fsTools = [
      {
        name: "fs_read_file",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ];
    const tools = new ToolRegistry()
      .mcpLocal({ name: "other", tools: [{ name: "other_tool" }], handler: (call) => `other server ran ${call.name}` })
      .mcpLocal({
        name: "fs",
        serverInfo: { name: "mcp-server-filesystem", version: "0.4.1" },
        tools: fsTools,
        handler: (call, ctx) => {
          received.push({ call, server: (ctx.call as { mcpServerInfo?: unknown }).mcpServerInfo });
          return {
            content: [
              { type: "text", text: "127.0.0.1 localhost" },
              { type: "image", data: "…" },
              { type: "text", text: "::1 localhost" },
            ],
          };
        },
      });
    const declared = tools.toolRefs().filter((t) => t.kind === "mcp_local" && t.name === "fs");
    const terminal = await runAgent(
      clientFor(server()),
      {
        systemPrompt: "You are helpful.",
        prompt: "hosts",
        tools: declared,
        metadata: { args: JSON.stringify({ path: "/etc/hosts" }) },
      },
      { tools },
    );
    expect(received).toEqual([
      {
        call: { name: "fs_read_file", arguments: { path: "/etc/hosts" } },
        server: { name: "mcp-server-filesystem", version: "0.4.1" },
      },
    ]);
    expect((terminal.data as { text: string }).text).toBe(
      "Tool said: 127.0.0.1 localhost\n::1 localhost | other server ran other_tool",
    );
  });

  describe("parameters as a Zod schema (Standard JSON Schema, §13: Zod / JSON Schema)", () => {
    const Args = z.object({ amount: z.number().min(0), currency: z.string().default("USD") });

    it("sends the JSON Schema it converts to, types the handler's arguments, and hands over the validated output (defaults applied)", async () => {
      const got: unknown[] = [];
      const tools = new ToolRegistry().local({
        name: "total",
        parameters: Args,
        outputSchema: z.object({ total: z.number() }),
        handler: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ amount: number; currency: string }>();
          got.push(args);
          return `${args.amount * 2} ${args.currency}`;
        },
      });
      const terminal = await runAgent(
        clientFor(server()),
        { systemPrompt: "You are helpful.", prompt: "x", metadata: { args: JSON.stringify({ amount: 21 }) } },
        { tools },
      );
      expect((terminal.data as { text: string }).text).toBe("Tool said: 42 USD");
      expect(got).toEqual([{ amount: 21, currency: "USD" }]);
      const [ref] = (server().runs.get(runIdOf())!.spec as { tools: Array<Record<string, unknown>> }).tools;
      expect(ref).toEqual({
        kind: "local",
        name: "total",
        parameters: z.toJSONSchema(Args, { io: "input" }),
        outputSchema: z.toJSONSchema(z.object({ total: z.number() }), { io: "output" }),
      });
      expect(ref!["parameters"]).toMatchObject({
        type: "object",
        properties: { amount: { type: "number", minimum: 0 } },
        required: ["amount"],
      });
    });

    it("posts the schema's own issues as the tool's error without calling the handler", async () => {
      let called = false;
      const tools = new ToolRegistry().local({
        name: "total",
        parameters: Args,
        handler: () => {
          called = true;
          return "x";
        },
      });
      await runAgent(
        clientFor(server()),
        { systemPrompt: "You are helpful.", prompt: "x", metadata: { args: JSON.stringify({ amount: -1 }) } },
        { tools },
      );
      expect(called).toBe(false);
      expect(posted(runIdOf())[0]!.error).toMatch(/^Invalid arguments for tool "total":\n- \/amount Too small/);
    });

    it("calls a Standard Schema's validate as a method (a library's validate may use `this`)", async () => {
      const schema = {
        prefix: "checked:",
        "~standard": {
          version: 1 as const,
          vendor: "acme",
          jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
          validate(this: unknown, value: unknown) {
            return { value: { seen: (this as { owner?: { prefix: string } }).owner?.prefix ?? "unbound", value } };
          },
          owner: undefined as unknown,
        },
      };
      schema["~standard"].owner = schema;
      const got: unknown[] = [];
      const tools = new ToolRegistry().local({
        name: "std",
        parameters: schema as never,
        handler: (args) => {
          got.push(args);
          return "ok";
        },
      });
      await runAgent(
        clientFor(server()),
        { systemPrompt: "You are helpful.", prompt: "x", metadata: { args: JSON.stringify({ a: 1 }) } },
        { tools },
      );
      expect(got).toEqual([{ seen: "checked:", value: { a: 1 } }]);
    });

    it("refuses, at registration and with the way out, a Standard Schema that cannot describe itself as JSON Schema", () => {
      const plain = {
        "~standard": { version: 1, vendor: "acme", validate: (v: unknown) => ({ value: v }) },
      } as unknown as z.ZodType<{ a: string }>;
      expect(() => new ToolRegistry().local({ name: "t", parameters: plain, handler: () => "x" })).toThrow(
        /local tool "t" is a Standard Schema \(acme\) that cannot describe itself as JSON Schema.*pass JSON Schema/,
      );
    });
  });

  it("posts invalid arguments back as the tool's error without calling the handler", async () => {
    let called = false;
    const tools = new ToolRegistry().local({
      name: "compute_total",
      parameters: {
        type: "object",
        properties: { amount: { type: "number", minimum: 0 } },
        required: ["amount", "currency"],
        additionalProperties: false,
      },
      handler: () => {
        called = true;
        return "x";
      },
    });
    await runAgent(
      clientFor(server()),
      {
        systemPrompt: "You are helpful.",
        prompt: "x",
        metadata: { args: JSON.stringify({ amount: -1, extra: true }) },
      },
      { tools },
    );
    expect(called).toBe(false);
    const [body] = posted(runIdOf());
    expect(body!.error).toContain('Invalid arguments for tool "compute_total"');
    expect(body!.error).toContain('must have property "currency"');
    expect(body!.error).toContain("/amount must be >= 0");
    expect(body!.error).toContain("/extra is not an allowed property");
  });

  it("posts a handler's throw as the tool's error, truncated to 8 KB of UTF-8", async () => {
    const tools = new ToolRegistry().local({
      name: "explode",
      handler: () => {
        throw new Error("é".repeat(6000)); // 12 000 bytes
      },
    });
    const terminal = await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    const [body] = posted(runIdOf());
    expect(body!.result).toBeUndefined();
    expect(new TextEncoder().encode(body!.error!).length).toBeLessThanOrEqual(MAX_ERROR_BYTES);
    expect(body!.error!.endsWith("…")).toBe(true);
    expect(body!.error!.startsWith("éé")).toBe(true);
    expect((terminal.data as { text: string }).text).toMatch(/^Tool said: error: é/);
  });

  it("JSON-encodes a handler result that is not a string", async () => {
    const tools = new ToolRegistry().local({ name: "structured", handler: async () => ({ id: "msg_1", n: [1, 2] }) });
    await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    expect(posted(runIdOf())[0]!.result).toBe('{"id":"msg_1","n":[1,2]}');
  });

  it("posts files with the result when the handler returns withFiles(...)", async () => {
    const chart = { filename: "chart.png", mimeType: "image/png", data: "iVBORw0KGgo=" };
    const tools = new ToolRegistry().local({ name: "plot", handler: () => withFiles("chart attached", [chart]) });
    await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    expect(posted(runIdOf())[0]).toEqual({ toolUseId: expect.any(String), result: "chart attached", files: [chart] });
  });

  it("posts an answer that fails the tool-result schema (21 files) as the tool's error, instead of failing the run", async () => {
    const file = { filename: "a.txt", mimeType: "text/plain", data: "YQ==" };
    const tools = new ToolRegistry().local({
      name: "many_files",
      handler: () =>
        withFiles(
          "see files",
          Array.from({ length: 21 }, () => file),
        ),
    });
    const terminal = await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    const bodies = posted(runIdOf());
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toEqual({
      toolUseId: expect.any(String),
      error: expect.stringMatching(/^The tool's answer could not be sent: .*\/files/s),
    });
    expect(Buffer.byteLength(bodies[0]!.error!)).toBeLessThanOrEqual(MAX_ERROR_BYTES);
    expect(runOutcome(terminal)).toBe("succeeded");
  });

  it("a handler still running past lateResultTimeoutMs after the terminal event is aborted and nothing is posted for it (no made-up answer)", async () => {
    let aborted: unknown;
    const tools = new ToolRegistry().local({
      name: "forever",
      handler: (_args, ctx) => new Promise<string>(() => ctx.signal!.addEventListener("abort", () => (aborted = true))),
    });
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { toolTimeoutMs: "100" } },
      { tools, lateResultTimeoutMs: 50 },
    );
    expect(terminal).toMatchObject({ type: "error", data: { errorClass: "local_timeout" } });
    expect(aborted).toBe(true);
    expect(posted(runIdOf())).toEqual([]);
  });

  it("posts the real result of a handler that finishes after the terminal event (the server timed the call out) exactly once, reports the 409 run_terminal outcome, and only then resolves", async () => {
    const outcomes: unknown[] = [];
    let signal: AbortSignal | undefined;
    let terminalRead!: () => void;
    const afterTerminal = new Promise<void>((resolve) => (terminalRead = resolve));
    const tools = new ToolRegistry().local({
      name: "late",
      handler: async (_args, ctx) => {
        signal = ctx.signal;
        await afterTerminal; // finishes only once runAgent has read the terminal event
        return "too late, but real";
      },
    });
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { toolTimeoutMs: "50" } },
      {
        tools,
        onEvent: (e) => void (isTerminalEvent(e) && terminalRead()),
        onToolResult: (call, outcome, info) =>
          outcomes.push({ name: call.name, status: outcome.status, late: info.late }),
      },
    );
    expect(terminal).toMatchObject({ type: "error", data: { errorClass: "local_timeout" } });
    expect(posted(runIdOf())).toEqual([{ toolUseId: expect.stringMatching(/^tu_/), result: "too late, but real" }]);
    expect(outcomes).toEqual([{ name: "late", status: "run_terminal", late: true }]);
    expect(signal!.aborted).toBe(true); // released once runAgent returned
  });

  it("a late handler's thrown error is posted as the tool's error after the terminal event", async () => {
    const tools = new ToolRegistry().local({
      name: "late",
      handler: async (_args, ctx) => {
        await server().waitForRun(ctx.runId);
        throw new Error("disk full");
      },
    });
    await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { toolTimeoutMs: "50" } },
      { tools },
    );
    expect(posted(runIdOf())).toEqual([{ toolUseId: expect.any(String), error: "disk full" }]);
  });

  it("a caller's abort while a handler runs aborts the handler and posts nothing for it", async () => {
    const controller = new AbortController();
    let aborted = false;
    const tools = new ToolRegistry().local({
      name: "slow",
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal!.addEventListener("abort", () => {
            aborted = true;
            resolve("answer after abort");
          });
          setTimeout(() => controller.abort(new Error("caller stop")), 20);
        }),
    });
    const error = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x" },
      { tools, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/caller stop/);
    expect(aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(posted(runIdOf())).toEqual([]);
    expect((await server().waitForRun(runIdOf())).status).toBe("cancelled");
  });

  it("runs a tool call delivered twice once, and posts once", async () => {
    let runs = 0;
    const tools = new ToolRegistry().local({ name: "once", handler: () => `run ${++runs}` });
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x" },
      { tools, headers: { "X-Mock-Fault": "duplicate-call" } },
    );
    const calls = (await server().waitForRun(runIdOf())).events.filter((e) => e.type === "local_tool_call");
    expect(calls).toHaveLength(2); // delivered twice, under two seqs
    expect(runs).toBe(1);
    expect(posted(runIdOf())).toHaveLength(1);
    expect((terminal.data as { text: string }).text).toBe("Tool said: run 1");
  });

  it("answers a call for an unregistered tool with an error instead of leaving the run waiting", async () => {
    const registered = new ToolRegistry().local({ name: "known", handler: () => "ok" });
    const declared = new ToolRegistry().local({ name: "unknown_tool", handler: () => "never" }).toolRefs();
    const terminal = await runAgent(
      clientFor(server()),
      { systemPrompt: "You are helpful.", prompt: "x", tools: declared },
      { tools: registered },
    );
    expect(posted(runIdOf())[0]!.error).toMatch(/No local tool named "unknown_tool"/);
    expect(runOutcome(terminal)).toBe("succeeded");
  });

  it("runs several tool calls of one turn concurrently", async () => {
    let inFlight = 0;
    let most = 0;
    const slow = async (): Promise<string> => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return "done";
    };
    const tools = new ToolRegistry().local({ name: "a", handler: slow }).local({ name: "b", handler: slow });
    await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    expect(most).toBe(2);
  });

  it("resolves with a failed terminal event when the run fails", async () => {
    const terminal = await runAgent(clientFor(server()), {
      systemPrompt: "You are helpful.",
      prompt: "x",
      metadata: { scenario: "truncated" },
    });
    expect(terminal.type).toBe("error");
    expect(runOutcome(terminal)).toBe("failed");
  });

  it("cancels the run when the signal aborts, and rejects with the reason", async () => {
    const controller = new AbortController();
    const client = clientFor(server());
    const promise = runAgent(
      client,
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "slow" } },
      { signal: controller.signal, onEvent: () => controller.abort(new Error("stop")) },
    );
    await expect(promise).rejects.toThrow("stop");
    const run = await server().waitForRun(runIdOf());
    expect(run.status).toBe("cancelled");
  });

  it.each<[string, string[], new (...args: never[]) => Error]>([
    ["reconnects exhausted", ["status=503", "status=503"], MantyxConnectionError],
    ["a 200 that is not an event stream, twice", ["wrong-type=json", "wrong-type=json"], UnexpectedResponseError],
  ])(
    "cancels the run (best effort) when the stream fails for good (%s), then rejects with the stream's error",
    async (_name, faults, type) => {
      server().faults.splice(0, server().faults.length, ...faults);
      const error = await runAgent(
        clientFor(server()),
        { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "slow" } },
        { maxReconnects: 1 },
      ).catch((e: unknown) => e);
      server().faults.length = 0;
      expect(error).toBeInstanceOf(type);
      const runId = runIdOf();
      expect(
        server().requests.filter((r) => r.method === "POST" && r.path.endsWith(`/agent-runs/${runId}/cancel`)),
      ).toHaveLength(1);
      expect((await server().waitForRun(runId)).status).toBe("cancelled");
    },
  );

  it("cancelOnFailure: false leaves the run alone when the stream fails", async () => {
    server().faults.splice(0, server().faults.length, "wrong-type=json");
    const client = clientFor(server());
    const error = await runAgent(
      client,
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "slow" } },
      { cancelOnFailure: false, maxReconnects: 0 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    const runId = runIdOf();
    expect(server().requests.some((r) => r.path.endsWith(`/agent-runs/${runId}/cancel`))).toBe(false);
    await client.cancelRun(runId);
  });

  it("a run whose terminal event is malformed ends in an error, with no needless cancel", async () => {
    const client = clientFor(server());
    const error = await runAgent(
      client,
      { systemPrompt: "You are helpful.", prompt: "x", metadata: { scenario: "invalid-terminal" } },
      { onInvalid: "deliver" },
    ).catch((e: unknown) => e);
    expect(String(error)).toMatch(/ended without a terminal event/);
    const runId = runIdOf();
    expect(server().requests.some((r) => r.path.endsWith(`/agent-runs/${runId}/cancel`))).toBe(false);
  });

  it("survives a dropped stream in the middle of a tool round trip", async () => {
    server().faults.push("drop-after=3");
    const tools = new ToolRegistry().local({ name: "t", handler: () => "fine" });
    const terminal = await runAgent(clientFor(server()), { systemPrompt: "You are helpful.", prompt: "x" }, { tools });
    expect((terminal.data as { text: string }).text).toBe("Tool said: fine");
    expect(posted(runIdOf())).toHaveLength(1);
  });
});

describe("truncateUtf8", () => {
  it.each([
    ["ascii under the limit", "abc", 8, "abc"],
    ["ascii over the limit", "abcdefghij", 8, "abcde…"],
    ["never splits a 2-byte character", "ééééé", 8, "éé…"],
    ["never splits a surrogate pair", "😀😀😀", 9, "😀…"],
  ])("%s", (_name, input, max, want) => {
    const got = truncateUtf8(input, max);
    expect(got).toBe(want);
    expect(new TextEncoder().encode(got).length).toBeLessThanOrEqual(max);
  });
});
