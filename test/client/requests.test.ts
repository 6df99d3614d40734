/**
 * What the client sends: every operation of the schema, credentials in
 * either header, the client identification, request validation (every
 * problem listed, nothing sent), and tool-result outcomes.
 */
import { describe, expect, it } from "vitest";
import { CLIENT_VERSION, MantyxClient, operations } from "../../generated/client.js";
import type { RunCreateRequest } from "../../generated/types.js";
import { MantyxConnectionError, RequestValidationError } from "../../index.js";
import { clientFor, collect, useMockServer } from "./helpers.js";

const server = useMockServer();
const olderServer = useMockServer({ vintage: "older" });
const plainServer = useMockServer({ plainTextAcks: true });

function last(): { method: string; path: string; headers: Record<string, unknown>; body: unknown } {
  return server().requests[server().requests.length - 1]!;
}

describe("operations", () => {
  it("has one method per operation of the schema, named by operationId", () => {
    const names = Object.keys(operations).sort();
    expect(names).toEqual([
      "cancelRun",
      "createRun",
      "createSession",
      "deleteSession",
      "getRun",
      "getSession",
      "getUserInfo",
      "listModels",
      "listRuns",
      "listSessionEvents",
      "listSessions",
      "postToolResult",
      "sendSessionMessage",
      "streamRun",
      "submitRunFeedback",
    ]);
    const client = clientFor(server()) as unknown as Record<string, unknown>;
    for (const name of names) expect(typeof client[name]).toBe("function");
  });

  it("calls every JSON route and returns its body", async () => {
    const client = clientFor(server());
    const models = await client.listModels();
    expect(models.defaultModelId).toBe("platform:demo");
    expect(last()).toMatchObject({ method: "GET", path: "/api/v1/workspaces/acme/models" });

    const run = await client.createRun({ systemPrompt: "You are helpful.", prompt: "hi" });
    expect(run.streamUrl).toBe(`/api/v1/workspaces/acme/agent-runs/${run.runId}/stream`);
    await server().waitForRun(run.runId);
    const snapshot = await client.getRun(run.runId);
    expect(snapshot).toMatchObject({ status: "succeeded", turns: 1 });

    const { sessionId } = await client.createSession({ systemPrompt: "You help.", metadata: { customer: "acme" } });
    expect(await client.getSession(sessionId)).toEqual({ sessionId, status: "active" });
    const turn = await client.sendSessionMessage(sessionId, { prompt: "And for Bob?", metadata: { turn: "2" } });
    expect(server().runs.get(turn.runId)!.spec).toMatchObject({
      systemPrompt: "You help.",
      prompt: "And for Bob?",
      metadata: { customer: "acme", turn: "2" },
    });
    expect(await client.deleteSession(sessionId)).toBeUndefined();
    expect((await client.getSession(sessionId)).status).toBe("ended");

    expect(await client.cancelRun(run.runId)).toBeUndefined();
    expect(last()).toMatchObject({ method: "POST", path: `/api/v1/workspaces/acme/agent-runs/${run.runId}/cancel` });
    expect(await client.getUserInfo()).toMatchObject({ sub: "usr_123" });
    expect(last().path).toBe("/api/oauth/userinfo");
  });

  it("sends the credential as Authorization: Bearer by default, or as X-API-Key", async () => {
    await clientFor(server()).listModels();
    expect(last().headers["authorization"]).toBe(`Bearer ${server().apiKey}`);
    expect(last().headers["x-api-key"]).toBeUndefined();
    await clientFor(server(), { credentialHeader: "x-api-key" }).listModels();
    expect(last().headers["x-api-key"]).toBe(server().apiKey);
    expect(last().headers["authorization"]).toBeUndefined();
  });

  it("identifies itself with a User-Agent naming the package version outside browsers", async () => {
    await clientFor(server(), { userAgent: "my-app/1.2" }).listModels();
    expect(last().headers["user-agent"]).toBe(`@mantyx/wire-types/${CLIENT_VERSION} my-app/1.2`);
    await clientFor(server()).listModels();
    expect(last().headers["user-agent"]).toBe(`@mantyx/wire-types/${CLIENT_VERSION}`);
  });

  it("escapes path parameters and lets a call override the workspace", async () => {
    const client = clientFor(server());
    await client.getRun("run/../x", { workspace: "acme" }).catch(() => undefined);
    expect(last().path).toBe("/api/v1/workspaces/acme/agent-runs/run%2F..%2Fx");
    await expect(new MantyxClient({ baseUrl: server().url }).listModels()).rejects.toThrow(
      /listModels: pass \{ workspace \}/,
    );
  });

  it("accepts the older vintage's statuses (202 for a run)", async () => {
    const client = clientFor(olderServer());
    const run = await client.createRun({ systemPrompt: "You are helpful.", prompt: "hi" });
    expect(olderServer().requests[olderServer().requests.length - 1]!.status).toBe(202);
    expect((await collect(client.streamRun(run.runId))).length).toBeGreaterThan(0);
  });
});

describe("request validation", () => {
  const bad = {
    prompt: "x",
    messages: [{ role: "user", content: "y" }],
    modelId: "",
    reasoningLevel: "extreme",
    tools: [{ kind: "local", name: "ok_tool" }, { kind: "local", name: "bad name!" }, { kind: "teleport" }],
    metadata: { "bad key": "v" },
    loopDetection: { consecutiveThreshold: 5, hardCutoffThreshold: 4 },
  } as unknown as RunCreateRequest;

  it("lists every problem in a RequestValidationError and sends nothing", async () => {
    const before = server().requests.length;
    const e = (await clientFor(server())
      .createRun(bad)
      .catch((x: unknown) => x)) as RequestValidationError;
    expect(e).toBeInstanceOf(RequestValidationError);
    expect(server().requests.length).toBe(before);
    const paths = e.issues.map((i) => i.instancePath);
    for (const path of ["/modelId", "/reasoningLevel", "/tools/1/name", "/tools/2", "/metadata", "/loopDetection"]) {
      expect(paths.some((p) => p === path || p.startsWith(`${path}/`))).toBe(true);
    }
    expect(paths.some((p) => p.startsWith("/tools/0"))).toBe(false);
    // prompt and messages both: reported by the RunInput part.
    expect(e.issues.some((i) => i.instancePath === "" && i.keyword === "oneOf")).toBe(true);
    expect(e.message).toMatch(/^createRun: invalid body, not sent:\n/);
    for (const path of ["/modelId", "/tools/1/name", "/loopDetection"]) expect(e.message).toContain(path);
  });

  it("the message is a summary of the issues: prompt beside messages reads as two properties that must not be present, without the union's own line; the issues stay complete", async () => {
    const lines = async (body: unknown) => {
      const e = (await clientFor(server())
        .createRun(body as RunCreateRequest)
        .catch((x: unknown) => x)) as RequestValidationError;
      return {
        lines: e.message
          .split("\n")
          .slice(1)
          .map((l) => l.trim()),
        keywords: e.issues.map((i) => i.keyword),
      };
    };
    const both = await lines({ systemPrompt: "s", prompt: "x", messages: [{ role: "user", content: "hi" }] });
    expect(both.lines).toEqual(["/messages: must not be present", "/prompt: must not be present"]);
    expect(both.keywords).toContain("oneOf");
    // A wrong value of the branch the caller chose: the other branch's objection to the property is left out.
    expect((await lines({ systemPrompt: "s", prompt: 42 })).lines).toEqual([
      "/prompt: must be string",
      "(body): must have required property 'messages'",
    ]);
    expect((await lines({ systemPrompt: "s", messages: [{ role: "user", content: 5 }] })).lines).toEqual([
      "(body): must have required property 'prompt'",
      "/messages/0/content: must be string",
    ]);
  });

  it('validation "warn" sends the body anyway and reports the problems', async () => {
    const warnings: string[] = [];
    const client = clientFor(server(), { validation: "warn", onWarning: (m) => warnings.push(m) });
    await client
      .createRun({ systemPrompt: "You are helpful.", prompt: "x", modelId: "" } as RunCreateRequest)
      .catch(() => undefined);
    expect(last().path).toBe("/api/v1/workspaces/acme/agent-runs");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("/modelId");
  });

  it('validation "off" sends without checking (the server refuses it, listing the problem)', async () => {
    const warnings: string[] = [];
    const error = await clientFor(server(), { validation: "off", onWarning: (m) => warnings.push(m) })
      .createRun({ systemPrompt: "You are helpful.", prompt: "x", modelId: "" } as RunCreateRequest)
      .catch((e: unknown) => e);
    expect(warnings).toEqual([]);
    expect(last().path).toBe("/api/v1/workspaces/acme/agent-runs");
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_request",
      body: { issues: [{ path: "/modelId", rule: "minLength" }] },
    });
  });

  /** `{ a: { a: … } }`, `depth` levels (built without recursion). */
  function deep(depth: number): Record<string, unknown> {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < depth; i++) node = (node["a"] = {}) as Record<string, unknown>;
    return root;
  }

  it("100,000-deep metadata is a validation failure (the byte-size keyword), not a RangeError out of the validator; nothing sent", async () => {
    const before = server().requests.length;
    for (const body of [
      { prompt: "x", metadata: deep(100_000) },
      { prompt: "x", outputSchema: { schema: deep(100_000) } },
    ]) {
      const e = (await clientFor(server())
        .createRun(body as unknown as RunCreateRequest)
        .catch((x: unknown) => x)) as RequestValidationError;
      expect(e).toBeInstanceOf(RequestValidationError);
      expect(e.issues).toContainEqual(
        expect.objectContaining({ keyword: "x-max-json-bytes", params: expect.objectContaining({ actual: -1 }) }),
      );
      expect(e.message).toMatch(/cannot be serialized: nested too deeply/);
    }
    expect(server().requests.length).toBe(before);
  });

  it("with validation off, a body too deep to encode is a TypeError naming the operation, nothing sent", async () => {
    const before = server().requests.length;
    const e = await clientFor(server(), { validation: "off" })
      .createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
        metadata: deep(100_000),
      } as unknown as RunCreateRequest)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TypeError);
    expect(String(e)).toMatch(/^TypeError: createRun: the body is not JSON-encodable/);
    expect(server().requests.length).toBe(before);
  });

  it("checks tool-result bodies too (result xor error)", async () => {
    const e = await clientFor(server())
      .postToolResult("run_1", { toolUseId: "tu_1", result: "a", error: "b" } as never)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RequestValidationError);
  });
});

describe("caller mistakes are thrown at once, never retried as network failures", () => {
  it("a per-call header value fetch refuses: a TypeError, nothing sent (a request, and a stream's first next())", async () => {
    const client = clientFor(server(), { maxRetries: 3 });
    const before = server().requests.length;
    await expect(client.getRun("run_1", { headers: { "x-trace": "a\nb" } })).rejects.toBeInstanceOf(TypeError);
    const streamed = await collect(
      client.streamRun("run_1", { headers: { "x-trace": "a\nb" }, maxReconnects: 3 }),
    ).catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(TypeError);
    expect(server().requests.length).toBe(before);
  });

  it("a body JSON cannot encode (a BigInt, with validation off): a TypeError, nothing sent", async () => {
    const before = server().requests.length;
    const body = { prompt: "x", metadata: { n: 1n } } as never;
    await expect(clientFor(server(), { validation: "off", maxRetries: 3 }).createRun(body)).rejects.toThrow(TypeError);
    expect(server().requests.length).toBe(before);
  });
});

describe("the tool-result ledger (at most one POST per toolUseId)", () => {
  it("a failed POST evicted from the ledger (10,000 newer entries) does not forget the newer POST of the same toolUseId", async () => {
    const posts: Record<string, number> = {};
    let failFirst!: (e: Error) => void;
    const fetch = (async (_url: string, init: RequestInit) => {
      const { toolUseId } = JSON.parse(init.body as string) as { toolUseId: string };
      posts[toolUseId] = (posts[toolUseId] ?? 0) + 1;
      if (toolUseId === "tu_a" && posts[toolUseId] === 1)
        return new Promise<Response>((_, reject) => (failFirst = reject));
      return new Response(null, { status: 204 });
    }) as typeof globalThis.fetch;
    const client = new MantyxClient({
      baseUrl: "http://mantyx.test",
      workspace: "acme",
      apiKey: "k",
      fetch,
      maxRetries: 0,
    });
    const first = client.postToolResult("run_1", { toolUseId: "tu_a", result: "1" });
    for (let i = 0; i < 10_000; i++) await client.postToolResult("run_1", { toolUseId: `tu_${i}`, result: "x" });
    const second = await client.postToolResult("run_1", { toolUseId: "tu_a", result: "2" }); // evicted: posted again
    failFirst(new Error("connection reset"));
    await expect(first).rejects.toBeInstanceOf(MantyxConnectionError);
    expect(await client.postToolResult("run_1", { toolUseId: "tu_a", result: "3" })).toBe(second);
    expect(posts["tu_a"]).toBe(2);
  });
});

describe("postToolResult outcomes", () => {
  async function pendingCall(): Promise<{ runId: string; toolUseId: string }> {
    const client = clientFor(server());
    const tools = [{ kind: "local" as const, name: "t" }];
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      tools,
      metadata: { toolTimeoutMs: "60000" },
    });
    for await (const e of client.streamRun(runId)) {
      if ((e as { type: string }).type === "local_tool_call")
        return { runId, toolUseId: (e as { data: { toolUseId: string } }).data.toolUseId };
    }
    throw new Error("no call");
  }

  it("accepted (204), then the same toolUseId again returns the first outcome without posting", async () => {
    const { runId, toolUseId } = await pendingCall();
    const client = clientFor(server());
    const posts = () => server().requests.filter((r) => r.path.endsWith("/tool-results")).length;
    const before = posts();
    expect(await client.postToolResult(runId, { toolUseId, result: "42" })).toEqual({
      status: "accepted",
      httpStatus: 204,
    });
    expect(await client.postToolResult(runId, { toolUseId, result: "43" })).toEqual({
      status: "accepted",
      httpStatus: 204,
    });
    expect(posts() - before).toBe(1);
  });

  it("404 unknown_tool_use is an outcome, not an exception", async () => {
    const { runId, toolUseId } = await pendingCall();
    const outcome = await clientFor(server()).postToolResult(runId, { toolUseId: "tu_never", result: "x" });
    expect(outcome.status).toBe("unknown_tool_use");
    await clientFor(server()).postToolResult(runId, { toolUseId, result: "cleanup" });
  });

  it("409 run_terminal (a late result after the run timed out) is an outcome", async () => {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      tools: [{ kind: "local", name: "t" }],
      metadata: { toolTimeoutMs: "30" },
    });
    const events = await collect(client.streamRun(runId));
    const call = events.find((e) => (e as { type: string }).type === "local_tool_call") as {
      data: { toolUseId: string };
    };
    expect((events[events.length - 1] as { type: string }).type).toBe("error");
    const outcome = await client.postToolResult(runId, { toolUseId: call.data.toolUseId, result: "too late" });
    expect(outcome).toMatchObject({ status: "run_terminal", error: { status: 409, code: "run_terminal" } });
  });

  it("older servers: 200 is accepted, also after the run ended", async () => {
    const client = clientFor(olderServer());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      metadata: { scenario: "text" },
    });
    await olderServer().waitForRun(runId);
    expect(await client.postToolResult(runId, { toolUseId: "tu_late", result: "x" })).toEqual({
      status: "accepted",
      httpStatus: 200,
    });
  });

  it("200 with a body that is not JSON (text/plain OK) is accepted: the body of a tool-result answer is not read", async () => {
    const client = clientFor(plainServer());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      tools: [{ kind: "local", name: "t" }],
      metadata: { toolTimeoutMs: "60000" },
    });
    let toolUseId: string | undefined;
    for await (const e of client.streamRun(runId)) {
      if ((e as { type: string }).type === "local_tool_call") {
        toolUseId = (e as { data: { toolUseId: string } }).data.toolUseId;
        break;
      }
    }
    expect(await client.postToolResult(runId, { toolUseId: toolUseId!, result: "42" })).toEqual({
      status: "accepted",
      httpStatus: 200,
    });
    expect((await plainServer().waitForRun(runId)).finalText).toBe("Tool said: 42");
  });

  it('cancel and session delete answered 200 text/plain OK succeed (the documents say only "2xx")', async () => {
    const client = clientFor(plainServer());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      metadata: { scenario: "slow" },
    });
    expect(await client.cancelRun(runId)).toBeUndefined();
    const { sessionId } = await client.createSession({ systemPrompt: "s" });
    expect(await client.deleteSession(sessionId)).toBeUndefined();
  });

  it("never resends a tool result by itself after a network failure (idempotent calls are retried); a failed POST is not recorded", async () => {
    const client = new MantyxClient({
      baseUrl: "http://127.0.0.1:1",
      workspace: "acme",
      apiKey: "k",
      retryDelay: { initialDelayMs: 1 },
    });
    for (let i = 0; i < 2; i++) {
      const e = await client.postToolResult("run_1", { toolUseId: "tu_x", result: "r" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MantyxConnectionError);
      expect((e as MantyxConnectionError).attempts).toBe(1);
    }
    expect(((await client.getRun("run_1").catch((x: unknown) => x)) as MantyxConnectionError).attempts).toBe(3);
  });

  it("other failures still throw (wrong workspace)", async () => {
    const e = await clientFor(server(), { workspace: "nope" })
      .postToolResult("run_1", { toolUseId: "tu", result: "x" })
      .catch((x: unknown) => x);
    expect((e as { status?: number }).status).toBe(404);
  });
});
