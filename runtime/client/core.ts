/**
 * The hand-written HTTP core of the generated client: URL and header
 * building, credentials, request-body validation, error mapping, retries.
 * `generated/client.ts` describes each operation as data and calls in here,
 * so the template stays thin.
 *
 * Uses only `fetch`, `Headers`, `AbortSignal`, `setTimeout`: runs in Node 20+,
 * browsers, Deno, Bun and edge workers.
 */
import type { ValidationIssue } from "../../generated/validators/runtime.js";
import type { ValidationMode } from "../events/index.js";
import { backoffDelay, sleep, type BackoffOptions } from "./internal/backoff.js";
import { checkBody, type BodyCheck } from "./request-check.js";
import { MantyxApiError, MantyxConnectionError, RequestValidationError, UnexpectedResponseError, retryAfterMs } from "./errors.js";

/** How one operation is called; generated from the schema. */
export interface OperationInfo {
  readonly id: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template, e.g. `/api/v1/workspaces/{workspaceSlug}/agent-runs/{runId}`. */
  readonly path: string;
  /**
   * Safe to send again after a 5xx or a network failure: GET/DELETE, and
   * operations the protocol makes idempotent (cancel). Tool results are not:
   * one POST per `toolUseId` (wire-protocol.md §13). Everything is retried
   * on 429, which means "not processed".
   */
  readonly idempotent: boolean;
  /**
   * Some success answer of the operation has no body (e.g. `204`; cancel and
   * delete are documented only as "2xx"): a success body that is not JSON is
   * then ignored instead of being an UnexpectedResponseError.
   */
  readonly bodyOptional?: boolean | undefined;
  /** Request-body check; absent when the operation has no body. */
  readonly body?: BodyCheck | undefined;
}

/** Reports what `validation: "warn"` lets through. */
export type ClientWarningHandler = (message: string, detail?: unknown) => void;

export interface ClientOptions {
  /** Server origin, e.g. `https://app.mantyx.io` (a path prefix is kept). */
  baseUrl: string;
  /** Workspace slug for every `/api/v1/workspaces/{workspaceSlug}/…` route. */
  workspace?: string | undefined;
  /** API key (`mantyx_…`) or OAuth access token (`mantyx_at_…`): one code path serves both. */
  apiKey?: string | undefined;
  /** Where the credential goes: `Authorization: Bearer …` (default) or `X-API-Key: …`. */
  credentialHeader?: "authorization" | "x-api-key" | undefined;
  /** A `fetch` to use instead of the global one (proxies, tests, instrumentation). */
  fetch?: typeof fetch | undefined;
  /**
   * Schema checking of request bodies (before sending) and of stream events.
   * Default `"throw"`: a bad body is a RequestValidationError listing every
   * problem, and nothing is sent — a mistake is reported where it is made,
   * not as a server 400 after a round trip; events that fail the schema are
   * StreamDecodeErrors (see `onInvalid` of streamRun). The schema is a
   * tolerant reader (unknown fields and event types pass), so this rejects
   * only genuinely broken messages. `"warn"`: report to `onWarning` and go
   * on. `"off"`: no schema checks (event envelopes are still checked).
   */
  validation?: ValidationMode | undefined;
  /** Receives warnings (`validation: "warn"`, `onInvalid: "skip-and-warn"`). Default `console.warn`. */
  onWarning?: ClientWarningHandler | undefined;
  /** Retries of a request after 429 (any operation) or 5xx/network failure (idempotent ones). Default 2. */
  maxRetries?: number | undefined;
  /** Back-off of request retries and stream reconnects. Defaults 500 ms, capped at 10 s. */
  retryDelay?: BackoffOptions | undefined;
  /**
   * Extra product token for the client identification, e.g. `my-app/1.2`.
   * Outside browsers the client sends `User-Agent` and `X-Mantyx-Client`
   * naming `@mantyx/wire-types/<version>`. In browsers it sends neither: the
   * browser owns User-Agent, and a custom header would need the server's
   * CORS allow-list, which the protocol does not promise.
   */
  userAgent?: string | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Headers for this call only. */
  headers?: Record<string, string> | undefined;
  /** Overrides the client's `workspace` for this call. */
  workspace?: string | undefined;
}

export interface RequestArgs {
  path?: Readonly<Record<string, string | number>> | undefined;
  query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined;
  headers?: Readonly<Record<string, string | undefined>> | undefined;
  body?: unknown;
}

/** A 2xx answer: status and parsed JSON body (undefined when empty). */
export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

function isBrowser(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
  return g.document !== undefined || g.WorkerGlobalScope !== undefined;
}

/**
 * The credential as a header carries it. fetch strips leading and trailing
 * HTTP whitespace from header values, so a key read with its newline is sent
 * (and echoed back by a server) without it: that is the form to redact. A key
 * fetch would refuse (a line break or NUL inside, a character above U+00FF)
 * is refused here without quoting it, since fetch's own error quotes the
 * whole header value, credential included.
 */
function headerCredential(apiKey: string): string {
  const key = apiKey.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  if (/[\0\r\n]|[^\0-\xff]/.test(key)) {
    throw new TypeError("MantyxClient: apiKey cannot be sent in an HTTP header: it contains a line break, a NUL or a character above U+00FF (the key is not shown). Check how it was read.");
  }
  return key;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error as { name?: unknown } | null)?.name === "AbortError";
}

export class ClientCore {
  /** Kept private (`#`): never enumerable, never in `inspect` or JSON output. */
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly baseUrl: string;
  readonly workspace: string | undefined;
  readonly validation: ValidationMode;
  readonly maxRetries: number;
  readonly retryDelay: BackoffOptions;
  readonly version: string;
  readonly onWarning: ClientWarningHandler;
  readonly #credentialHeader: "authorization" | "x-api-key";
  readonly #identity: Record<string, string>;
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions, version = "0.0.0") {
    if (typeof options?.baseUrl !== "string" || options.baseUrl === "") {
      throw new TypeError('MantyxClient needs baseUrl, the server origin, e.g. new MantyxClient({ baseUrl: "https://app.mantyx.io", workspace, apiKey }).');
    }
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.workspace = options.workspace;
    this.#apiKey = options.apiKey === undefined ? undefined : headerCredential(options.apiKey);
    this.#credentialHeader = options.credentialHeader ?? "authorization";
    const f = options.fetch ?? (globalThis as { fetch?: typeof fetch }).fetch;
    if (typeof f !== "function") throw new TypeError("No fetch available: pass options.fetch (Node 18+, browsers and workers have one built in).");
    // Called unbound, a browser's window.fetch throws "Illegal invocation".
    this.#fetch = options.fetch ?? ((input, init) => f(input, init));
    this.validation = options.validation ?? "throw";
    this.maxRetries = options.maxRetries ?? 2;
    this.retryDelay = options.retryDelay ?? {};
    this.version = version;
    this.onWarning = options.onWarning ?? ((message) => (typeof console !== "undefined" ? console.warn(message) : undefined));
    this.#headers = { ...(options.headers ?? {}) };
    const product = `@mantyx/wire-types/${version}${options.userAgent !== undefined ? ` ${options.userAgent}` : ""}`;
    this.#identity = isBrowser() ? {} : { "user-agent": product, "x-mantyx-client": product };
  }

  /** Strings errors must never contain. */
  protected get secrets(): readonly string[] {
    return this.#apiKey === undefined ? [] : [this.#apiKey];
  }

  /** Absolute URL of an operation. */
  url(op: OperationInfo, args: RequestArgs, options?: CallOptions): string {
    const values: Record<string, string | number | undefined> = { ...(args.path ?? {}) };
    if (op.path.includes("{workspaceSlug}") && values["workspaceSlug"] === undefined) {
      const slug = options?.workspace ?? this.workspace;
      if (slug === undefined || slug === "") {
        throw new TypeError(`${op.id} needs a workspace slug: pass { workspace: "<slug>" } to the client (or to this call).`);
      }
      values["workspaceSlug"] = slug;
    }
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = values[name];
      if (v === undefined || v === "") throw new TypeError(`${op.id}: path parameter ${name} is missing.`);
      return encodeURIComponent(String(v));
    });
    let query = "";
    for (const [k, v] of Object.entries(args.query ?? {})) {
      if (v === undefined) continue;
      query += `${query === "" ? "?" : "&"}${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`;
    }
    return this.baseUrl + path + query;
  }

  /** Headers of a request: identity, client headers, credential, call headers, operation headers. */
  headersFor(args: RequestArgs, options: CallOptions | undefined, accept: string): Headers {
    const h = new Headers(this.#identity);
    for (const [k, v] of Object.entries(this.#headers)) h.set(k, v);
    h.set("accept", accept);
    if (this.#apiKey !== undefined) {
      if (this.#credentialHeader === "x-api-key") h.set("x-api-key", this.#apiKey);
      else h.set("authorization", `Bearer ${this.#apiKey}`);
    }
    for (const [k, v] of Object.entries(options?.headers ?? {})) h.set(k, v);
    for (const [k, v] of Object.entries(args.headers ?? {})) if (v !== undefined) h.set(k, v);
    return h;
  }

  /** Validates a body per `validation`; throws RequestValidationError in `"throw"` mode. */
  checkRequest(op: OperationInfo, body: unknown): readonly ValidationIssue[] | null {
    if (op.body === undefined || this.validation === "off") return null;
    const issues = checkBody(op.body, body);
    if (issues === null) return null;
    const error = new RequestValidationError(op.id, issues);
    if (this.validation === "throw") throw error;
    this.onWarning(`MANTYX: sending a body that does not match the schema (validation: "warn"): ${error.message}`, error);
    return issues;
  }

  /** One fetch, no retries: the building block of `request` and of the stream. */
  async send(op: OperationInfo, args: RequestArgs, options: CallOptions | undefined, accept: string, signal?: AbortSignal): Promise<Response> {
    const headers = this.headersFor(args, options, accept);
    const init: RequestInit = { method: op.method, headers };
    if (args.body !== undefined) {
      headers.set("content-type", "application/json");
      init.body = JSON.stringify(args.body);
    }
    const s = signal ?? options?.signal;
    if (s !== undefined) init.signal = s;
    return this.#fetch(this.url(op, args, options), init);
  }

  /** The typed API error of a non-2xx response (reads its body). */
  async apiError(op: OperationInfo, response: Response): Promise<MantyxApiError> {
    let text = "";
    try {
      text = await response.text();
    } catch {
      // The body is gone (connection dropped): the status still says enough.
    }
    let body: unknown = text;
    try {
      if (text !== "") body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's HTML page): keep the text.
    }
    return MantyxApiError.generate({ status: response.status, body, headers: response.headers, operationId: op.id, secrets: this.secrets });
  }

  /**
   * Sends a JSON request: validates the body, retries 429 (and, when the
   * operation is idempotent, 5xx and network failures) with back-off,
   * honouring `Retry-After`, and maps non-2xx answers to MantyxApiError.
   */
  async request<T>(op: OperationInfo, args: RequestArgs, options?: CallOptions): Promise<ApiResponse<T>> {
    if (args.body !== undefined || op.body !== undefined) this.checkRequest(op, args.body);
    const signal = options?.signal;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.send(op, args, options, "application/json");
      } catch (error) {
        if (isAbort(error, signal)) throw signal?.aborted ? signal.reason : error;
        if (!op.idempotent || attempt >= this.maxRetries) {
          throw new MantyxConnectionError(op.id, `network request failed: ${(error as Error)?.message ?? String(error)}`, { cause: error, attempts: attempt + 1 });
        }
        await sleep(backoffDelay(attempt + 1, this.retryDelay), signal);
        continue;
      }
      if (response.ok) return { status: response.status, data: (await this.readJson(op, response)) as T, headers: response.headers };
      const retryable = response.status === 429 || (response.status >= 500 && op.idempotent);
      const error = await this.apiError(op, response);
      if (!retryable || attempt >= this.maxRetries) throw error;
      await sleep(backoffDelay(attempt + 1, this.retryDelay, undefined, retryAfterMs(response.headers.get("retry-after"))), signal);
    }
  }

  private async readJson(op: OperationInfo, response: Response): Promise<unknown> {
    const text = await response.text();
    if (text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      if (op.bodyOptional === true) return undefined;
      throw new UnexpectedResponseError(op.id, response.status, response.headers.get("content-type"), "the response body is not JSON");
    }
  }
}
