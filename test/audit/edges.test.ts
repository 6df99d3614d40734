/**
 * HTTP-level oddities against the audit server (./fault-server.ts), with the
 * client's default settings: deep and huge bodies, and the statuses the
 * documents allow (201 or 202 for a new run, 200 or 204 for a tool result,
 * any 2xx for cancel). Each is survived or a typed error; none is a crash
 * (a RangeError from the engine) or a silent success.
 */
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { isMantyxApiError, isRunCreatedError, isUnexpectedResponseError, runAgent } from "../../index.js";
import { auditServer } from "./support.js";

const { server, client } = await auditServer();

const deep = (depth: number, leaf = "1"): string => "[".repeat(depth) + leaf + "]".repeat(depth);

describe("deep bodies", () => {
  it("a 400 whose JSON body nests 100,000 deep is a MantyxApiError, not a RangeError", async () => {
    server.override = (req, res) => {
      if (req.method !== "POST") return false;
      res.writeHead(400, { "content-type": "application/json" });
      res.end(`{"error":"invalid_request","message":"bad","issues":${deep(100_000)}}`);
      return true;
    };
    const error = await client()
      .createRun({ systemPrompt: "s", prompt: "p" })
      .catch((e: unknown) => e);
    server.override = () => false;
    expect(isMantyxApiError(error)).toBe(true);
    expect((error as { status: number }).status).toBe(400);
  });

  it("a 200 getRun whose body nests 100,000 deep is read (JSON.parse copes) or a typed error", async () => {
    const c = client();
    server.script = [{ emit: { type: "result", data: { subtype: "success", text: "ok" } } }];
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    server.override = (req, res) => {
      if (req.method !== "GET" || req.url?.includes("stream")) return false;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`{"id":"${runId}","status":"running","extra":${deep(100_000)}}`);
      return true;
    };
    const run = await c.getRun(runId).catch((e: unknown) => e);
    server.override = () => false;
    expect((run as { status: string }).status).toBe("running");
  });

  for (const [name, data] of [
    [
      "an additive member of a valid event",
      `{"seq":1,"type":"assistant_delta","data":{"text":"a","extra":${deep(100_000)}}}`,
    ],
    [
      "an invalid event (its promised text missing)",
      `{"seq":1,"type":"assistant_delta","data":{"extra":${deep(100_000)}}}`,
    ],
    [
      "a local_tool_call's args",
      `{"seq":1,"type":"local_tool_call","data":{"toolUseId":"tu_1","name":"t","args":{"a":${deep(100_000)}}}}`,
    ],
  ] as const) {
    for (const onInvalid of ["throw", "deliver", "skip-and-warn"] as const) {
      it(`a frame nesting 100,000 deep in ${name} (onInvalid ${onInvalid}): delivered once or a typed StreamDecodeError, never a RangeError or a reconnect loop`, async () => {
        server.script = [
          { emit: { type: "assistant_delta", rawData: data } },
          { emit: { type: "result", data: { subtype: "success", text: "ok" } } },
        ];
        server.faults = () => ({});
        const c = client();
        const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
        const items: unknown[] = [];
        const reasons: unknown[] = [];
        let error: unknown;
        try {
          for await (const item of c.streamRun(runId, {
            idleTimeoutMs: 400,
            onInvalid,
            onReconnect: (i) => void reasons.push(i.reason),
          }))
            items.push(item);
        } catch (e) {
          error = e;
        }
        expect({ reconnects: reasons.map(String), connections: server.runs.get(runId)!.connections }).toEqual({
          reconnects: [],
          connections: 1,
        });
        const first = error ?? items[0];
        expect(first instanceof RangeError).toBe(false);
        if (first instanceof Error) expect(first.name).toBe("StreamDecodeError");
      });
    }
  }
});

describe("huge bodies", () => {
  it("an event larger than maxEventBytes is a typed SseParseError, not retried", async () => {
    server.script = [
      { emit: { type: "assistant_delta", data: { text: "x".repeat(17 * 1024 * 1024) } } },
      { emit: { type: "result", data: { subtype: "success" } } },
    ];
    server.faults = () => ({});
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    const error = await (async () => {
      for await (const _ of c.streamRun(runId, { idleTimeoutMs: 2000 })) void _;
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe("SseParseError");
    expect(server.runs.get(runId)!.connections).toBe(1);
  });
});

describe("statuses the documents allow", () => {
  it("201 for a new run (seed edition), 204 for a tool result, 204 for cancel", async () => {
    server.createStatus = 201;
    server.toolResultStatus = 204;
    server.script = [
      { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "t", args: {} } } },
      { awaitTool: "tu_1" },
      { emit: { type: "result", data: { subtype: "success" } } },
    ];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    for await (const e of c.streamRun(runId, { idleTimeoutMs: 400 })) {
      if (e.type === "local_tool_call")
        expect(await c.postToolResult(runId, { toolUseId: "tu_1", result: "r" })).toEqual({
          status: "accepted",
          httpStatus: 204,
        });
    }
    expect(await c.cancelRun(runId)).toBeUndefined();
    server.createStatus = 202;
    server.toolResultStatus = 200;
  });

  it("a 204 to the stream request (WHATWG: stop reconnecting) ends in a typed error at once, not a quiet end nor a reconnect", async () => {
    server.script = [{ emit: { type: "result", data: { subtype: "success" } } }];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    let connections = 0;
    server.override = (req, res) => {
      if (!req.url?.includes("/stream")) return false;
      connections++;
      res.writeHead(204);
      res.end();
      return true;
    };
    const error = await (async () => {
      for await (const _ of c.streamRun(runId, {
        idleTimeoutMs: 400,
        reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
      }))
        void _;
    })().catch((e: unknown) => e);
    server.override = () => false;
    expect(isUnexpectedResponseError(error)).toBe(true);
    expect(connections).toBe(1);
  });

  it("a 408 (the server timed the request out) is retried: by the stream as a drop, by an idempotent request", async () => {
    server.script = [{ emit: { type: "result", data: { subtype: "success" } } }];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    // The first request of each route answers 408.
    const timedOut = new Map<string, number>();
    server.override = (req, res) => {
      const route = req.url!.includes("/stream") ? "stream" : "getRun";
      if (req.method !== "GET" || timedOut.has(route)) return false;
      timedOut.set(route, 1);
      res.writeHead(408, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "request_timeout" }));
      return true;
    };
    const types: string[] = [];
    for await (const e of c.streamRun(runId, {
      idleTimeoutMs: 400,
      reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
    }))
      types.push(String(e.type));
    expect([[...timedOut.keys()], types]).toEqual([["stream"], ["result"]]);
    const snapshot = await new MantyxClient({
      baseUrl: server.url,
      workspace: server.workspace,
      apiKey: server.apiKey,
      retryDelay: { initialDelayMs: 1 },
    }).getRun(runId);
    server.override = () => false;
    expect([[...timedOut.keys()], typeof snapshot.status]).toEqual([["stream", "getRun"], "string"]);
  });

  it("a 304 to the stream request is a typed MantyxApiError", async () => {
    server.script = [{ emit: { type: "result", data: { subtype: "success" } } }];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    server.override = (req, res) => {
      if (!req.url?.includes("/stream")) return false;
      res.writeHead(304);
      res.end();
      return true;
    };
    const error = await (async () => {
      for await (const _ of c.streamRun(runId, { idleTimeoutMs: 400 })) void _;
    })().catch((e: unknown) => e);
    server.override = () => false;
    expect(isMantyxApiError(error) || isUnexpectedResponseError(error)).toBe(true);
  });
});

describe("a new run's answer without a body", () => {
  for (const status of [202, 204]) {
    it(`a bare ${status}: createRun and runAgent fail with a typed UnexpectedResponseError, not with undefined and a TypeError from reading its runId`, async () => {
      server.override = (req, res) => {
        if (req.method !== "POST" || !req.url?.endsWith("/agent-runs")) return false;
        res.writeHead(status, status === 202 ? { "content-type": "application/json" } : {});
        res.end();
        return true;
      };
      const created = await client()
        .createRun({ systemPrompt: "s", prompt: "p" })
        .catch((e: unknown) => e);
      const ran = await runAgent(client(), { systemPrompt: "s", prompt: "p" }).catch((e: unknown) => e);
      server.override = () => false;
      expect([isUnexpectedResponseError(created), isUnexpectedResponseError(ran)]).toEqual([true, true]);
    });
  }
});

describe("a new run's answer that is JSON but has no run id", () => {
  // The key echoed into a member: the error describes the answer's shape and never quotes it.
  const echo = (key: string): Record<string, string> => ({ note: key });
  for (const [name, body, type] of [
    ["null", "null", "not-an-object"],
    ["{}", "{}", "no-run-id"],
    ["an array", "[]", "not-an-object"],
    ["a runId that is a number", JSON.stringify({ runId: 7 }), "no-run-id"],
    ["an empty runId", JSON.stringify({ runId: "" }), "no-run-id"],
    ["an object echoing the key but no runId", "ECHO", "no-run-id"],
  ] as const) {
    it(`202 with ${name}: runAgent fails with a typed RunCreatedError (${type}) naming the fix, sends nothing else, and never quotes the answer`, async () => {
      const requests: string[] = [];
      server.override = (req, res) => {
        requests.push(`${req.method} ${new URL(req.url ?? "/", server.url).pathname}`);
        if (req.method !== "POST" || !req.url?.endsWith("/agent-runs")) return false;
        res.writeHead(202, { "content-type": "application/json" });
        res.end(body === "ECHO" ? JSON.stringify(echo(server.apiKey)) : body);
        return true;
      };
      const ran = await runAgent(client(), { systemPrompt: "s", prompt: "p" }).catch((e: unknown) => e);
      server.override = () => false;
      expect(isRunCreatedError(ran)).toBe(true);
      expect((ran as { type: string }).type).toBe(type);
      expect((ran as Error).message).toContain("baseUrl");
      expect((ran as Error).message).not.toContain(server.apiKey);
      // No stream opened and no cancel sent for a run it has no id of.
      expect(requests).toEqual([`POST /api/v1/workspaces/${server.workspace}/agent-runs`]);
    });
  }
});
