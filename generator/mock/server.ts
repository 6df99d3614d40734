/**
 * A real HTTP server (node:http on 127.0.0.1, random port) that speaks the
 * MANTYX agent-runs routes with scripted runs (./scenarios.ts), for tests and
 * the demo. Not a protocol reference: it implements what the client needs to
 * be tested against — both credential headers and OAuth scopes, every
 * documented error body, resume by `Last-Event-ID` / `?lastSeq=`, and
 * faults (./faults/: asked for by `--fault`, the create-run or stream
 * request's `X-Mock-Fault` header or `?mockFault=`, or the test queue).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { faultSpecOfRequest, faultTextOfRequest, isFaultSpecError, NO_FAULTS, parseFaultSpec, planConnection, resumePoint, serveStream, type ConnectionEnd, type FaultSpec, type PlanLayer } from "./faults/index.js";
import { frameOf, MockRun, type FrameShape, type LogEntry, type ToolAnswerBody } from "./run-state.js";
import { play } from "./scenarios.js";

export interface MockServerOptions {
  /** The workspace API key (all scopes). Default `mantyx_test_key`. */
  apiKey?: string;
  /** The credential's workspace. Default `acme`. */
  workspace?: string;
  /** OAuth access tokens and their scopes. Default: `mantyx_at_readonly` with `runs:read`. */
  oauthTokens?: Record<string, string[]>;
  /** `older` answers 202 for runs, 200 for tool results (also after the run ended). Default `newer`. */
  vintage?: "newer" | "older";
  /** `retry:` sent at the start of each stream, in ms. Default: none. */
  retryMs?: number;
  /**
   * Error answers echo the credential they received, as a careless server or
   * proxy might: in the body (as a value and as a key), in `x-request-id`,
   * and in `WWW-Authenticate`. Default false.
   */
  echoCredential?: boolean;
  /** Accept tool results, cancels and session deletes with `200 text/plain` `OK` (a body that is not JSON). Default false. */
  plainTextAcks?: boolean;
  /** TCP port on 127.0.0.1. Default 0: any free port. */
  port?: number;
  /**
   * The shape of each event's data: `envelope` (default, as the documents
   * show), `flat` (`{ seq, type, ...payload }`, as the official SDKs' mocks
   * send it) or `flat-untyped` (no `type`: only the `event:` line names it).
   */
  frames?: FrameShape;
  /**
   * The edition whose terminal success the scripted runs send: `2026-10`
   * (`result` with `subtype: "success"`, as the October documents show) or
   * `2026-09` (default: `ok: true`, the seed edition). A run's
   * `metadata.edition` overrides it.
   */
  edition?: "2026-10" | "2026-09";
  /**
   * A fault spec for every run (generator/mock/faults/spec.ts; the CLI's
   * `--fault`), e.g. `drop-after=3` or `eol=crlf@*,chunk=3@*`. A create-run
   * request's own spec adds to it, replacing faults it names again. An
   * invalid spec throws a FaultSpecError when the server starts.
   */
  faults?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  status: number;
}

export interface StreamConnection {
  runId: string;
  /** Its number among the run's stream connections, 1-based (what `@` in a fault spec selects). */
  connection: number;
  lastEventId: string | undefined;
  lastSeqQuery: string | undefined;
  /** The faults it met, ranges drawn (as its `X-Mock-Faults` header says); `""`: none. */
  faults: string;
  /** How it ended, once it has (a stalled one: `stalled`, though the socket stays open). */
  end: ConnectionEnd | undefined;
  /** Frames written on it (replays included). */
  frames: number;
}

export interface MockServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  apiKey: string;
  workspace: string;
  /**
   * Fault specs for the next stream connections (any run), one per
   * connection, consumed in order: `faults.push("drop-after=2", "ignore-resume")`.
   * The same language as `X-Mock-Fault` on a stream request (connection
   * faults only; an invalid one is answered 400 when its connection comes).
   */
  faults: string[];
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Every stream connection, in arrival order. */
  streams: StreamConnection[];
  runs: Map<string, MockRun>;
  /** The next `n` requests (any route) answer 429 with `Retry-After`. */
  rateLimitNext(n: number, retryAfterSeconds?: number): void;
  /** The next `n` requests other than streams get no answer (`"headers"`), or headers and half a body (`"body"`), and are left hanging. */
  stallNext(n: number, phase?: "headers" | "body"): void;
  /** The SSE bytes of the run's whole log (what a fresh, fault-free connection receives after `retry:`). */
  transcript(runId: string): string;
  /** Resolves when the run has ended. */
  waitForRun(runId: string): Promise<MockRun>;
  close(): Promise<void>;
}

const SCOPES: Array<[RegExp, string, string]> = [
  [/^\/api\/v1\/workspaces\/[^/]+\/models$/, "GET", "models:read"],
  [/^\/api\/v1\/workspaces\/[^/]+\/agent-runs$/, "POST", "runs:write"],
  [/^\/api\/v1\/workspaces\/[^/]+\/agent-runs\/[^/]+(\/stream)?$/, "GET", "runs:read"],
  [/^\/api\/v1\/workspaces\/[^/]+\/agent-runs\/[^/]+\/(cancel|tool-results)$/, "POST", "runs:write"],
  [/^\/api\/v1\/workspaces\/[^/]+\/agent-sessions\/[^/]+$/, "GET", "sessions:read"],
  [/^\/api\/v1\/workspaces\/[^/]+\/agent-sessions(\/[^/]+(\/messages)?)?$/, "*", "sessions:write"],
  [/^\/api\/oauth\/userinfo$/, "GET", "mantyx.identity:read"],
];

const MODELS = {
  models: [
    { id: "platform:demo", label: "Demo", provider: "openai", vendorModelId: "gpt-5.4-mini", source: "platform_offering", contextWindowTokens: 400000, pricing: { inputPer1MUsd: 0.25, outputPer1MUsd: 2, cacheReadPer1MUsd: null } },
    { id: "provider:cm6def456", label: "Claude", provider: "anthropic", vendorModelId: "claude-opus-4-7", source: "workspace_provider", contextWindowTokens: 200000, pricing: null },
  ],
  defaultModelId: "platform:demo",
};

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const apiKey = options.apiKey ?? "mantyx_test_key";
  const workspace = options.workspace ?? "acme";
  const oauth = options.oauthTokens ?? { mantyx_at_readonly: ["runs:read"] };
  const older = options.vintage === "older";
  const runs = new Map<string, MockRun>();
  const sessions = new Map<string, { spec: Record<string, unknown>; status: "active" | "ended"; runId?: string }>();
  const faults: string[] = [];
  const serverFaults = parseFaultSpec(options.faults ?? "", "--fault", "run");
  const requests: RecordedRequest[] = [];
  const streams: StreamConnection[] = [];
  const sockets = new Set<Socket>();
  /** The credential each request carried, for `echoCredential`. */
  const credentials = new WeakMap<ServerResponse, string>();
  let rateLimited = 0;
  let stalled = 0;
  let stallPhase: "headers" | "body" = "headers";
  let rateLimitRetryAfter = 0;
  let counter = 0;

  const newRun = (spec: Record<string, unknown>, sessionId: string | undefined, requestFaults: FaultSpec): MockRun => {
    const run = new MockRun(`run_${++counter}`, spec, sessionId, options.edition, [serverFaults, requestFaults]);
    runs.set(run.id, run);
    // Started on the next tick: the creating request is answered first, as a real server does.
    setImmediate(() => void play(run).catch((e: unknown) => run.emit("error", { error: String(e), code: "worker_error" })));
    return run;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: "server_error", message: String(e) });
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    const echo = options.echoCredential === true && status >= 400 ? credentials.get(res) : undefined;
    if (echo !== undefined) {
      body = { ...(body as object), message: `credential ${echo} was refused`, echo: { [echo]: echo } };
      headers = {
        ...headers,
        "x-request-id": `req_${++counter}-${echo}`,
        "www-authenticate": `Bearer realm="${echo}", error="insufficient_scope", scope="runs:write ${echo}"`,
      };
    }
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, { "x-request-id": `req_${++counter}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers });
    res.end(text);
    const last = requests[requests.length - 1];
    if (last !== undefined) last.status = status;
  }

  /** `200 text/plain OK`: a success body that is not JSON, as some servers and proxies send. */
  function sendPlainOk(res: ServerResponse): void {
    res.writeHead(200, { "content-type": "text/plain", "x-request-id": `req_${++counter}` });
    res.end("OK");
    const last = requests[requests.length - 1];
    if (last !== undefined) last.status = 200;
  }

  async function readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return { __invalidJson: text };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const method = req.method ?? "GET";
    const body = method === "POST" ? await readBody(req) : undefined;
    requests.push({ method, path, query: Object.fromEntries(url.searchParams), headers: { ...req.headers }, body, status: 0 });

    if (stalled > 0 && !path.endsWith("/stream")) {
      stalled--;
      if (stallPhase === "body") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"runId": "run_');
      }
      return; // left hanging: the client's timeout must end it
    }
    if (rateLimited > 0) {
      rateLimited--;
      send(res, 429, { error: "rate_limited" }, { "retry-after": String(rateLimitRetryAfter) });
      return;
    }

    // Credentials: one code path for API keys and OAuth tokens.
    const auth = req.headers["authorization"];
    const credential = typeof auth === "string" && /^Bearer /i.test(auth) ? auth.slice(7).trim() : (req.headers["x-api-key"] as string | undefined);
    if (credential !== undefined) credentials.set(res, credential);
    if (credential === undefined || credential === "") {
      send(res, 401, { error: "Unauthorized", message: "Missing Authorization or X-API-Key header" });
      return;
    }
    const scopes = credential === apiKey ? undefined : oauth[credential];
    if (credential !== apiKey && scopes === undefined) {
      send(res, 401, { error: "Invalid API key or OAuth access token" });
      return;
    }
    if (scopes !== undefined) {
      const needed = SCOPES.find(([re, m]) => re.test(path) && (m === "*" || m === method))?.[2];
      if (needed !== undefined && !scopes.includes(needed)) {
        send(res, 403, { error: "insufficient_scope", required: needed }, { "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}"` });
        return;
      }
    }

    if (path === "/api/oauth/userinfo" && method === "GET") {
      send(res, 200, { sub: "usr_123", email: "ada@acme.example", name: "Ada" });
      return;
    }
    const m = /^\/api\/v1\/workspaces\/([^/]+)(\/.*)$/.exec(path);
    if (m === null) {
      send(res, 404, { error: "not_found" });
      return;
    }
    if (decodeURIComponent(m[1]!) !== workspace) {
      send(res, 404, { error: "Workspace not found", hint: workspace });
      return;
    }
    const rest = m[2]!;
    let r: RegExpExecArray | null;

    if (rest === "/models" && method === "GET") return send(res, 200, MODELS);

    if (rest === "/agent-runs" && method === "POST") {
      const spec = body as Record<string, unknown> | undefined;
      const problem = specProblem(spec, true);
      if (problem !== undefined) return send(res, 400, problem);
      const requestFaults = faultsOf(req, url, res, "run");
      if (requestFaults === undefined) return;
      const run = newRun(spec!, undefined, requestFaults);
      return send(res, older ? 202 : 201, { runId: run.id, streamUrl: `/api/v1/workspaces/${workspace}/agent-runs/${run.id}/stream` });
    }
    if ((r = /^\/agent-runs\/([^/]+)$/.exec(rest)) && method === "GET") {
      const run = runs.get(r[1]!);
      if (run === undefined) return send(res, 404, { error: "not_found" });
      const done = run.done;
      return send(res, 200, {
        runId: run.id,
        // metadata.snapshotStatus: a status this client does not know (a newer server's).
        status: ((run.spec["metadata"] as Record<string, unknown> | undefined)?.["snapshotStatus"] as string | undefined) ?? run.status,
        finalText: run.finalText,
        error: run.error,
        failureReason: null,
        spec: run.spec,
        metadata: (run.spec["metadata"] as object | undefined) ?? null,
        tokens: done ? { inputTokens: 120, cachedTokens: 0, reasoningTokens: 0, outputTokens: 40 } : null,
        turns: done ? 1 : null,
        model: done ? { id: "platform:demo", provider: "openai", vendorModelId: "gpt-5.4-mini" } : null,
      });
    }
    if ((r = /^\/agent-runs\/([^/]+)\/stream$/.exec(rest)) && method === "GET") {
      const run = runs.get(r[1]!);
      if (run === undefined) return send(res, 404, { error: "not_found" });
      return stream(req, res, run, url);
    }
    if ((r = /^\/agent-runs\/([^/]+)\/tool-results$/.exec(rest)) && method === "POST") {
      const run = runs.get(r[1]!);
      if (run === undefined) return send(res, 404, { error: "not_found" });
      const b = body as ToolAnswerBody | undefined;
      const hasResult = typeof b?.result === "string";
      const hasError = typeof b?.error === "string";
      if (typeof b?.toolUseId !== "string" || hasResult === hasError) {
        return send(res, 400, { error: "invalid_request", message: "Send toolUseId and exactly one of result or error." });
      }
      const outcome = run.deliver(b);
      if (options.plainTextAcks === true && outcome === "accepted") return sendPlainOk(res);
      if (outcome === "terminal") return older ? send(res, 200) : send(res, 409, { error: "run_terminal", message: "The run already finished." });
      if (outcome === "unknown") return send(res, 404, { error: "unknown_tool_use", message: `No pending tool call ${b.toolUseId}.` });
      return older ? send(res, 200, {}) : send(res, 204);
    }
    if ((r = /^\/agent-runs\/([^/]+)\/cancel$/.exec(rest)) && method === "POST") {
      const run = runs.get(r[1]!);
      if (run === undefined) return send(res, 404, { error: "not_found" });
      run.cancel();
      if (options.plainTextAcks === true) return sendPlainOk(res);
      return send(res, 202);
    }
    if (rest === "/agent-sessions" && method === "POST") {
      const spec = (body ?? {}) as Record<string, unknown>;
      if ("prompt" in spec || "messages" in spec) return send(res, 400, { error: "invalid_request", message: "A session is created without input." });
      const id = `ses_${++counter}`;
      sessions.set(id, { spec, status: "active" });
      return send(res, 201, { sessionId: id });
    }
    if ((r = /^\/agent-sessions\/([^/]+)$/.exec(rest))) {
      const id = r[1]!;
      const session = sessions.get(id);
      if (session === undefined) return send(res, 404, { error: "not_found" });
      if (method === "GET") return send(res, 200, { sessionId: id, status: session.status });
      if (method === "DELETE") {
        session.status = "ended";
        if (session.runId !== undefined) runs.get(session.runId)?.cancel();
        if (options.plainTextAcks === true) return sendPlainOk(res);
        return send(res, 204);
      }
    }
    if ((r = /^\/agent-sessions\/([^/]+)\/messages$/.exec(rest)) && method === "POST") {
      const id = r[1]!;
      const session = sessions.get(id);
      if (session === undefined || session.status === "ended") return send(res, 404, { error: "not_found" });
      const b = (body ?? {}) as Record<string, unknown>;
      const problem = specProblem(b, true);
      if (problem !== undefined) return send(res, 400, problem);
      const merged = { ...session.spec, ...b, metadata: { ...((session.spec["metadata"] as object) ?? {}), ...((b["metadata"] as object) ?? {}) } };
      const requestFaults = faultsOf(req, url, res, "run");
      if (requestFaults === undefined) return;
      const run = newRun(merged, id, requestFaults);
      session.runId = run.id;
      return send(res, 201, { runId: run.id, streamUrl: `/api/v1/workspaces/${workspace}/agent-runs/${run.id}/stream` });
    }
    send(res, 404, { error: "not_found" });
  }

  function specProblem(spec: Record<string, unknown> | undefined, needsInput: boolean): object | undefined {
    if (typeof spec !== "object" || spec === null) return { error: "invalid_request", message: "Send a JSON object." };
    if ("prompt" in spec && "messages" in spec) return { error: "invalid_request", message: "Provide either prompt or messages, not both." };
    if (needsInput && !("prompt" in spec) && !("messages" in spec)) return { error: "invalid_request", message: "Provide prompt or messages." };
    const model = spec["modelId"];
    if (typeof model === "string" && model.startsWith("bogus")) {
      return { error: "invalid_model", message: `Unknown model ${model}`, candidates: ["platform:demo", "provider:cm6def456"] };
    }
    return undefined;
  }

  /** The request's fault spec, or undefined once an invalid one has been answered 400. */
  function faultsOf(req: IncomingMessage, url: URL, res: ServerResponse, context: "run" | "connection", queued?: string, run?: MockRun): FaultSpec | undefined {
    try {
      // A stream request repeating its run's create-run spec (one header on every call) adds nothing (faults/request.ts).
      const repeated = run !== undefined && faultTextOfRequest(req, url)?.text === run.faults[run.faults.length - 1]?.given;
      const own = repeated ? NO_FAULTS : faultSpecOfRequest(req, url, context);
      if (queued === undefined) return own;
      const fromQueue = parseFaultSpec(queued, "MockServer.faults entry", "connection");
      return own.text === "" ? fromQueue : parseFaultSpec(`${fromQueue.text},${own.text}`, "MockServer.faults entry and the stream request", "connection");
    } catch (error) {
      if (!isFaultSpecError(error)) throw error;
      send(res, 400, { error: "invalid_request", message: error.message, hint: "Fault specs: the fault table in the mock's README section (name[=value][@connections], separated by commas)." });
      return undefined;
    }
  }

  function stream(req: IncomingMessage, res: ServerResponse, run: MockRun, url: URL): void {
    const own = faultsOf(req, url, res, "connection", faults.shift(), run);
    if (own === undefined) return;
    const connection = ++run.connections;
    const layers: PlanLayer[] = [...run.faults.map((spec) => ({ spec, thisConnection: false })), { spec: own, thisConnection: true }];
    const plan = planConnection(layers, connection);
    const record: StreamConnection = {
      runId: run.id,
      connection,
      lastEventId: req.headers["last-event-id"] as string | undefined,
      lastSeqQuery: url.searchParams.get("lastSeq") ?? undefined,
      faults: plan.text,
      end: undefined,
      frames: 0,
    };
    streams.push(record);
    void serveStream<LogEntry>(
      {
        req,
        res,
        run,
        plan,
        frame: (entry) => frameOf(entry, options.frames),
        isTerminal: (entry) => entry.type === "result" || entry.type === "error" || entry.type === "cancelled",
        retryMs: options.retryMs,
        headers: { "x-request-id": `req_${++counter}` },
        refuse: (status, body, headers) => send(res, status, body, headers),
        onEnd: (end, frames) => {
          record.end = end;
          record.frames = frames;
        },
      },
      resumePoint(req, url, plan),
    ).catch(() => res.destroy());
  }

  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    workspace,
    faults,
    requests,
    streams,
    runs,
    stallNext(n, phase = "headers") {
      stalled = n;
      stallPhase = phase;
    },
    rateLimitNext(n, retryAfterSeconds = 0) {
      rateLimited = n;
      rateLimitRetryAfter = retryAfterSeconds;
    },
    transcript(runId) {
      const run = runs.get(runId);
      if (run === undefined) throw new Error(`no run ${runId}`);
      return (options.retryMs !== undefined ? `retry: ${options.retryMs}\n\n` : "") + run.events.map((e) => frameOf(e, options.frames)).join("");
    },
    waitForRun(runId) {
      const run = runs.get(runId);
      if (run === undefined) return Promise.reject(new Error(`no run ${runId}`));
      if (run.done) return Promise.resolve(run);
      return new Promise((resolve) => {
        const off = run.onChange(() => {
          if (run.done) {
            off();
            resolve(run);
          }
        });
      });
    },
    close() {
      for (const run of runs.values()) run.cancel();
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
