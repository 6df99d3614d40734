/**
 * A real HTTP server (node:http on 127.0.0.1, random port) that speaks the
 * MANTYX agent-runs routes with scripted runs (./scenarios.ts, and the flow
 * cases or a user's scripts: ./flow-player.ts): `mantyx-wire mock`, and the
 * server this repository's tests and demo use. Not a protocol reference:
 * it implements what a client needs to be tested against.
 *
 * From the schema (./routes.ts): every route (an operation without a
 * handler here is answered from the schema, as the mock of any document
 * answers it), the scopes each needs (`x-required-scopes`),
 * the query parameters' and request bodies' checks (the strict level, every
 * problem listed). From the documents (./editions.ts): the statuses and
 * event shapes of each edition. Faults (./faults/): asked for by
 * `--fault`, a script's `faults`, the create-run or stream request's
 * `X-Mock-Fault` header or `?mockFault=`, or the test queue.
 *
 * It runs on the mock engine (./engine/http.ts), as the mock of any
 * document does (./engine/document-mock.ts): the engine routes, checks the
 * query and body, caps and records; this file adds the MANTYX scenario set
 * through the engine's hooks (the credential and the test queues before
 * routing, the scopes and the workspace after) and its handlers.
 *
 * Hardened for being pointed at by anything: the credential, the route and
 * the scopes are checked before a byte of the body is read (an early answer
 * closes the connection instead of draining the body); bodies are capped
 * (413); the request and stream records are bounded (./ring-log.ts); a bad
 * percent-encoding is a 400; counts a run takes from its metadata are
 * clamped; an unexpected error is answered 500 with no detail and logged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isTerminalType, mantyxDocument, mantyxFlows } from "./artefacts.js";
import { editionShapes, isEdition, type Edition } from "./editions.js";
import { scriptOf, type Script } from "./flow-player.js";
import { RingLog } from "./ring-log.js";
import { routesOf, type Route } from "./routes.js";
import {
  startEngine,
  type Engine,
  type Exchange,
  type RecordedRequest,
  type RequestLogLine,
  type RoutedExchange,
} from "./engine/http.js";
import { documentAnswers } from "./engine/document-mock.js";
import {
  connectionSpecOf,
  faultSpecOfRequest,
  isFaultSpecError,
  NO_FAULTS,
  parseFaultSpec,
  planConnection,
  recordEnd,
  resumePoint,
  serveStream,
  type ConnectionEnd,
  type FaultSpec,
  type PlanLayer,
} from "./faults/index.js";

import { frameOf, MockRun, type FrameShape, type LogEntry, type ToolAnswerBody } from "./run-state.js";
import { play, SCENARIOS } from "./scenarios.js";

export type { RecordedRequest, RequestLogLine } from "./engine/http.js";

export interface MockServerOptions {
  /** The workspace API key (all scopes). Default `mantyx_test_key`. */
  apiKey?: string;
  /** The credential's workspace. Default `acme`. */
  workspace?: string;
  /** OAuth access tokens and their scopes. Default: `mantyx_at_readonly` with `runs:read`. */
  oauthTokens?: Record<string, string[]>;
  /**
   * The edition whose statuses and shapes the server sends (./editions.ts):
   * `2026-10` (default: 202 for runs, 200 for tool results, `subtype:
   * "success"`, `cancelled` with `{}`), `2026-09` (the seed: 201, 204,
   * `ok: true`, `{ reason: "user" }`) or `older` (the companion document:
   * 202, 200, `started` first, `subtype`, a late result after cancel
   * accepted). A run's `metadata.edition` overrides it for that run.
   */
  edition?: Edition;
  /** `older` is `edition: "older"` (kept for callers of the first mock). */
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
  /** User scripts (the flow format), playable by name as `metadata.scenario` beside the suite's flow cases. */
  scripts?: readonly Script[];
  /** The largest request body read, in bytes; a larger one is answered 413. Default 16 MiB. */
  maxBodyBytes?: number;
  /** How many requests and stream connections the records keep (the newest). Default 1000. */
  recordLimit?: number;
  /** How many runs the server keeps; beyond it the oldest finished ones are forgotten (their routes answer 404). Default 10 000. */
  runLimit?: number;
  /** Called once per answered request (`mantyx-wire mock --log json`). */
  onRequest?: (line: RequestLogLine) => void;
  /**
   * Operations answered as the mock of any document answers them (from the
   * schema's examples and schemas: ./engine/document-mock.ts) instead of by
   * their scenario; the credential, scopes and checks still apply. An
   * operation the mock has no scenario for is always answered so.
   */
  fromDocument?: readonly string[];
  /**
   * A fault spec for every run (generator/mock/faults/spec.ts; the CLI's
   * `--fault`), e.g. `drop-after=3` or `eol=crlf@*,chunk=3@*`. A script's
   * and a create-run request's own specs add to it, replacing faults they
   * name again. An invalid spec throws a FaultSpecError when the server starts.
   */
  faults?: string;
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
  /** Socket writes of its body (with `chunk`, several per frame). */
  writes: number;
}

export interface MockServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  apiKey: string;
  workspace: string;
  edition: Edition;
  /** OAuth tokens and their scopes. */
  oauthTokens: Readonly<Record<string, readonly string[]>>;
  /** The names `metadata.scenario` accepts: the scripted scenarios, the suite's flow cases, the user's scripts. */
  scenarios: readonly string[];
  /**
   * Fault specs for the next stream connections (any run), one per
   * connection, consumed in order: `faults.push("drop-after=2", "ignore-resume")`.
   * The same language as `X-Mock-Fault` on a stream request (connection
   * faults only; an invalid one is answered 400 when its connection comes).
   */
  faults: string[];
  /** The newest requests (at most `recordLimit`), in arrival order. */
  readonly requests: RecordedRequest[];
  /** The newest stream connections (at most `recordLimit`), in arrival order. */
  readonly streams: StreamConnection[];
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

const MODELS = {
  models: [
    {
      id: "platform:demo",
      label: "Demo",
      provider: "openai",
      vendorModelId: "gpt-5.4-mini",
      source: "platform_offering",
      contextWindowTokens: 400000,
      pricing: { inputPer1MUsd: 0.25, outputPer1MUsd: 2, cacheReadPer1MUsd: null },
    },
    {
      id: "provider:cm6def456",
      label: "Claude",
      provider: "anthropic",
      vendorModelId: "claude-opus-4-7",
      source: "workspace_provider",
      contextWindowTokens: 200000,
      pricing: null,
    },
  ],
  defaultModelId: "platform:demo",
};

/** The replay page size when paging by `beforeSeq` without `lastMessages` (agent-runs §6.2: "default page size 100"). */
const REPLAY_PAGE = 100;
const TOKENS = { inputTokens: 120, cachedTokens: 0, reasoningTokens: 0, outputTokens: 40 };
const MODEL = { id: "platform:demo", provider: "openai", vendorModelId: "gpt-5.4-mini" };

/** Routes and validators compiled once per process (the schema is the same for every server). */
let cachedRoutes: Route[] | undefined;
let cachedFlows: Map<string, Script> | undefined;

function mantyxRoutes(): Route[] {
  cachedRoutes ??= routesOf(mantyxDocument());
  return cachedRoutes;
}

function suiteFlows(): Map<string, Script> {
  cachedFlows ??= new Map(
    [...mantyxFlows()].map(([name, flow]) => [name, scriptOf(name, flow, `fixtures/flows/${name}.json`)]),
  );
  return cachedFlows;
}

type Session = {
  id: string;
  spec: Record<string, unknown>;
  status: "active" | "ended";
  runId?: string;
  /** Runs started by the session's messages, in order. */
  runIds: string[];
  /** The conversation so far: each message's input, then the run's final text. */
  history: Array<{ role: "user" | "assistant"; content: string }>;
  createdAt: number;
};

type Handler = (ctx: Context) => void | Promise<void>;

interface Context {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly params: Record<string, string>;
  readonly body: unknown;
}

/**
 * The `X-RateLimit-*` headers of a 429 (agent-runs §10): the bucket of the
 * route and its default per-minute maximum (run starts 120, the run
 * lifecycle 600, other mutations 120; reads and streams have a separate
 * transport limit, here 6000), none left, reset when `Retry-After` says.
 */
function rateLimitHeaders(method: string, path: string, retryAfterSeconds: number): Record<string, string> {
  const [bucket, limit] =
    method === "GET" || method === "HEAD"
      ? ["transport", 6000]
      : method === "POST" && path.endsWith("/agent-runs")
        ? ["run-start", 120]
        : /\/(tool-results|approvals|feedback|cancel)(\/|$)/.test(path)
          ? ["lifecycle", 600]
          : ["mutation", 120];
  return {
    "x-ratelimit-limit": String(limit),
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String(retryAfterSeconds),
    "x-ratelimit-bucket": bucket,
  };
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const apiKey = options.apiKey ?? "mantyx_test_key";
  const workspace = options.workspace ?? "acme";
  const oauth = options.oauthTokens ?? { mantyx_at_readonly: ["runs:read"] };
  const edition: Edition = options.edition ?? (options.vintage === "older" ? "older" : "2026-10");
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const recordLimit = options.recordLimit ?? 1000;
  const runLimit = options.runLimit ?? 10_000;
  const routes = mantyxRoutes();
  const scripts = new Map(suiteFlows());
  for (const script of options.scripts ?? []) scripts.set(script.name, script);
  const scenarios = [...SCENARIOS, ...scripts.keys()];
  const runs = new Map<string, MockRun>();
  const sessions = new Map<string, Session>();
  const feedback = new Map<string, { id: string; verdict: string }>();
  const faults: string[] = [];
  const serverFaults = parseFaultSpec(options.faults ?? "", "--fault", "run");
  const streams = new RingLog<StreamConnection>(recordLimit);
  let rateLimited = 0;
  let stalled = 0;
  let stallPhase: "headers" | "body" = "headers";
  let rateLimitRetryAfter = 0;
  let counter = 0;

  const newRun = (
    spec: Record<string, unknown>,
    sessionId: string | undefined,
    requestFaults: FaultSpec,
    scriptRun = 0,
  ): MockRun => {
    const meta = (spec["metadata"] as Record<string, unknown> | undefined) ?? {};
    const script = typeof meta["scenario"] === "string" ? scripts.get(meta["scenario"]) : undefined;
    const runEdition = isEdition(meta["edition"]) ? meta["edition"] : edition;
    const run = new MockRun(`run_${++counter}`, spec, sessionId, runEdition, [
      serverFaults,
      script?.faults ?? NO_FAULTS,
      requestFaults,
    ]);
    if (script !== undefined) {
      run.script = { script, events: script.runs[Math.min(scriptRun, script.runs.length - 1)]! };
      run.frames = script.frames;
    }
    runs.set(run.id, run);
    // Bounded like the records: the oldest finished runs go first (a live one is never dropped).
    for (const [id, old] of runs) {
      if (runs.size <= runLimit) break;
      if (old.done) runs.delete(id);
    }
    // Started on the next tick: the creating request is answered first, as a real server does.
    setImmediate(
      () => void play(run).catch((e: unknown) => run.emit("error", { error: String(e), code: "worker_error" })),
    );
    return run;
  };

  /** The credential each answer carried (for `echoCredential`), and what kind it was (for the log line). */
  const credentials = new WeakMap<ServerResponse, string>();
  const kinds = new WeakMap<ServerResponse, RequestLogLine["credential"]>();
  // The engine (./engine/http.ts) starts below, once the handlers exist; these are only called after.
  let engine: Engine | undefined;
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void =>
    engine!.send(res, status, body, headers);
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void => engine!.refuse(req, res, status, body, headers);
  const finishRecord = (res: ServerResponse, status: number): void => engine!.finishRecord(res, status);
  /** `200 text/plain OK`: a success body that is not JSON, as some servers and proxies send. */
  const sendPlainOk = (res: ServerResponse): void => engine!.sendRaw(res, 200, "text/plain", "OK");

  /** Error answers echo the credential they received (`echoCredential`): in the body (as a value and as a key), in `x-request-id`, and in `WWW-Authenticate`. */
  function echo(
    res: ServerResponse,
    _status: number,
    body: unknown,
    headers: Record<string, string>,
  ): { body: unknown; headers: Record<string, string> } {
    const credential = options.echoCredential === true ? credentials.get(res) : undefined;
    if (credential === undefined) return { body, headers };
    return {
      body: {
        ...(body as object),
        message: `credential ${credential} was refused`,
        echo: { [credential]: credential },
      },
      headers: {
        ...headers,
        "x-request-id": `req_${++counter}-${credential}`,
        "www-authenticate": `Bearer realm="${credential}", error="insufficient_scope", scope="runs:write ${credential}"`,
      },
    };
  }

  /** Before routing: the test queues (stall, rate limit), then the credential, from the headers alone (one code path for API keys and OAuth tokens). */
  function beforeRouting({ req, res, method, url }: Exchange): boolean {
    const path = url.pathname;
    if (stalled > 0 && !path.endsWith("/stream")) {
      stalled--;
      if (stallPhase === "body") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"runId": "run_');
      }
      return true; // left hanging: the client's timeout must end it
    }
    if (rateLimited > 0) {
      rateLimited--;
      const shapes = editionShapes(edition);
      refuse(req, res, 429, shapes.rateLimited, {
        "retry-after": String(rateLimitRetryAfter),
        ...(shapes.rateLimitHeaders && rateLimitHeaders(method, path, rateLimitRetryAfter)),
      });
      return true;
    }
    const auth = req.headers["authorization"];
    const xApiKey = req.headers["x-api-key"];
    const credential =
      typeof auth === "string" && /^Bearer /i.test(auth)
        ? auth.slice(7).trim()
        : typeof xApiKey === "string"
          ? xApiKey
          : undefined;
    if (credential !== undefined) credentials.set(res, credential);
    const kind: RequestLogLine["credential"] =
      credential === undefined || credential === ""
        ? "none"
        : credential === apiKey
          ? "api-key"
          : oauth[credential] !== undefined
            ? "oauth-token"
            : "unknown";
    kinds.set(res, kind);
    engine!.setLog(res, { operationId: null, credential: kind });
    if (kind === "none") {
      refuse(req, res, 401, { error: "unauthorized", message: "Missing Authorization or X-API-Key header" });
      return true;
    }
    if (kind === "unknown") {
      refuse(req, res, 401, { error: "unauthorized", message: "Invalid API key or OAuth access token" });
      return true;
    }
    return false;
  }

  /** After routing, before the query and body are read: the token's scopes, then the workspace. */
  function afterRouting({ req, res, route, params }: RoutedExchange): boolean {
    engine!.setLog(res, {
      operationId: route.operationId,
      credential: kinds.get(res) ?? "none",
      ...(params["runId"] === undefined ? {} : { runId: params["runId"] }),
    });
    const credential = credentials.get(res);
    const scopes = credential === apiKey || credential === undefined ? undefined : oauth[credential];
    if (scopes !== undefined) {
      const missing = route.scopes.filter((s) => !scopes.includes(s));
      if (missing.length > 0) {
        const required = missing.length === 1 ? missing[0]! : missing;
        refuse(
          req,
          res,
          403,
          { error: "insufficient_scope", required, message: `This token lacks ${missing.join(" ")}.` },
          { "www-authenticate": `Bearer error="insufficient_scope", scope="${route.scopes.join(" ")}"` },
        );
        return true;
      }
    }
    const slug = params["workspaceSlug"];
    if (slug !== undefined && slug !== workspace) {
      refuse(req, res, 404, { error: "not_found", message: `Workspace ${slug} not found.`, hint: workspace });
      return true;
    }
    return false;
  }

  function runOr404(ctx: Context): MockRun | undefined {
    const run = runs.get(ctx.params["runId"]!);
    if (run === undefined) send(ctx.res, 404, { error: "not_found", message: `Run ${ctx.params["runId"]} not found.` });
    return run;
  }

  function sessionOr404(ctx: Context): Session | undefined {
    const session = sessions.get(ctx.params["sessionId"]!);
    if (session === undefined)
      send(ctx.res, 404, { error: "not_found", message: `Session ${ctx.params["sessionId"]} not found.` });
    return session;
  }

  /** The problem of a run spec the schema cannot state: an unknown model, an unknown scenario. */
  function specProblem(spec: Record<string, unknown>): object | undefined {
    const model = spec["modelId"];
    if (typeof model === "string" && model.startsWith("bogus")) {
      return {
        error: "invalid_model",
        message: `Unknown model ${model}`,
        candidates: ["platform:demo", "provider:cm6def456"],
      };
    }
    const meta = (spec["metadata"] as Record<string, unknown> | undefined) ?? {};
    const scenario = meta["scenario"];
    if (typeof scenario === "string" && !scenarios.includes(scenario)) {
      return {
        error: "invalid_request",
        message: `Unknown metadata.scenario ${JSON.stringify(scenario)}; the mock plays: ${scenarios.join(", ")}.`,
      };
    }
    if (meta["edition"] !== undefined && !isEdition(meta["edition"])) {
      return {
        error: "invalid_request",
        message: `Unknown metadata.edition ${JSON.stringify(meta["edition"])}; use 2026-10, 2026-09 or older.`,
      };
    }
    if (typeof meta["args"] === "string") {
      try {
        JSON.parse(meta["args"]);
      } catch (error) {
        return { error: "invalid_request", message: `metadata.args is not JSON: ${(error as Error).message}.` };
      }
    }
    return undefined;
  }

  const streamUrl = (runId: string): string =>
    `/api/v1/workspaces/${encodeURIComponent(workspace)}/agent-runs/${runId}/stream`;

  /** One page of `items` from an opaque cursor (the offset, base64url), `limit` clamped to the schema's bounds. */
  function page<T>(
    ctx: Context,
    items: readonly T[],
  ): { slice: T[]; nextCursor: string | null; limit: number } | undefined {
    const limit = Math.min(Math.max(Number(ctx.url.searchParams.get("limit") ?? 50) || 50, 1), 200);
    const cursor = ctx.url.searchParams.get("cursor");
    let start = 0;
    if (cursor !== null) {
      const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
      if (!/^o\d{1,9}$/.test(decoded)) {
        send(ctx.res, 400, {
          error: "invalid_request",
          message: "Unknown cursor: pass back a page's nextCursor unchanged.",
        });
        return undefined;
      }
      start = Number(decoded.slice(1));
    } else if (ctx.url.searchParams.has("offset")) {
      start = Math.min(Number(ctx.url.searchParams.get("offset")) || 0, items.length);
    }
    const slice = items.slice(start, start + limit);
    const next = start + limit < items.length ? Buffer.from(`o${start + limit}`).toString("base64url") : null;
    return { slice, nextCursor: next, limit };
  }

  /** A yes/no query parameter (`QueryFlag`: `1`/`true` yes, `0`/`false` no), `absent` when it is not sent. */
  function flagOf(ctx: Context, name: string, absent: boolean): boolean {
    const value = ctx.url.searchParams.get(name);
    return value === null ? absent : value === "1" || value === "true";
  }

  /** `metadata=key:value` filters (AND), as the list routes take them. */
  function metadataFilter(ctx: Context): (metadata: unknown) => boolean {
    const pairs = ctx.url.searchParams
      .getAll("metadata")
      .map((entry) => [entry.slice(0, entry.indexOf(":")), entry.slice(entry.indexOf(":") + 1)] as const);
    return (metadata) => pairs.every(([k, v]) => (metadata as Record<string, unknown> | null | undefined)?.[k] === v);
  }

  function runSummary(run: MockRun): Record<string, unknown> {
    const prompt = run.spec["prompt"];
    return {
      id: run.id,
      sessionId: run.sessionId ?? null,
      status: run.status,
      agentId: (run.spec["agentId"] as string | undefined) ?? null,
      modelId: (run.spec["modelId"] as string | undefined) ?? null,
      inputPreview: typeof prompt === "string" ? prompt.slice(0, 120) : null,
      outputPreview: run.finalText?.slice(0, 120) ?? null,
      error: run.error,
      metadata: (run.spec["metadata"] as object | undefined) ?? null,
    };
  }

  const handlers: Record<string, Handler> = {
    getUserInfo: ({ res }) => send(res, 200, { sub: "usr_123", email: "ada@acme.example", name: "Ada" }),
    listModels: ({ res }) => send(res, 200, MODELS),
    listRuns: (ctx) => {
      const status = ctx.url.searchParams.get("status");
      const modelId = ctx.url.searchParams.get("modelId");
      const agentId = ctx.url.searchParams.get("agentId");
      const meta = metadataFilter(ctx);
      const all = [...runs.values()]
        .reverse()
        .filter(
          (r) =>
            (status === null || r.status === status) &&
            (modelId === null || r.spec["modelId"] === modelId) &&
            (agentId === null || r.spec["agentId"] === agentId) &&
            meta(r.spec["metadata"]),
        );
      const p = page(ctx, all);
      if (p === undefined) return;
      // The exact count only when asked for (agent-runs §5: "includeTotal=1 adds total").
      send(ctx.res, 200, {
        total: flagOf(ctx, "includeTotal", false) ? all.length : null,
        limit: p.limit,
        nextCursor: p.nextCursor,
        runs: p.slice.map(runSummary),
      });
    },
    createRun: (ctx) => {
      const spec = ctx.body as Record<string, unknown>;
      const problem = specProblem(spec);
      if (problem !== undefined) return send(ctx.res, 400, problem);
      const requestFaults = faultsOf(ctx.req, ctx.url, ctx.res, "run");
      if (requestFaults === undefined) return;
      const run = newRun(spec, undefined, requestFaults);
      send(ctx.res, run.shapes.runCreated, { runId: run.id, streamUrl: streamUrl(run.id) });
    },
    getRun: (ctx) => {
      const run = runOr404(ctx);
      if (run === undefined) return;
      const done = run.done;
      send(ctx.res, 200, {
        runId: run.id,
        // metadata.snapshotStatus: a status this client does not know (a newer server's).
        status:
          ((run.spec["metadata"] as Record<string, unknown> | undefined)?.["snapshotStatus"] as string | undefined) ??
          run.status,
        finalText: run.finalText,
        error: run.error,
        failureReason: null,
        spec: run.spec,
        metadata: (run.spec["metadata"] as object | undefined) ?? null,
        tokens: done ? TOKENS : null,
        turns: done ? 1 : null,
        model: done ? MODEL : null,
      });
    },
    streamRun: (ctx) => {
      const run = runOr404(ctx);
      if (run !== undefined) stream(ctx.req, ctx.res, run, ctx.url);
    },
    postToolResult: (ctx) => {
      const run = runOr404(ctx);
      if (run === undefined) return;
      const b = ctx.body as ToolAnswerBody;
      const outcome = run.deliver(b);
      if (options.plainTextAcks === true && outcome === "accepted") return sendPlainOk(ctx.res);
      switch (outcome) {
        case "accepted":
          return run.shapes.toolResultAccepted === 204 ? send(ctx.res, 204) : send(ctx.res, 200, {});
        case "after-cancel":
          return run.shapes.toolResultAfterCancel === 200
            ? send(ctx.res, 200, {})
            : send(ctx.res, 409, { error: "run_terminal", message: "The run was cancelled." });
        case "terminal":
          if (run.shapes.toolResultAfterEnd === 200) return send(ctx.res, 200, {});
          return send(ctx.res, 409, { error: "run_terminal", message: "The run already finished." });
        case "late":
          return send(ctx.res, 409, { error: "run_terminal", message: `The run stopped waiting for ${b.toolUseId}.` });
        case "duplicate":
          return send(ctx.res, 404, { error: "unknown_tool_use", message: `${b.toolUseId} was already answered.` });
        case "unknown":
          return send(ctx.res, 404, { error: "unknown_tool_use", message: `No pending tool call ${b.toolUseId}.` });
      }
    },
    cancelRun: (ctx) => {
      const run = runOr404(ctx);
      if (run === undefined) return;
      run.cancel(); // idempotent: a second cancel changes nothing and gets the same answer
      if (options.plainTextAcks === true) return sendPlainOk(ctx.res);
      send(ctx.res, run.edition === "older" ? 200 : 202, run.edition === "older" ? {} : undefined);
    },
    submitRunFeedback: (ctx) => {
      const run = runs.get(ctx.params["runId"]!);
      if (run === undefined) return send(ctx.res, 404, { error: "Run not found" });
      const verdict = (ctx.body as { verdict: string }).verdict;
      const known = feedback.get(run.id);
      const entry = { id: known?.id ?? `fb_${++counter}`, verdict };
      feedback.set(run.id, entry);
      send(ctx.res, known === undefined ? 201 : 200, { ...entry, targetKind: "agent_run", agentRunId: run.id });
    },
    listSessions: (ctx) => {
      const status = ctx.url.searchParams.get("status");
      const meta = metadataFilter(ctx);
      const all = [...sessions.values()]
        .reverse()
        .filter((s) => (status === null || s.status === status) && meta(s.spec["metadata"]));
      const p = page(ctx, all);
      if (p === undefined) return;
      send(ctx.res, 200, {
        // Counted unless turned off (agent-runs §6.1: includeTotal "defaults to true; set 0 to skip").
        total: flagOf(ctx, "includeTotal", true) ? all.length : null,
        limit: p.limit,
        nextCursor: p.nextCursor,
        sessions: p.slice.map((s) => ({
          sessionId: s.id,
          status: s.status,
          metadata: (s.spec["metadata"] as object | undefined) ?? null,
          summary: s.history[0]?.content.slice(0, 80) ?? null,
        })),
      });
    },
    createSession: (ctx) => {
      const spec = ctx.body as Record<string, unknown>;
      const problem = specProblem(spec);
      if (problem !== undefined) return send(ctx.res, 400, problem);
      const id = `ses_${++counter}`;
      sessions.set(id, { id, spec, status: "active", runIds: [], history: [], createdAt: counter });
      send(ctx.res, 201, { sessionId: id });
    },
    getSession: (ctx) => {
      const session = sessionOr404(ctx);
      if (session !== undefined) send(ctx.res, 200, { sessionId: session.id, status: session.status });
    },
    deleteSession: (ctx) => {
      const session = sessionOr404(ctx);
      if (session === undefined) return;
      session.status = "ended";
      if (session.runId !== undefined) runs.get(session.runId)?.cancel();
      if (options.plainTextAcks === true) return sendPlainOk(ctx.res);
      send(ctx.res, 204);
    },
    listSessionEvents: (ctx) => {
      const session = sessionOr404(ctx);
      if (session === undefined) return;
      // The conversation as flattened frames, one per message (agent-runs §6.2).
      const frames = session.history.map((m, i) => ({
        seq: i + 1,
        type: m.role === "user" ? "user_message" : "assistant_message",
        role: m.role,
        text: m.content,
      }));
      const q = ctx.url.searchParams;
      const before = q.has("beforeSeq") ? Number(q.get("beforeSeq")) : undefined;
      const upTo = before === undefined ? frames : frames.filter((f) => f.seq < before);
      // full=1|true overrides paging; no paging parameter at all is the whole history; a page is lastMessages, else 100 (§6.2).
      const whole = flagOf(ctx, "full", false) || (!q.has("lastMessages") && before === undefined);
      const count = whole ? upTo.length : Math.min(Number(q.get("lastMessages") ?? REPLAY_PAGE), 500);
      const events = upTo.slice(Math.max(0, upTo.length - count));
      const truncated = events.length < upTo.length;
      send(ctx.res, 200, {
        sessionId: session.id,
        total: frames.length,
        events,
        nextBeforeSeq: truncated ? events[0]!.seq : null,
        truncated,
      });
    },
    sendSessionMessage: (ctx) => {
      const session = sessionOr404(ctx);
      if (session === undefined) return;
      if (session.status === "ended")
        return send(ctx.res, 404, { error: "not_found", message: `Session ${session.id} has ended.` });
      const message = ctx.body as Record<string, unknown>;
      // Per-message overrides apply to this run only; the session's spec is left as it was.
      const { prompt, messages, ...overrides } = message;
      const input: Array<{ role: "user" | "assistant"; content: string }> =
        typeof prompt === "string"
          ? [{ role: "user", content: prompt }]
          : ((messages as Array<{ role: "user" | "assistant"; content: string }> | undefined) ?? []).filter(
              (m) => typeof m.content === "string",
            );
      // The run sees the conversation so far: the first message as sent, later ones after the history.
      const spec: Record<string, unknown> = {
        ...session.spec,
        ...overrides,
        ...(session.history.length === 0
          ? prompt !== undefined
            ? { prompt }
            : { messages }
          : { messages: [...session.history, ...input] }),
        metadata: { ...((session.spec["metadata"] as object) ?? {}), ...((overrides["metadata"] as object) ?? {}) },
      };
      const problem = specProblem(spec);
      if (problem !== undefined) return send(ctx.res, 400, problem);
      const requestFaults = faultsOf(ctx.req, ctx.url, ctx.res, "run");
      if (requestFaults === undefined) return;
      const run = newRun(spec, session.id, requestFaults, session.runIds.length);
      session.runId = run.id;
      session.runIds.push(run.id);
      session.history.push(...input);
      const off = run.onChange(() => {
        if (!run.done) return;
        off();
        if (run.finalText !== null) session.history.push({ role: "assistant", content: run.finalText });
      });
      send(ctx.res, run.shapes.runCreated, { runId: run.id, streamUrl: streamUrl(run.id) });
    },
  };
  // Operations without a scenario here (or named in `fromDocument`) answer as the mock of any document does: from the schema's examples and schemas.
  const fromDocument = new Set([
    ...routes.filter((r) => handlers[r.operationId] === undefined).map((r) => r.operationId),
    ...(options.fromDocument ?? []),
  ]);
  const unknown = [...fromDocument].filter((id) => !routes.some((r) => r.operationId === id));
  if (unknown.length > 0)
    throw new Error(`mantyx-wire mock: fromDocument names operations the schema does not have: ${unknown.join(", ")}`);
  const generic =
    fromDocument.size === 0
      ? undefined
      : documentAnswers(mantyxDocument(), routes, () => engine!, {
          faults: options.faults,
          recordLimit,
          retryMs: options.retryMs,
          nextId: () => ++counter,
        });

  /** The request's fault spec, or undefined once an invalid one has been answered 400. */
  function faultsOf(
    req: IncomingMessage,
    url: URL,
    res: ServerResponse,
    context: "run" | "connection",
    queued?: string,
    run?: MockRun,
  ): FaultSpec | undefined {
    try {
      // A stream request repeating its run's create-run spec (one header on every call) adds nothing (faults/request.ts).
      if (context === "connection")
        return connectionSpecOf(req, url, run?.faults[run.faults.length - 1]?.given, queued, "MockServer.faults");
      return faultSpecOfRequest(req, url, context);
    } catch (error) {
      if (!isFaultSpecError(error)) throw error;
      send(res, 400, {
        error: "invalid_request",
        message: error.message,
        hint: "Fault specs: the fault table in the mock's README section (name[=value][@connections], separated by commas).",
      });
      return undefined;
    }
  }

  function stream(req: IncomingMessage, res: ServerResponse, run: MockRun, url: URL): void {
    const own = faultsOf(req, url, res, "connection", faults.shift(), run);
    if (own === undefined) return;
    const connection = ++run.connections;
    const layers: PlanLayer[] = [
      ...run.faults.map((spec) => ({ spec, thisConnection: false })),
      { spec: own, thisConnection: true },
    ];
    const plan = planConnection(layers, connection);
    const record: StreamConnection = {
      runId: run.id,
      connection,
      lastEventId: req.headers["last-event-id"] as string | undefined,
      lastSeqQuery: url.searchParams.get("lastSeq") ?? undefined,
      faults: plan.text,
      end: undefined,
      frames: 0,
      writes: 0,
    };
    streams.push(record);
    const frames = run.frames ?? options.frames;
    void serveStream<LogEntry>(
      {
        req,
        res,
        run,
        plan,
        frame: (entry) => frameOf(entry, frames),
        isTerminal: (entry) => isTerminalType(entry.type),
        retryMs: options.retryMs,
        headers: { "x-request-id": `req_${++counter}` },
        refuse: (status, body, headers) => send(res, status, body, headers),
        rateLimitedBody: run.shapes.rateLimited,
        onOpen: () => finishRecord(res, 200),
        onEnd: recordEnd(record),
      },
      resumePoint(req, url, plan),
    ).catch(() => res.destroy());
  }

  engine = await startEngine({
    name: "mantyx-wire mock",
    routes,
    port: options.port ?? 0,
    maxBodyBytes,
    recordLimit,
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
    nextId: () => ++counter,
    beforeRouting,
    afterRouting,
    decorate: echo,
    handle: (ctx) =>
      (fromDocument.has(ctx.route.operationId) ? generic!.handle : handlers[ctx.route.operationId]!)(ctx),
  });

  return {
    url: engine.url,
    apiKey,
    workspace,
    edition,
    oauthTokens: oauth,
    scenarios,
    faults,
    get requests() {
      return engine!.requests.toArray();
    },
    get streams() {
      return streams.toArray();
    },
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
      return (
        (options.retryMs !== undefined ? `retry: ${options.retryMs}\n\n` : "") +
        run.events.map((e) => frameOf(e, run.frames ?? options.frames)).join("")
      );
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
      return engine!.close();
    },
  };
}
