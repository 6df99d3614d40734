/**
 * The mock engine's HTTP pipeline, one for every document: a real
 * node:http server on 127.0.0.1 that parses the request target, records
 * the request (bounded: ../ring-log.ts), matches a route of the document
 * (404, 405 with `Allow`), checks the declared query parameters, reads the
 * body with a cap (413) and checks it at the strict level (`400
 * invalid_request` listing every issue), then calls the handler. Two hooks
 * let a scenario set answer before the body is read: `beforeRouting` (the
 * MANTYX mock's credentials, its test queues) and `afterRouting` (scopes,
 * the workspace). An answer given before the body was read closes the
 * connection after a lingering read (`refuse`), so a client uploading a
 * large body sees the answer, not a reset. An error of a handler is a 500
 * with no detail, logged on stderr.
 *
 * The generic document mock (./document-mock.ts) and the MANTYX mock
 * (../server.ts) both run on it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { describeBodyIssues } from "@mantyx/wire-types/codegen/v1";
import { readJsonBody } from "../body.js";
import { RingLog } from "../ring-log.js";
import type { BodyIssue, Route } from "../routes.js";

/** How long, and how much, a refused request's unread body is read and discarded before its connection is closed. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 8 * 1024 * 1024;
/** A recorded body larger than this is kept as its size only. */
const RECORDED_BODY_BYTES = 64 * 1024;

/** One line of `--log json` (and of `onRequest`): never the credential, only what kind it was. */
export interface RequestLogLine {
  readonly method: string;
  readonly path: string;
  readonly operationId: string | null;
  readonly status: number;
  readonly credential: "none" | "api-key" | "oauth-token" | "unknown";
  readonly bodyBytes: number;
  readonly runId?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`undefined` when none was read); a body over 64 KiB is recorded as `{ omittedBytes }`. */
  body: unknown;
  /** How many body bytes the mock read (0 when it answered before reading the body). */
  bodyBytes: number;
  status: number;
}

/** What the log line says of an answer besides the record: set by the hooks. */
export interface LogInfo {
  readonly operationId: string | null;
  readonly credential: RequestLogLine["credential"];
  readonly runId?: string;
}

export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly url: URL;
  readonly record: RecordedRequest;
}

export interface RoutedExchange extends Exchange {
  readonly route: Route;
  readonly params: Record<string, string>;
}

export interface HandlerContext extends RoutedExchange {
  /** The JSON body (checked), or undefined when none was sent (or the route's body is not JSON). */
  readonly body: unknown;
}

export interface EngineOptions {
  /** Names the engine in its stderr lines, e.g. `mantyx-wire mock`. */
  readonly name: string;
  readonly routes: readonly Route[];
  /** TCP port on 127.0.0.1. Default 0: any free port. */
  readonly port?: number;
  /** The largest request body read, in bytes; a larger one is answered 413. Default 16 MiB. */
  readonly maxBodyBytes?: number;
  /** How many requests the record keeps (the newest). Default 1000. */
  readonly recordLimit?: number;
  /** Called once per answered request. */
  readonly onRequest?: (line: RequestLogLine) => void;
  /** The next number for `x-request-id` (a scenario set may share its own counter). Default: the engine's own. */
  readonly nextId?: () => number;
  /** Before routing: true once the hook answered (or left the request hanging on purpose). */
  readonly beforeRouting?: (ex: Exchange) => boolean;
  /** After routing, before the query and body are read: true once the hook answered. */
  readonly afterRouting?: (ex: RoutedExchange) => boolean;
  /** Changes an error answer (status >= 400) before it is sent (the MANTYX mock's `echoCredential`). */
  readonly decorate?: (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ) => { body: unknown; headers: Record<string, string> };
  readonly handle: (ctx: HandlerContext) => void | Promise<void>;
}

export interface Engine {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The newest requests, in arrival order. */
  readonly requests: RingLog<RecordedRequest>;
  /** A JSON answer (no body: none sent). */
  send(res: ServerResponse, status: number, body?: unknown, headers?: Record<string, string>): void;
  /** A body of any media type, as given. */
  sendRaw(
    res: ServerResponse,
    status: number,
    contentType: string | undefined,
    text: string | Uint8Array,
    headers?: Record<string, string>,
  ): void;
  /** An answer given before the body was read (see the file comment). */
  refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers?: Record<string, string>,
  ): void;
  /** `400 invalid_request` listing every issue of `what` (e.g. `RunCreateRequest body`). */
  invalid(res: ServerResponse, issues: readonly BodyIssue[], what: string): void;
  /** Sets what the answer's log line says (operation, credential kind, run). */
  setLog(res: ServerResponse, info: LogInfo): void;
  /** Records the answer's status and writes its log line: for answers not sent by `send` (a stream's headers). */
  finishRecord(res: ServerResponse, status: number): void;
  /** Destroys every socket and closes the server. */
  close(): Promise<void>;
}

/** The request target as a URL: origin-form (`/path?q`, also `//x`, which `new URL(x, base)` would read as a host) or absolute-form. */
function requestUrl(target: string): URL | undefined {
  try {
    return target.startsWith("/") ? new URL(`http://127.0.0.1${target}`) : new URL(target);
  } catch {
    return undefined;
  }
}

function decodablePath(raw: string): boolean {
  try {
    decodeURIComponent(raw);
    return true;
  } catch {
    return false;
  }
}

export async function startEngine(options: EngineOptions): Promise<Engine> {
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const requests = new RingLog<RecordedRequest>(options.recordLimit ?? 1000);
  let own = 0;
  const nextId = options.nextId ?? (() => ++own);
  const records = new WeakMap<ServerResponse, RecordedRequest>();
  const logInfo = new WeakMap<ServerResponse, LogInfo>();
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      // A bug of the mock or a handler: answered without detail, reported where the operator sees it.
      process.stderr.write(
        `${options.name}: internal error on ${req.method} ${req.url?.split("?")[0]}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
      );
      if (!res.headersSent)
        send(res, 500, {
          error: "server_error",
          message: "The mock failed on this request; its stderr has the details.",
        });
      else res.destroy();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  // A malformed request line or header: answered 400 by node:http's parser, never a crash.
  server.on("clientError", (_error, socket) => {
    if (socket.writable)
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-type: application/json\r\n\r\n${JSON.stringify({ error: "invalid_request", message: "Malformed HTTP request." })}`,
      );
    else socket.destroy();
  });

  function finishRecord(res: ServerResponse, status: number): void {
    const record = records.get(res);
    if (record !== undefined) record.status = status;
    const info = logInfo.get(res);
    if (options.onRequest !== undefined && record !== undefined) {
      options.onRequest({
        method: record.method,
        path: record.path,
        operationId: info?.operationId ?? null,
        status,
        credential: info?.credential ?? "none",
        bodyBytes: record.bodyBytes,
        ...(info?.runId === undefined ? {} : { runId: info.runId }),
      });
    }
  }

  function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    if (status >= 400 && options.decorate !== undefined)
      ({ body, headers } = options.decorate(res, status, body, headers));
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, {
      "x-request-id": `req_${nextId()}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    });
    res.end(text);
    finishRecord(res, status);
  }

  function sendRaw(
    res: ServerResponse,
    status: number,
    contentType: string | undefined,
    text: string | Uint8Array,
    headers: Record<string, string> = {},
  ): void {
    res.writeHead(status, {
      "x-request-id": `req_${nextId()}`,
      ...(contentType === undefined ? {} : { "content-type": contentType }),
      ...headers,
    });
    res.end(text);
    finishRecord(res, status);
  }

  /**
   * What the client is still sending is read and thrown away for a moment
   * (a lingering close, RFC 9112 section 9.6): closing at once would make
   * the peer's kernel answer the rest with a reset, which can destroy this
   * answer unread. Past LINGER_BYTES or LINGER_MS the connection is closed
   * anyway, so a body never costs more than that, and nothing of it is kept.
   */
  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const pending = req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    send(res, status, body, headers);
    if (!pending) return;
    const socket = req.socket;
    const close = (): void => void socket.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    let discarded = 0;
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_BYTES) close();
    });
    req.once("end", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  }

  function invalid(res: ServerResponse, issues: readonly BodyIssue[], what: string): void {
    const message = `The ${what} is invalid (${issues.length} problem${issues.length === 1 ? "" : "s"}):${describeBodyIssues(issues.map((i) => ({ instancePath: i.path, schemaPath: "", keyword: i.rule, message: i.message, params: {} })))}`;
    send(res, 400, { error: "invalid_request", message, issues });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const url = requestUrl(req.url ?? "/");
    if (url === undefined) {
      requests.push({
        method,
        path: "",
        query: {},
        headers: { ...req.headers },
        body: undefined,
        bodyBytes: 0,
        status: 400,
      });
      return refuse(req, res, 400, {
        error: "invalid_request",
        message: "The request target is not a path or an absolute URL.",
      });
    }
    const path = url.pathname;
    const record: RecordedRequest = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: { ...req.headers },
      body: undefined,
      bodyBytes: 0,
      status: 0,
    };
    requests.push(record);
    records.set(res, record);
    const exchange: Exchange = { req, res, method, url, record };
    if (options.beforeRouting?.(exchange) === true) return;

    // Checked here once: the route matchers decode each parameter, which then cannot fail.
    if (!decodablePath(path))
      return refuse(req, res, 400, {
        error: "invalid_request",
        message:
          "The path has a bad percent-encoding (a % not followed by two hex digits, or bytes that are not UTF-8).",
      });
    const matches = options.routes
      .map((route) => ({ route, params: route.match(path) }))
      .filter((m) => m.params !== undefined);
    if (matches.length === 0) return refuse(req, res, 404, { error: "not_found", message: `No route ${path}.` });
    // A literal segment beats a parameter (`/pets/mine` before `/pets/{id}`): the match with the fewest parameters of the method.
    const match = matches
      .filter((m) => m.route.method === method)
      .sort((a, b) => Object.keys(a.params!).length - Object.keys(b.params!).length)[0];
    if (match === undefined) {
      const allow = [...new Set(matches.map((m) => m.route.method))].join(", ");
      return refuse(
        req,
        res,
        405,
        { error: "method_not_allowed", message: `${method} is not a method of ${path}; use ${allow}.` },
        { allow },
      );
    }
    const routed: RoutedExchange = { ...exchange, route: match.route, params: match.params! };
    if (!logInfo.has(res)) logInfo.set(res, { operationId: match.route.operationId, credential: "none" });
    if (options.afterRouting?.(routed) === true) return;

    const { route } = match;
    const queryIssues = route.checkQuery(url.searchParams);
    if (queryIssues.length > 0)
      return refuse(req, res, 400, {
        error: "invalid_request",
        message: `The query is invalid:${queryIssues.map((i) => `\n  ${i.path}: ${i.message}`).join("")}`,
        issues: queryIssues,
      });

    let body: unknown;
    if (
      route.bodyComponent !== undefined ||
      route.bodyMedia !== "none" ||
      method === "POST" ||
      method === "PUT" ||
      method === "PATCH"
    ) {
      const read = await readJsonBody(req, maxBodyBytes);
      if (read.kind === "aborted") return;
      if (read.kind === "too-large")
        return refuse(req, res, 413, {
          error: "payload_too_large",
          message: `The body is larger than ${read.limit} bytes (the mock's --max-body-bytes).`,
        });
      // A body of another media type (a form, bytes) is read and not checked.
      if (read.kind === "not-json" && route.bodyMedia !== "other")
        return send(res, 400, { error: "invalid_request", message: `The body is not valid JSON: ${read.message}.` });
      if (read.kind === "json") {
        body = read.value;
        record.bodyBytes = read.bytes;
        record.body = read.bytes > RECORDED_BODY_BYTES ? { omittedBytes: read.bytes } : read.value;
      }
      if (body === undefined && read.kind === "empty" && route.bodyRequired)
        return send(res, 400, {
          error: "invalid_request",
          message: `${route.operationId} needs a ${route.bodyMedia === "other" ? "" : "JSON "}body (${route.bodyComponent ?? "JSON"}).`,
        });
      if (body !== undefined && route.bodyMedia !== "other") {
        const issues = route.check(body);
        if (issues.length > 0) return invalid(res, issues, `${route.bodyComponent ?? "request"} body`);
      }
    }
    await options.handle({ ...routed, body });
  }

  await new Promise<void>((resolve, reject) =>
    server.once("error", reject).listen(options.port ?? 0, "127.0.0.1", resolve),
  );
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    send,
    sendRaw,
    refuse,
    invalid,
    setLog: (res, info) => void logInfo.set(res, info),
    finishRecord,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
