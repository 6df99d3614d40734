/**
 * `mantyx-wire mock`'s server (generator/mock/), over real HTTP on
 * 127.0.0.1: every route of the schema answered, bodies and queries
 * checked with every problem listed, the credential checked before any
 * body byte, bodies capped, records bounded, bad encodings refused with a
 * 400, counts clamped, scopes and `WWW-Authenticate`, tool-result outcomes,
 * cancel, sessions, paging, and each edition's shapes.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";
import { mantyxDocument } from "../../generator/mock/artefacts.js";
import { routesOf } from "../../generator/mock/routes.js";
import { auth, raw } from "./helpers.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ oauthTokens: { tok_read: ["runs:read"], tok_none: [] } });
});
afterAll(() => server.close());

const base = (rest: string): string => `/api/v1/workspaces/acme${rest}`;
const key = (): Record<string, string> => auth(server.apiKey);
const SPEC = { systemPrompt: "Be brief.", prompt: "Hello", metadata: { scenario: "text" } };

/** Resolves with the run's first event of `type`, once it has been emitted. */
function eventOf(runId: string, type: string, on: MockServer = server): Promise<{ data: { toolUseId: string } }> {
  const run = on.runs.get(runId)!;
  const find = () => run.events.find((e) => e.type === type) as { data: { toolUseId: string } } | undefined;
  return new Promise((resolve) => {
    const found = find();
    if (found !== undefined) return resolve(found);
    const off = run.onChange(() => {
      const later = find();
      if (later === undefined) return;
      off();
      resolve(later);
    });
  });
}

async function createRun(body: unknown = SPEC): Promise<string> {
  const answer = await raw(server.url, "POST", base("/agent-runs"), key(), JSON.stringify(body));
  expect(answer.status, answer.text).toBe(202);
  return (answer.json as { runId: string }).runId;
}

describe("routes from the schema", () => {
  it("every operation of the schema is answered (none is a 404 or 405 with valid input)", async () => {
    const runId = await createRun();
    await server.waitForRun(runId);
    const session = (
      await raw(server.url, "POST", base("/agent-sessions"), key(), JSON.stringify({ systemPrompt: "Be brief." }))
    ).json as { sessionId: string };
    const bodies: Record<string, unknown> = {
      createRun: SPEC,
      postToolResult: { toolUseId: "tu_none", result: "x" },
      submitRunFeedback: { verdict: "UP" },
      createSession: { systemPrompt: "Be brief." },
      sendSessionMessage: { prompt: "Hi", metadata: { scenario: "text" } },
    };
    const routes = routesOf(mantyxDocument());
    expect(routes.length).toBeGreaterThanOrEqual(15);
    const answered: string[] = [];
    for (const route of routes.filter((r) => r.operationId !== "deleteSession")) {
      const path = route.template
        .replace("{workspaceSlug}", "acme")
        .replace("{runId}", runId)
        .replace("{sessionId}", session.sessionId);
      const body = bodies[route.operationId];
      const answer = await raw(
        server.url,
        route.method,
        path,
        key(),
        body === undefined ? undefined : JSON.stringify(body),
      );
      // postToolResult to a finished run is its documented 409 run_terminal (x-outcomes), not a missing route.
      if (route.operationId === "postToolResult") expect(answer.json).toMatchObject({ error: "run_terminal" });
      else
        expect([200, 201, 202, 204], `${route.operationId}: ${answer.status} ${answer.text}`).toContain(answer.status);
      answered.push(route.operationId);
    }
    expect(answered).toContain("listSessionEvents");
  });

  it("a path the schema does not have is 404; a method it does not list is 405 with Allow", async () => {
    expect((await raw(server.url, "GET", base("/nothing"), key())).status).toBe(404);
    const wrong = await raw(server.url, "PUT", base("/models"), key());
    expect(wrong.status).toBe(405);
    expect(wrong.headers["allow"]).toBe("GET");
  });
});

describe("request bodies and queries", () => {
  it("a bad body gets 400 invalid_request listing every problem with its path and rule", async () => {
    const answer = await raw(
      server.url,
      "POST",
      base("/agent-runs"),
      key(),
      JSON.stringify({
        systemPrompt: "x",
        prompt: "y",
        modelId: "",
        reasoningLevel: "extreme",
        tools: [{ kind: "local" }],
      }),
    );
    expect(answer.status).toBe(400);
    const body = answer.json as { error: string; message: string; issues: Array<{ path: string; rule: string }> };
    expect(body.error).toBe("invalid_request");
    expect(body.issues).toEqual(
      expect.arrayContaining([
        { path: "/modelId", rule: "minLength", message: expect.any(String) },
        expect.objectContaining({ path: "/tools/0", rule: "required" }),
        expect.objectContaining({ path: "/reasoningLevel" }),
      ]),
    );
    expect(body.message).toContain("/modelId");
    expect(body.message).toContain("/tools/0");
  });

  it("malformed JSON is named as such, not as a missing prompt", async () => {
    const answer = await raw(server.url, "POST", base("/agent-runs"), key(), '{"prompt": ');
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toMatch(/^The body is not valid JSON: /);
    expect(answer.text).not.toContain("Provide prompt");
  });

  it("a query parameter outside its schema is 400 with its path (limit > 200)", async () => {
    const answer = await raw(server.url, "GET", base("/agent-runs?limit=100000"), key());
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      error: "invalid_request",
      issues: [{ path: "/query/limit", rule: "maximum" }],
    });
  });

  it("an unknown metadata.scenario is refused with the list of scenarios", async () => {
    const answer = await raw(
      server.url,
      "POST",
      base("/agent-runs"),
      key(),
      JSON.stringify({ ...SPEC, metadata: { scenario: "nope" } }),
    );
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toContain("local-tool-round-trip");
  });
});

describe("hardening", () => {
  it("answers 401 before reading a byte of the body: a POST whose 10 MB body never comes is refused at once, and the connection closed after a bounded linger", async () => {
    const url = new URL(server.url);
    const socket = connect(Number(url.port), url.hostname);
    let text = "";
    const closed = new Promise<void>((resolve, reject) => {
      socket.on("close", () => resolve());
      socket.on("error", reject);
    });
    const answered = new Promise<void>((resolve) => {
      socket.on("data", (d: Buffer) => {
        text += d.toString("latin1");
        if (text.includes("\r\n\r\n")) resolve();
      });
    });
    // Headers only: the body never arrives. A server that waited for it would never answer.
    socket.write(
      `POST ${base("/agent-runs")} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 10000000\r\n\r\n{"pro`,
    );
    await answered;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    // The rest of the body is waited for only a moment (the lingering close), then the connection is closed by the server.
    await closed;
  });

  it("a refused upload still being sent gets its 401, not a reset: the rest is read and thrown away for a moment (lingering close)", async () => {
    const url = new URL(server.url);
    const outcomes = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<number | string>((resolve) => {
            const req = request(
              {
                host: url.hostname,
                port: url.port,
                method: "POST",
                path: base("/agent-runs"),
                headers: { "content-type": "application/json", "content-length": String(4 * 1024 * 1024) },
              },
              (res) => {
                res.resume();
                resolve(res.statusCode!);
              },
            );
            req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
            req.end(Buffer.alloc(4 * 1024 * 1024, 0x61));
          }),
      ),
    );
    expect(outcomes).toEqual([401, 401, 401, 401]);
  });

  it("records no body byte read for refused requests (401, 403, 404), and the bytes of an accepted one", async () => {
    const body = JSON.stringify({ ...SPEC, padding: "x".repeat(100_000) });
    await raw(server.url, "POST", base("/agent-runs"), { "content-type": "application/json" }, body).catch(
      () => undefined,
    );
    await raw(server.url, "POST", base("/agent-runs"), auth("tok_read"), body).catch(() => undefined);
    await raw(server.url, "POST", "/api/v1/workspaces/other/agent-runs", key(), body).catch(() => undefined);
    const refused = server.requests.slice(-3);
    expect(refused.map((r) => [r.status, r.bodyBytes])).toEqual([
      [401, 0],
      [403, 0],
      [404, 0],
    ]);
    await createRun(SPEC);
    expect(server.requests.at(-1)!.bodyBytes).toBe(JSON.stringify(SPEC).length);
  });

  it("caps bodies: a declared or streamed body over maxBodyBytes is 413", async () => {
    const small = await startMockServer({ maxBodyBytes: 1000 });
    try {
      const declared = await raw(
        small.url,
        "POST",
        base("/agent-runs"),
        auth(small.apiKey),
        JSON.stringify({ ...SPEC, pad: "x".repeat(2000) }),
      );
      expect(declared.status).toBe(413);
      // Chunked (no Content-Length): refused once it grows past the cap.
      const chunked = await raw(
        small.url,
        "POST",
        base("/agent-runs"),
        { ...auth(small.apiKey), "transfer-encoding": "chunked" },
        JSON.stringify({ ...SPEC, pad: "x".repeat(5000) }),
      );
      expect(chunked.status).toBe(413);
      expect(chunked.json).toMatchObject({ error: "payload_too_large" });
    } finally {
      await small.close();
    }
  });

  it("a bad percent-encoding in the path is 400, never 500", async () => {
    for (const path of [
      "/api/v1/workspaces/ac%ZZme/models",
      "/api/v1/workspaces/acme/agent-runs/%E0%A4%A",
      "/api/v1/workspaces/%/models",
    ]) {
      const answer = await raw(server.url, "GET", path, key());
      expect(answer.status, path).toBe(400);
    }
  });

  it("clamps metadata.count: a huge count streams at most 10 000 deltas", async () => {
    const runId = await createRun({ ...SPEC, metadata: { scenario: "many", count: "1000000000000" } });
    const run = await server.waitForRun(runId);
    expect(run.events.filter((e) => e.type === "assistant_delta")).toHaveLength(10_000);
  });

  it("keeps only the newest recordLimit requests, and at most runLimit runs (finished ones forgotten first)", async () => {
    const bounded = await startMockServer({ recordLimit: 5, runLimit: 3 });
    try {
      for (let i = 0; i < 12; i++) await raw(bounded.url, "GET", base("/models"), auth(bounded.apiKey));
      expect(bounded.requests).toHaveLength(5);
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const created = await raw(bounded.url, "POST", base("/agent-runs"), auth(bounded.apiKey), JSON.stringify(SPEC));
        ids.push((created.json as { runId: string }).runId);
        await bounded.waitForRun(ids.at(-1)!);
      }
      expect([...bounded.runs.keys()]).toEqual(ids.slice(-3));
      expect((await raw(bounded.url, "GET", base(`/agent-runs/${ids[0]}`), auth(bounded.apiKey))).status).toBe(404);
    } finally {
      await bounded.close();
    }
  });
});

describe("credentials and scopes", () => {
  it("a token without the route's scope gets 403 insufficient_scope naming it, also in WWW-Authenticate", async () => {
    const answer = await raw(server.url, "POST", base("/agent-runs"), auth("tok_read"), JSON.stringify(SPEC));
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: "insufficient_scope", required: "runs:write" });
    expect(answer.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope", scope="runs:write"');
    expect((await raw(server.url, "GET", base("/models"), auth("tok_none"))).status).toBe(403);
    expect((await raw(server.url, "GET", base(`/agent-runs/${await createRun()}`), auth("tok_read"))).status).toBe(200);
  });

  it("an unknown credential is 401; X-API-Key works like Bearer", async () => {
    expect((await raw(server.url, "GET", base("/models"), auth("nope"))).status).toBe(401);
    expect((await raw(server.url, "GET", base("/models"), { "x-api-key": server.apiKey })).status).toBe(200);
  });
});

describe("runs, tool results, cancel", () => {
  const TOOL = {
    kind: "local",
    name: "compute_total",
    parameters: {
      type: "object",
      properties: { amount: { type: "number", minimum: 5 }, currency: { type: "string", enum: ["EUR", "USD"] } },
      required: ["amount", "currency"],
    },
  };

  it("without a scenario, calls each client-resolved tool once with arguments generated from its parameters", async () => {
    const runId = await createRun({
      systemPrompt: "x",
      prompt: "Total?",
      tools: [TOOL, { kind: "mantyx_plugin", name: "recall" }],
    });
    await eventOf(runId, "local_tool_call");
    const run = server.runs.get(runId)!;
    const calls = run.events.filter((e) => e.type === "local_tool_call");
    expect(calls).toHaveLength(1);
    expect((calls[0] as { data: unknown }).data).toMatchObject({
      name: "compute_total",
      kind: "local",
      args: { amount: 5, currency: "EUR" },
    });
    run.cancel();
  });

  it("duplicate and unknown results answer 404 unknown_tool_use, a late one 409 run_terminal", async () => {
    const runId = await createRun({ systemPrompt: "x", prompt: "Total?", tools: [TOOL] });
    const toolUseId = (await eventOf(runId, "local_tool_call")).data.toolUseId;
    const post = (id: string): Promise<number> =>
      raw(
        server.url,
        "POST",
        base(`/agent-runs/${runId}/tool-results`),
        key(),
        JSON.stringify({ toolUseId: id, result: "1" }),
      ).then((a) => a.status);
    expect(await post("tu_unknown")).toBe(404);
    expect(await post(toolUseId)).toBe(200);
    expect(await post(toolUseId)).toBe(404);
    await server.waitForRun(runId);

    const late = await createRun({
      systemPrompt: "x",
      prompt: "Total?",
      tools: [TOOL],
      metadata: { toolTimeoutMs: "1" },
    });
    const run = await server.waitForRun(late);
    expect(run.events.at(-1)).toMatchObject({ type: "error", data: { errorClass: "local_timeout" } });
    const lateId = (run.events.find((e) => e.type === "local_tool_call") as { data: { toolUseId: string } }).data
      .toolUseId;
    const answer = await raw(
      server.url,
      "POST",
      base(`/agent-runs/${late}/tool-results`),
      key(),
      JSON.stringify({ toolUseId: lateId, result: "1" }),
    );
    expect(answer.status).toBe(409);
    expect(answer.json).toMatchObject({ error: "run_terminal" });
  });

  it("cancel is idempotent: one cancelled event, the same answer each time", async () => {
    const runId = await createRun({ ...SPEC, metadata: { scenario: "slow" } });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await raw(server.url, "POST", base(`/agent-runs/${runId}/cancel`), key())).status);
    expect(statuses).toEqual([202, 202, 202]);
    const run = await server.waitForRun(runId);
    expect(run.events.filter((e) => e.type === "cancelled")).toEqual([expect.objectContaining({ data: {} })]);
  });

  it("lists runs newest first, a page at a time through nextCursor", async () => {
    const ids = [await createRun(), await createRun(), await createRun()];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (
        await raw(server.url, "GET", base(`/agent-runs?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`), key())
      ).json as { runs: Array<{ id: string }>; nextCursor: string | null };
      expect(page.runs.length).toBeLessThanOrEqual(2);
      seen.push(...page.runs.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen.slice(0, 3)).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    expect((await raw(server.url, "GET", base("/agent-runs?cursor=bogus"), key())).status).toBe(400);
  });
});

describe("sessions", () => {
  it("keep their history, apply a message's overrides to its run only, and replay a page at a time (beforeSeq)", async () => {
    const { sessionId } = (
      await raw(
        server.url,
        "POST",
        base("/agent-sessions"),
        key(),
        JSON.stringify({ systemPrompt: "HR.", reasoningLevel: "off", metadata: { customer: "acme" } }),
      )
    ).json as { sessionId: string };
    const send = async (body: unknown): Promise<string> => {
      const answer = await raw(
        server.url,
        "POST",
        base(`/agent-sessions/${sessionId}/messages`),
        key(),
        JSON.stringify(body),
      );
      expect(answer.status, answer.text).toBe(202);
      const runId = (answer.json as { runId: string }).runId;
      await server.waitForRun(runId);
      return runId;
    };
    const first = await send({ prompt: "Alice?", metadata: { scenario: "text" } });
    const second = await send({
      prompt: "And Bob?",
      reasoningLevel: "high",
      metadata: { scenario: "text", turn: "2" },
    });
    const third = await send({ prompt: "Carol?", metadata: { scenario: "text" } });
    expect(server.runs.get(first)!.spec).toMatchObject({ prompt: "Alice?", reasoningLevel: "off" });
    expect(server.runs.get(second)!.spec).toMatchObject({
      reasoningLevel: "high",
      metadata: { customer: "acme", turn: "2" },
    });
    expect((server.runs.get(second)!.spec["messages"] as Array<{ content: string }>).map((m) => m.content)).toEqual([
      "Alice?",
      expect.stringContaining("Hello"),
      "And Bob?",
    ]);
    // The override was for the second message only.
    expect(server.runs.get(third)!.spec).toMatchObject({ reasoningLevel: "off" });
    expect((server.runs.get(third)!.spec["metadata"] as Record<string, string>)["turn"]).toBeUndefined();

    const page = (q: string) =>
      raw(server.url, "GET", base(`/agent-sessions/${sessionId}/events?${q}`), key()).then(
        (a) =>
          a.json as {
            events: Array<{ seq: number; type: string }>;
            nextBeforeSeq: number | null;
            truncated: boolean;
            total: number;
          },
      );
    const last = await page("lastMessages=2");
    expect(last.events.map((e) => e.seq)).toEqual([5, 6]);
    expect(last).toMatchObject({ truncated: true, nextBeforeSeq: 5, total: 6 });
    const earlier = await page(`lastMessages=2&beforeSeq=${last.nextBeforeSeq}`);
    expect(earlier.events.map((e) => [e.seq, e.type])).toEqual([
      [3, "user_message"],
      [4, "assistant_message"],
    ]);
    expect((await page("full=1")).events).toHaveLength(6);
  });
});

describe("editions", () => {
  for (const [edition, created, accepted, success, cancelled] of [
    ["2026-10", 202, 200, { subtype: "success" }, {}],
    ["2026-09", 201, 204, { ok: true }, { reason: "user" }],
    ["older", 202, 200, { subtype: "success" }, {}],
  ] as const) {
    it(`${edition}: run ${created}, tool result ${accepted}, ${JSON.stringify(success)}, cancelled ${JSON.stringify(cancelled)}`, async () => {
      const s = await startMockServer({ edition });
      try {
        const h = auth(s.apiKey);
        const create = await raw(
          s.url,
          "POST",
          base("/agent-runs"),
          h,
          JSON.stringify({ systemPrompt: "x", prompt: "y", tools: [{ kind: "local", name: "t" }] }),
        );
        expect(create.status).toBe(created);
        const runId = (create.json as { runId: string }).runId;
        const call = await eventOf(runId, "local_tool_call", s);
        expect(
          (
            await raw(
              s.url,
              "POST",
              base(`/agent-runs/${runId}/tool-results`),
              h,
              JSON.stringify({ toolUseId: call.data.toolUseId, result: "ok" }),
            )
          ).status,
        ).toBe(accepted);
        const run = await s.waitForRun(runId);
        expect(run.events.at(-1)).toMatchObject({ type: "result", data: success });
        expect(run.events[0]!.type).toBe(edition === "older" ? "started" : "assistant_delta");
        const slow = (
          await raw(
            s.url,
            "POST",
            base("/agent-runs"),
            h,
            JSON.stringify({ systemPrompt: "x", prompt: "y", metadata: { scenario: "slow" } }),
          )
        ).json as { runId: string };
        await raw(s.url, "POST", base(`/agent-runs/${slow.runId}/cancel`), h);
        expect((await s.waitForRun(slow.runId)).events.at(-1)).toEqual(
          expect.objectContaining({ type: "cancelled", data: cancelled }),
        );
      } finally {
        await s.close();
      }
    });
  }
});
