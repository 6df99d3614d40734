/**
 * The mock against what the October 2026 documents say a server sends, over
 * real HTTP on 127.0.0.1: the listings' `includeTotal` defaults and the
 * replay's `full` flag and page size (agent-runs §5, §6.1, §6.2), the
 * `structuredOutput` block on terminal events (wire-protocol §4.8) and the
 * `files` metadata of `local_tool_result_in` (agent-runs §7) on the 2026-10
 * edition only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { auth, raw } from "./helpers.js";

let server: MockServer;
let seed: MockServer;
beforeAll(async () => {
  server = await startMockServer({});
  seed = await startMockServer({ edition: "2026-09" });
});
afterAll(async () => {
  await server.close();
  await seed.close();
});

const base = (rest: string): string => `/api/v1/workspaces/acme${rest}`;
const get = async (on: MockServer, path: string): Promise<Record<string, unknown>> => {
  const answer = await raw(on.url, "GET", base(path), auth(on.apiKey));
  expect(answer.status, answer.text).toBe(200);
  return answer.json as Record<string, unknown>;
};
const post = async (on: MockServer, path: string, body: unknown): Promise<Record<string, unknown>> => {
  const answer = await raw(on.url, "POST", base(path), auth(on.apiKey), JSON.stringify(body));
  expect(answer.status, answer.text).toBeLessThan(300);
  return (answer.json ?? {}) as Record<string, unknown>;
};

describe("listing and replay defaults", () => {
  it('GET /agent-sessions counts total unless includeTotal is 0 or false (§6.1 "defaults to true")', async () => {
    await post(server, "/agent-sessions", { systemPrompt: "s" });
    expect(typeof (await get(server, "/agent-sessions"))["total"]).toBe("number");
    expect(typeof (await get(server, "/agent-sessions?includeTotal=1"))["total"]).toBe("number");
    expect((await get(server, "/agent-sessions?includeTotal=0"))["total"]).toBeNull();
    expect((await get(server, "/agent-sessions?includeTotal=false"))["total"]).toBeNull();
  });

  it("GET /agent-runs counts total only when asked, by 1 or true (§5)", async () => {
    const { runId } = (await post(server, "/agent-runs", {
      systemPrompt: "s",
      prompt: "p",
      metadata: { scenario: "text" },
    })) as { runId: string };
    await server.waitForRun(runId);
    expect((await get(server, "/agent-runs"))["total"]).toBeNull();
    expect(typeof (await get(server, "/agent-runs?includeTotal=1"))["total"]).toBe("number");
    expect(typeof (await get(server, "/agent-runs?includeTotal=true"))["total"]).toBe("number");
  });

  it("session replay: full=true is the whole history; beforeSeq alone pages 100 messages back (§6.2)", async () => {
    const { sessionId } = (await post(server, "/agent-sessions", { systemPrompt: "s" })) as { sessionId: string };
    // One turn bringing 119 earlier messages: 120 stored user/assistant messages, then the reply.
    const messages = Array.from({ length: 120 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `m${i}`,
    }));
    messages[119] = { role: "user", content: "last" };
    const { runId } = (await post(server, `/agent-sessions/${sessionId}/messages`, {
      messages,
      metadata: { scenario: "text" },
    })) as { runId: string };
    await server.waitForRun(runId);
    const whole = await get(server, `/agent-sessions/${sessionId}/events?full=true&lastMessages=2`);
    expect((whole["events"] as unknown[]).length).toBe(121);
    const page = await get(server, `/agent-sessions/${sessionId}/events?beforeSeq=121`);
    const seqs = (page["events"] as Array<{ seq: number }>).map((e) => e.seq);
    expect(seqs).toHaveLength(100);
    expect(seqs[0]).toBe(21);
    expect(seqs.at(-1)).toBe(120);
    expect(page).toMatchObject({ truncated: true, nextBeforeSeq: 21, total: 121 });
  });
});

describe("429 bodies", () => {
  it("2026-10 answers code rate_limit_exceeded (§10), the seed edition the older rate_limited, on any route and on a stream's status fault", async () => {
    for (const [on, body] of [
      [server, { error: "rate_limit_exceeded", code: "rate_limit_exceeded" }],
      [seed, { error: "rate_limited" }],
    ] as const) {
      on.rateLimitNext(1, 2);
      const limited = await raw(on.url, "GET", base("/models"), auth(on.apiKey));
      expect(limited.status).toBe(429);
      expect(limited.headers["retry-after"]).toBe("2");
      expect(limited.json).toMatchObject(body);
      // October's X-RateLimit-* headers (the older editions have none).
      expect(limited.headers["x-ratelimit-bucket"]).toBe(on === server ? "transport" : undefined);
      if (on === server)
        expect(limited.headers).toMatchObject({
          "x-ratelimit-limit": "6000",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": "2",
        });
      const { runId } = (await post(on, "/agent-runs", {
        systemPrompt: "s",
        prompt: "p",
        metadata: { scenario: "text" },
      })) as { runId: string };
      const stream = await raw(on.url, "GET", base(`/agent-runs/${runId}/stream`), {
        ...auth(on.apiKey),
        "x-mock-fault": "status=429,retry-after=1",
      });
      expect(stream.status).toBe(429);
      expect(stream.json).toMatchObject(body);
    }
  });
});

describe("terminal structuredOutput and mirrored files (2026-10 edition)", () => {
  async function finished(on: MockServer, spec: Record<string, unknown>) {
    const { runId } = (await post(on, "/agent-runs", { systemPrompt: "s", prompt: "p", ...spec })) as { runId: string };
    return (await on.waitForRun(runId)).events as Array<{ type: string; data?: unknown }>;
  }

  it("a result says no schema was requested without outputSchema, and native enforcement with one", async () => {
    const plain = await finished(server, { metadata: { scenario: "text" } });
    expect(plain.at(-1)).toMatchObject({
      type: "result",
      data: {
        structuredOutput: {
          schemaRequested: false,
          schemaEnforced: false,
          enforcementMechanism: "none",
          unconstrainedFallbackOccurred: false,
        },
      },
    });
    const structured = await finished(server, {
      outputSchema: { schema: { type: "object" } },
      metadata: { scenario: "structured" },
    });
    expect(structured.at(-1)).toMatchObject({
      type: "result",
      data: {
        structuredOutput: {
          schemaRequested: true,
          schemaEnforced: true,
          enforcementMechanism: "native_schema",
          unconstrainedFallbackOccurred: false,
        },
      },
    });
  });

  it("a failed run's error reports the schema as requested but not enforced", async () => {
    const events = await finished(server, {
      outputSchema: { schema: { type: "object" } },
      metadata: { scenario: "truncated" },
    });
    expect(events.at(-1)).toMatchObject({
      type: "error",
      data: {
        errorClass: "truncation",
        structuredOutput: { schemaRequested: true, schemaEnforced: false, enforcementMechanism: "native_schema" },
      },
    });
  });

  it("the seed edition's terminal events carry no structuredOutput", async () => {
    const events = await finished(seed, { metadata: { scenario: "text" } });
    expect(events.at(-1)!.type).toBe("result");
    expect(events.at(-1)!.data).not.toHaveProperty("structuredOutput");
  });

  for (const [edition, on, mirrored] of [
    ["2026-10", () => server, true],
    ["2026-09", () => seed, false],
  ] as const) {
    it(`${edition}: local_tool_result_in ${mirrored ? "lists the posted files as metadata (no data)" : "carries no files"}`, async () => {
      const s = on();
      const { runId } = (await post(s, "/agent-runs", {
        systemPrompt: "s",
        prompt: "p",
        tools: [{ kind: "local", name: "render" }],
        metadata: { toolTimeoutMs: "60000" },
      })) as { runId: string };
      const run = s.runs.get(runId)!;
      const call = await new Promise<{ data: { toolUseId: string } }>((resolve) => {
        const find = () =>
          run.events.find((e) => e.type === "local_tool_call") as { data: { toolUseId: string } } | undefined;
        const found = find();
        if (found !== undefined) return resolve(found);
        const off = run.onChange(() => {
          const later = find();
          if (later !== undefined) {
            off();
            resolve(later);
          }
        });
      });
      await post(s, `/agent-runs/${runId}/tool-results`, {
        toolUseId: call.data.toolUseId,
        result: "chart",
        files: [{ filename: "chart.png", mimeType: "image/png", data: "iVBORw0KGgo=" }],
      });
      const mirror = (await s.waitForRun(runId)).events.find((e) => e.type === "local_tool_result_in") as {
        data: unknown;
      };
      if (mirrored)
        expect(mirror.data).toEqual({
          toolUseId: call.data.toolUseId,
          result: "chart",
          files: [{ filename: "chart.png", mimeType: "image/png", sizeBytes: 8 }],
        });
      else expect(mirror.data).toEqual({ toolUseId: call.data.toolUseId, result: "chart" });
    });
  }
});
