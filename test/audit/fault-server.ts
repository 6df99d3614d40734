/**
 * An independent MANTYX agent-runs server for the audit: written from the
 * documents (agent-runs-protocol.md §5, §7, §8, §9, §10; wire-protocol.md
 * §4, §5, §10; the WHATWG event-stream rules), not from the project's mock
 * (generator/mock/), so it shares none of its assumptions. Real HTTP on
 * 127.0.0.1.
 *
 * A run is a script of steps: emit an event, or wait for a tool result
 * (answered: a `local_tool_result_in` echo is stored; not answered within
 * the step's wait: the run ends with an `error_local_tool_timeout` result,
 * so a later POST is `409 run_terminal`). Events are stored with a `seq`
 * and served to every stream connection from the resume point (Last-Event-ID
 * or ?lastSeq=, the larger), then live until the terminal event.
 *
 * What each stream connection suffers is the test's `faults(n, request)`
 * (n: the run's connection count, 1-based): the byte-level and HTTP-level
 * failures listed in `ConnectionFaults`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface StoredEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
  /** Written instead of the JSON envelope/flat frame (a broken frame): the `data:` text. */
  rawData?: string;
  /** Sent without `event:` line (a middleware strips it). */
  noEventLine?: boolean;
  /** `id:` line written as given instead of the seq (e.g. with a NUL: ignored by SSE parsers). */
  idLine?: string | null;
}

export type Step =
  | {
      emit: {
        type: string;
        data?: Record<string, unknown>;
        rawData?: string;
        noEventLine?: boolean;
        idLine?: string | null;
      };
    }
  | { awaitTool: string; waitMs?: number }
  | { pauseMs: number };

export interface ConnectionFaults {
  /** Answer with this status and a §10 error body instead of the stream. */
  status?: number;
  retryAfter?: string;
  /** A 200 with this content type and a non-SSE body. */
  contentType?: string;
  /** Destroy the socket after writing K frames (no chunked terminator). */
  dropAfter?: number;
  /** After K frames, write `cutBytes` bytes of the next one, then destroy. */
  cutAfter?: number;
  cutBytes?: number;
  /** End the response cleanly after K frames (no terminal event). */
  endAfter?: number;
  /** After K frames write nothing more, socket left open. */
  stallAfter?: number;
  /** After K frames, write `partialBytes` bytes of the next frame, then (`partialThen`) end cleanly or fall silent. */
  partialAfter?: number;
  partialBytes?: number;
  partialThen?: "end" | "stall";
  /** Ignore Last-Event-ID and ?lastSeq= (a proxy strips them): the whole log again. */
  ignoreResume?: boolean;
  /** Resend the K frames before the resume point first. */
  replay?: number;
  eol?: "\n" | "\r" | "\r\n";
  bom?: boolean;
  /** Write every frame in pieces of N bytes, each its own socket write. */
  chunk?: number;
  /** Flat frames `{seq, type, ...payload}` instead of envelopes. */
  flat?: boolean;
  /** Flat frames without `type` (only the `event:` line names it). */
  flatNoType?: boolean;
  /** Extra lines before the first frame (comments, retry:, unknown fields). */
  preamble?: string;
  /** Heartbeat comment every MS ms. */
  heartbeatMs?: number;
}

export interface AuditRun {
  id: string;
  body: unknown;
  log: StoredEvent[];
  terminal: boolean;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  connections: number;
  /** Every stream request's resume hints: [Last-Event-ID, lastSeq]. */
  resumes: Array<[string | undefined, string | undefined]>;
  /** Tool-result POSTs by toolUseId, and the status each got. */
  posts: Map<string, number[]>;
  postBodies: unknown[];
  cancels: number;
  /** Resolves waiting tool steps. */
  waiters: Map<string, (body: unknown) => void>;
  /** Answers to calls emitted and still pending whose `awaitTool` step has not come yet (a turn's calls are all pending at once). */
  early: Map<string, unknown>;
  listeners: Set<() => void>;
}

export interface AuditServer {
  url: string;
  workspace: string;
  apiKey: string;
  runs: Map<string, AuditRun>;
  /** The script of the next runs created. */
  script: Step[];
  /** Faults of stream connection n of a run. */
  faults: (n: number, run: AuditRun, req: IncomingMessage) => ConnectionFaults;
  /** Status answered to POST /agent-runs (202 by the October edition, 201 by the seed edition). */
  createStatus: number;
  /** Status of an accepted tool result: 200 `{}` (October) or 204 (seed). */
  toolResultStatus: 200 | 204;
  /** A status to answer tool-result POST n (1-based, over the server's life) with instead of handling it (429, 503, ...), with Retry-After 0. */
  toolResultFault: (n: number) => number | undefined;
  /** Extra members of getRun's snapshot. */
  snapshotExtra: Record<string, unknown>;
  /** Requests by route label. */
  hits: Record<string, number>;
  /** Stream responses the server is still writing or holding open (a client that let go of one closes it). */
  openStreams: number;
  /** Answers a request itself instead of the routes (HTTP-level oddities: deep or huge bodies, 304, ...): return true when it did. */
  override: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean;
  close(): Promise<void>;
}

const WORKSPACE = "acme";

export async function startAuditServer(apiKey = "mantyx_audit_key_7f3a9c"): Promise<AuditServer> {
  const sockets = new Set<Socket>();
  const runs = new Map<string, AuditRun>();
  let nextRun = 1;
  let toolPosts = 0;
  const server: AuditServer = {
    url: "",
    workspace: WORKSPACE,
    apiKey,
    runs,
    script: [],
    faults: () => ({}),
    createStatus: 202,
    toolResultStatus: 200,
    snapshotExtra: {},
    hits: {},
    openStreams: 0,
    toolResultFault: () => undefined,
    override: () => false,
    close: async () => undefined,
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, { ...(text ? { "content-type": "application/json" } : {}), ...headers });
    res.end(text);
  };
  const fail = (
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ): void => json(res, status, { error: code, message }, headers);

  const append = (
    run: AuditRun,
    type: string,
    data: Record<string, unknown> = {},
    extra: Partial<StoredEvent> = {},
  ): void => {
    if (run.terminal) return;
    run.log.push({ seq: run.log.length + 1, type, data, ...extra });
    if (type === "result" || type === "error" || type === "cancelled") {
      run.terminal = true;
      run.status =
        type === "cancelled"
          ? "cancelled"
          : type === "error" || String(data["subtype"] ?? "success") !== "success"
            ? "failed"
            : "succeeded";
    }
    for (const wake of run.listeners) wake();
  };

  const play = async (run: AuditRun, steps: Step[]): Promise<void> => {
    run.status = "running";
    for (const step of steps) {
      if (run.terminal) return;
      if ("emit" in step) {
        const { type, data, ...extra } = step.emit;
        append(run, type, data ?? {}, extra);
      } else if ("pauseMs" in step) {
        await new Promise((r) => setTimeout(r, step.pauseMs));
      } else {
        const id = step.awaitTool;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const answered = await new Promise<unknown>((resolve) => {
          if (run.early.has(id)) return resolve(run.early.get(id));
          run.waiters.set(id, resolve);
          timer = setTimeout(() => resolve(undefined), step.waitMs ?? 10_000);
        });
        clearTimeout(timer);
        run.waiters.delete(id);
        if (answered === undefined) {
          append(run, "result", {
            subtype: "error_local_tool_timeout",
            error: `Timed out waiting for local tool result ${id}`,
          });
          return;
        }
        const b = answered as { result?: string; error?: string };
        append(run, "local_tool_result_in", {
          toolUseId: id,
          ...(b.error !== undefined ? { error: b.error } : { output: b.result }),
        });
      }
    }
  };

  const frameText = (event: StoredEvent, f: ConnectionFaults): string => {
    const eol = f.eol ?? "\n";
    let data: string;
    if (event.rawData !== undefined) data = event.rawData;
    else if (f.flat || f.flatNoType)
      data = JSON.stringify(
        f.flatNoType ? { seq: event.seq, ...event.data } : { seq: event.seq, type: event.type, ...event.data },
      );
    else data = JSON.stringify({ seq: event.seq, type: event.type, data: event.data });
    const lines: string[] = [];
    if (event.idLine !== null) lines.push(`id: ${event.idLine ?? event.seq}`);
    if (!event.noEventLine) lines.push(`event: ${event.type}`);
    // A data text with line breaks is several data: lines (the SSE rule joins them with LF).
    for (const line of data.split("\n")) lines.push(`data: ${line}`);
    return lines.join(eol) + eol + eol;
  };

  const stream = async (
    run: AuditRun,
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ): Promise<void> => {
    const n = ++run.connections;
    const header = req.headers["last-event-id"] as string | undefined;
    const q = query.get("lastSeq") ?? undefined;
    run.resumes.push([header, q]);
    const f = server.faults(n, run, req);
    if (f.status)
      return fail(
        res,
        f.status,
        f.status === 429 ? "rate_limit_exceeded" : "unavailable",
        "try later",
        f.retryAfter ? { "retry-after": f.retryAfter } : {},
      );
    if (f.contentType) {
      res.writeHead(200, { "content-type": f.contentType });
      return void res.end(f.contentType.includes("json") ? '{"ok":true}' : "<html><body>Sign in</body></html>");
    }
    const hints = f.ignoreResume ? [] : [header, q].map((v) => (v !== undefined && /^\d+$/.test(v) ? +v : 0));
    const resume = Math.max(0, ...hints);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    res.flushHeaders();
    server.openStreams++;
    res.once("close", () => server.openStreams--);
    const socket = res.socket!;
    socket.setNoDelay(true);
    const write = async (text: string | Buffer): Promise<void> => {
      const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
      const size = f.chunk ?? bytes.length;
      for (let i = 0; i < bytes.length; i += size) {
        if (socket.destroyed) return;
        res.write(bytes.subarray(i, i + size));
        if (f.chunk) await new Promise((r) => setImmediate(r));
      }
    };
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let stalled = false;
    if (f.heartbeatMs)
      heartbeat = setInterval(() => !stalled && !socket.destroyed && res.write(": ping\n\n"), f.heartbeatMs);
    res.on("close", () => clearInterval(heartbeat));
    if (f.bom) await write("\uFEFF");
    if (f.preamble) await write(f.preamble);
    let sent = 0;
    let index = Math.max(0, resume - (f.replay ?? 0));
    for (;;) {
      while (index < run.log.length) {
        if (socket.destroyed) return;
        const event = run.log[index++]!;
        if (f.stallAfter !== undefined && sent >= f.stallAfter) {
          stalled = true;
          return; // open, silent, until the client goes
        }
        if (f.endAfter !== undefined && sent >= f.endAfter) return void res.end();
        const text = frameText(event, f);
        if (f.partialAfter !== undefined && sent >= f.partialAfter) {
          await write(
            Buffer.from(text, "utf8").subarray(0, Math.min(f.partialBytes ?? 5, Buffer.byteLength(text) - 1)),
          );
          if (f.partialThen === "stall") return;
          return void res.end();
        }
        if (f.cutAfter !== undefined && sent >= f.cutAfter) {
          const bytes = Buffer.from(text, "utf8");
          res.write(bytes.subarray(0, Math.min(f.cutBytes ?? 5, bytes.length - 1)));
          return void setTimeout(() => socket.destroy(), 5);
        }
        await write(text);
        sent++;
        if (f.dropAfter !== undefined && sent >= f.dropAfter) return void setTimeout(() => socket.destroy(), 5);
      }
      if (run.terminal && index >= run.log.length) return void res.end();
      await new Promise<void>((wake) => {
        const done = (): void => {
          run.listeners.delete(done);
          wake();
        };
        run.listeners.add(done);
        res.once("close", done);
      });
      if (socket.destroyed || res.writableEnded) return;
    }
  };

  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      let text = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (text += c));
      req.on("end", () => resolve(text));
      req.on("error", reject);
    });

  const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const auth = req.headers["authorization"];
    const given = typeof auth === "string" ? auth.replace(/^Bearer /, "") : req.headers["x-api-key"];
    const base = `/api/v1/workspaces/${WORKSPACE}/agent-runs`;
    const label = `${req.method} ${url.pathname.replace(/run_\d+/, ":id")}`;
    server.hits[label] = (server.hits[label] ?? 0) + 1;
    if (server.override(req, res, url)) return;
    if (given !== apiKey) return fail(res, 401, "unauthorized", "Missing or invalid API key");
    if (!url.pathname.startsWith(base)) return fail(res, 404, "not_found", "no such route");
    const rest = url.pathname.slice(base.length).split("/").filter(Boolean);
    if (req.method === "POST" && rest.length === 0) {
      const body = JSON.parse((await readBody(req)) || "null");
      const id = `run_${nextRun++}`;
      const run: AuditRun = {
        id,
        body,
        log: [],
        terminal: false,
        status: "queued",
        connections: 0,
        resumes: [],
        posts: new Map(),
        postBodies: [],
        cancels: 0,
        waiters: new Map(),
        early: new Map(),
        listeners: new Set(),
      };
      runs.set(id, run);
      const steps = server.script;
      setTimeout(() => void play(run, steps), 1);
      return json(res, server.createStatus, { runId: id, streamUrl: `${base}/${id}/stream` });
    }
    const run = runs.get(rest[0] ?? "");
    if (!run) return fail(res, 404, "not_found", "Run not found");
    if (req.method === "GET" && rest.length === 1) {
      const over = run.terminal;
      return json(res, 200, {
        id: run.id,
        status: run.status,
        tokens: over ? { inputTokens: 1, cachedTokens: 0, reasoningTokens: 0, outputTokens: 1 } : null,
        turns: over ? 1 : null,
        model: null,
        ...server.snapshotExtra,
      });
    }
    if (req.method === "GET" && rest[1] === "stream") return stream(run, req, res, url.searchParams);
    if (req.method === "POST" && rest[1] === "tool-results") {
      const body = JSON.parse(await readBody(req)) as { toolUseId: string };
      const faulted = server.toolResultFault(++toolPosts);
      if (faulted) {
        (run.posts.get(body.toolUseId) ?? run.posts.set(body.toolUseId, []).get(body.toolUseId)!).push(faulted);
        return fail(res, faulted, faulted === 429 ? "rate_limit_exceeded" : "unavailable", "try later", {
          "retry-after": "0",
        });
      }
      run.postBodies.push(body);
      const statuses = run.posts.get(body.toolUseId) ?? [];
      run.posts.set(body.toolUseId, statuses);
      const waiter = run.waiters.get(body.toolUseId);
      if (run.terminal) {
        statuses.push(409);
        return fail(res, 409, "run_terminal", "The run already finished");
      }
      // A call emitted and not yet answered is pending, whether or not the script waits for it yet.
      const pending =
        run.log.some(
          (e) => e.type === "local_tool_call" && (e.data as { toolUseId?: unknown }).toolUseId === body.toolUseId,
        ) &&
        !run.early.has(body.toolUseId) &&
        !run.log.some(
          (e) => e.type === "local_tool_result_in" && (e.data as { toolUseId?: unknown }).toolUseId === body.toolUseId,
        );
      if (!waiter && pending) {
        statuses.push(server.toolResultStatus);
        run.early.set(body.toolUseId, body);
        return server.toolResultStatus === 204 ? json(res, 204, undefined) : json(res, 200, {});
      }
      if (!waiter) {
        statuses.push(404);
        return fail(res, 404, "unknown_tool_use", "No pending call with that toolUseId");
      }
      statuses.push(server.toolResultStatus);
      run.waiters.delete(body.toolUseId);
      waiter(body);
      return server.toolResultStatus === 204 ? json(res, 204, undefined) : json(res, 200, {});
    }
    if (req.method === "POST" && rest[1] === "cancel") {
      run.cancels++;
      append(run, "cancelled", { reason: "user" });
      return json(res, 204, undefined);
    }
    return fail(res, 404, "not_found", "no such route");
  });
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      http.close(() => r());
    });
  return server;
}
