/**
 * The client's last fault gaps (issue 21, section 2), over real HTTP on
 * 127.0.0.1 against the audit's own server (./fault-server.ts), with the
 * client's default settings (only the idle timeout scaled down): a 2xx
 * stream answer that is not an event stream fails at once without its body
 * being read; a huge `Retry-After` is not waited for; an id-less malformed
 * first frame is delivered once across a reconnect; a body that breaks off
 * is retried where the request is safe to repeat; an error body is read up
 * to 64 KiB only; a flat frame with an additive `data` member stays flat.
 * Each test counts requests or bytes, never time.
 */
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { isMantyxApiError, isUnexpectedResponseError, runAgent, StreamDecodeError, ToolRegistry } from "../../index.js";
import { ERROR_BODY_LIMIT } from "../../runtime/client/core.js";
import { MAX_SERVER_DELAY_MS } from "../../runtime/client/internal/backoff.js";
import { auditServer } from "./support.js";

const { server, client } = await auditServer();

const IDLE = 400;
const result = { emit: { type: "result", data: { subtype: "success", text: "ok" } } };

/** Writes an endless body, 1 KiB a turn of the event loop (the client shares it), until the client lets go; resolves with the bytes written then. */
function endless(res: ServerResponse, piece: string): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    const more = (): void => {
      if (res.destroyed) return;
      written += piece.length;
      if (res.write(piece)) setImmediate(more);
      else res.once("drain", more);
    };
    res.on("close", () => resolve(written));
    more();
  });
}

describe("a 2xx stream answer that is not text/event-stream", () => {
  const page = "<html><body>Sign in to continue</body></html>".padEnd(1024, " ");

  for (const [name, contentType] of [
    ["a login page", "text/html; charset=utf-8"],
    ["a proxy's JSON error", "application/json"],
  ] as const) {
    it(`${name} (endless body): streamRun fails at once with the typed error naming the content type, one connection, the body let go`, async () => {
      server.script = [result];
      const c = client();
      const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
      let connections = 0;
      let closed: Promise<number> | undefined;
      server.override = (req, res) => {
        if (!req.url?.includes("/stream")) return false;
        connections++;
        res.writeHead(200, { "content-type": contentType });
        closed = endless(res, page);
        return true;
      };
      const error = await (async () => {
        for await (const _ of c.streamRun(runId, { idleTimeoutMs: IDLE })) void _;
      })().catch((e: unknown) => e);
      server.override = () => false;
      expect(isUnexpectedResponseError(error)).toBe(true);
      expect(error).toMatchObject({ operationId: "streamRun", status: 200, contentType });
      expect((error as Error).message).toContain(contentType);
      expect(connections).toBe(1);
      // The client let go of the body: the endless writer stopped (a client reading it all would never end).
      expect(await closed).toBeGreaterThan(0);
    });
  }

  it("through runAgent: the same typed error, one stream connection, no tool run", async () => {
    server.script = [
      { emit: { type: "local_tool_call", data: { toolUseId: "tu_1", name: "add", args: {}, kind: "local" } } },
      { awaitTool: "tu_1" },
      result,
    ];
    let connections = 0;
    server.override = (req, res) => {
      if (!req.url?.includes("/stream")) return false;
      connections++;
      res.writeHead(200, { "content-type": "text/html" });
      void endless(res, page);
      return true;
    };
    let ran = 0;
    const tools = new ToolRegistry().local({ name: "add", handler: () => String(++ran) });
    const error = await runAgent(client(), { systemPrompt: "s", prompt: "p" }, { tools, idleTimeoutMs: IDLE }).catch(
      (e: unknown) => e,
    );
    server.override = () => false;
    expect(isUnexpectedResponseError(error)).toBe(true);
    expect((error as { contentType: string }).contentType).toBe("text/html");
    expect([connections, ran]).toEqual([1, 0]);
  });

  it("after events were delivered (a drop, then a login page on the reconnect): the events once, then the typed error, no third connection", async () => {
    server.script = [
      { emit: { type: "assistant_delta", data: { text: "a" } } },
      { emit: { type: "assistant_delta", data: { text: "b" } } },
      result,
    ];
    server.faults = (n) => (n === 1 ? { dropAfter: 1 } : { contentType: "text/html" });
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    const seqs: number[] = [];
    const error = await (async () => {
      for await (const e of c.streamRun(runId, { idleTimeoutMs: IDLE })) seqs.push(e.seq);
    })().catch((e: unknown) => e);
    server.faults = () => ({});
    expect(isUnexpectedResponseError(error)).toBe(true);
    expect(seqs).toEqual([1]);
    expect(server.runs.get(runId)!.connections).toBe(2);
  });
});

describe("a Retry-After longer than the cap (60 s) is not waited for", () => {
  it("the stream: a 503 asking for a day is reconnected on the client's own back-off, and the run completes", async () => {
    server.script = [{ emit: { type: "assistant_delta", data: { text: "a" } } }, result];
    server.faults = (n) => (n === 1 ? { status: 503, retryAfter: "86400" } : {});
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    const delays: number[] = [];
    const seqs: number[] = [];
    for await (const e of c.streamRun(runId, { idleTimeoutMs: IDLE, onReconnect: (i) => delays.push(i.delayMs) }))
      seqs.push(e.seq);
    server.faults = () => ({});
    expect(seqs).toEqual([1, 2]);
    expect(server.runs.get(runId)!.connections).toBe(2);
    // The computed delay (not a measured time): the reconnect back-off's own, at most its 5 s cap.
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThanOrEqual(5000);
  });

  it("a request: a 503 whose Retry-After is a far-off date is retried on the client's back-off (getRun answers on the second attempt)", async () => {
    server.script = [result];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    let attempts = 0;
    server.override = (req, res) => {
      if (req.method !== "GET" || req.url?.includes("/stream") || ++attempts > 1) return false;
      res.writeHead(503, {
        "content-type": "application/json",
        "retry-after": new Date(Date.now() + 7 * 86400e3).toUTCString(),
      });
      res.end('{"error":"server_error","message":"maintenance"}');
      return true;
    };
    const run = await c.getRun(runId);
    server.override = () => false;
    expect(run.id).toBe(runId);
    expect(attempts).toBe(2);
  });

  it("up to the cap it is still honoured (a minimum), above it the back-off is the client's own", async () => {
    const { backoff } = await import("../../runtime/client/internal/backoff.js");
    expect(backoff(1, undefined, undefined, MAX_SERVER_DELAY_MS)).toBe(MAX_SERVER_DELAY_MS);
    expect(backoff(1, undefined, MAX_SERVER_DELAY_MS)).toBe(MAX_SERVER_DELAY_MS);
    for (const huge of [MAX_SERVER_DELAY_MS + 1, 86400e3, 3e12]) {
      expect(backoff(1, undefined, undefined, huge)).toBeLessThanOrEqual(500);
      expect(backoff(3, { maxDelayMs: 1000 }, huge)).toBeLessThanOrEqual(1000);
    }
  });
});

describe("an id-less malformed frame that is the very first frame", () => {
  for (const ignoreResume of [false, true]) {
    it(`is delivered once across a drop before any event${ignoreResume ? " (the server ignoring resume hints)" : ""}`, async () => {
      server.script = [
        { emit: { type: "assistant_delta", rawData: "not json at the start", idLine: null } },
        { emit: { type: "assistant_delta", rawData: "more not json", idLine: null } },
        { emit: { type: "assistant_delta", data: { text: "a" } } },
        result,
      ];
      server.faults = (n) => ({ ...(n === 1 ? { dropAfter: 2 } : {}), ignoreResume });
      const c = client();
      const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
      const got: string[] = [];
      for await (const item of c.streamRun(runId, { idleTimeoutMs: IDLE, onInvalid: "deliver" }))
        got.push(item instanceof StreamDecodeError ? item.frame.data : `event ${item.seq}`);
      server.faults = () => ({});
      expect(got).toEqual(["not json at the start", "more not json", "event 3", "event 4"]);
      expect(server.runs.get(runId)!.connections).toBe(2);
    });
  }

  it("and a drop right after it: the one frame once, then the rest", async () => {
    server.script = [
      { emit: { type: "assistant_delta", rawData: "not json", idLine: null } },
      { emit: { type: "assistant_delta", data: { text: "a" } } },
      result,
    ];
    server.faults = (n) => (n === 1 ? { dropAfter: 1 } : {});
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    const got: string[] = [];
    for await (const item of c.streamRun(runId, { idleTimeoutMs: IDLE, onInvalid: "deliver" }))
      got.push(item instanceof StreamDecodeError ? item.frame.data : `event ${item.seq}`);
    server.faults = () => ({});
    expect(got).toEqual(["not json", "event 2", "event 3"]);
  });
});

describe("a body that breaks off", () => {
  it("getRun's JSON answer cut mid-body is sent again (idempotent) and read", async () => {
    server.script = [result];
    const c = client();
    const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
    let attempts = 0;
    server.override = (req, res) => {
      if (req.method !== "GET" || req.url?.includes("/stream") || ++attempts > 1) return false;
      const body = `{"id":"${runId}","status":"running","padding":"${"x".repeat(4000)}"}`;
      res.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
      res.write(body.slice(0, 100));
      setImmediate(() => res.destroy());
      return true;
    };
    const run = await c.getRun(runId);
    server.override = () => false;
    expect(run.status).toBe("succeeded");
    expect(attempts).toBe(2);
  });

  it("createRun's answer cut mid-body is not sent again (not idempotent): a MantyxConnectionError after one request", async () => {
    server.script = [result];
    let attempts = 0;
    server.override = (req, res) => {
      if (req.method !== "POST") return false;
      attempts++;
      res.writeHead(202, { "content-type": "application/json", "content-length": "500" });
      res.write('{"runId":"run_');
      setImmediate(() => res.destroy());
      return true;
    };
    const error = await client()
      .createRun({ systemPrompt: "s", prompt: "p" })
      .catch((e: unknown) => e);
    server.override = () => false;
    expect((error as Error).name).toBe("ConnectionError");
    expect(attempts).toBe(1);
  });
});

describe("an error answer's body is read up to 64 KiB", () => {
  it("an endless 400 body: a MantyxApiError with the status and at most 64 KiB of the body, the rest never read", async () => {
    let closed: Promise<number> | undefined;
    server.override = (req, res) => {
      if (req.method !== "POST") return false;
      res.writeHead(400, { "content-type": "text/html" });
      closed = endless(res, "<p>Bad request</p>".padEnd(1024, "."));
      return true;
    };
    const error = await client()
      .createRun({ systemPrompt: "s", prompt: "p" })
      .catch((e: unknown) => e);
    server.override = () => false;
    expect(isMantyxApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: "invalid_request" });
    const body = (error as { body: string }).body;
    expect(typeof body).toBe("string");
    expect(body.length).toBe(ERROR_BODY_LIMIT);
    expect(body.startsWith("<p>Bad request</p>")).toBe(true);
    expect(await closed).toBeGreaterThan(ERROR_BODY_LIMIT);
  });

  it("a JSON error body under the cap keeps its code and message", async () => {
    server.override = (req, res) => {
      if (req.method !== "POST") return false;
      res.writeHead(409, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "conflict_here", message: "m".repeat(ERROR_BODY_LIMIT - 100) }));
      return true;
    };
    const error = await client()
      .createRun({ systemPrompt: "s", prompt: "p" })
      .catch((e: unknown) => e);
    server.override = () => false;
    expect(error).toMatchObject({ status: 409, code: "conflict_here" });
  });
});

describe("a flat frame with an additive data member", () => {
  for (const extra of ['"plain text"', '{"nested":1}', "[1,2]", "null"]) {
    it(`a local_tool_call with data: ${extra} is read flat (its toolUseId, name and args kept) and its tool runs once`, async () => {
      server.script = [
        {
          emit: {
            type: "local_tool_call",
            rawData: `{"seq":1,"type":"local_tool_call","toolUseId":"tu_1","name":"add","args":{"a":1},"kind":"local","data":${extra}}`,
          },
        },
        { awaitTool: "tu_1" },
        result,
      ];
      server.faults = () => ({});
      const calls: unknown[] = [];
      const tools = new ToolRegistry().local({
        name: "add",
        handler: (args) => {
          calls.push(args);
          return "2";
        },
      });
      const terminal = await runAgent(client(), { systemPrompt: "s", prompt: "p" }, { tools, idleTimeoutMs: IDLE });
      expect(terminal.type).toBe("result");
      expect(calls).toEqual([{ a: 1 }]);
    });
  }
});
