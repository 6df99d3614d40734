/**
 * The hand-written HTTP core of the generated client. `generated/client.ts`
 * describes each operation as data (method, path, flags, body validators)
 * and `ClientCore.define` turns every entry into a method, so the generated
 * file costs a table, not code: URL and header building, credentials,
 * request-body validation, error mapping, retries, tool-result outcomes and
 * the event stream all live here once.
 *
 * Uses only `fetch`, `Headers`, `AbortSignal`, `setTimeout`: runs in Node 20+,
 * browsers, Deno, Bun and edge workers.
 */
import type { StrictEventValidator, ValidationMode } from "../events/index.js";
import { MantyxApiError, MantyxConnectionError, RequestValidationError, UnexpectedResponseError } from "./errors.js";
import { backoff, sleep, type BackoffOptions } from "./internal/backoff.js";
import { bodyIssues, describeBodyIssues, type BodyCheck } from "./request-check.js";
import { runEventStream, type StreamRunOptions } from "./stream-run.js";

export type { RunEventStream, StreamRunOptions } from "./stream-run.js";

/**
 * Operation flags, the bits of an Operation's third element.
 * - IDEMPOTENT: safe to send again after a 5xx or a network failure (GET,
 *   DELETE, and cancel, which the protocol makes idempotent). Not tool
 *   results: one POST per `toolUseId` (wire-protocol.md §13). Every
 *   operation is retried on 429, which means "not processed".
 * - EMPTY_OK: some success answer has no body (`204`, or documented only as
 *   "2xx"), so a success body that is not JSON is ignored instead of being
 *   an UnexpectedResponseError.
 * - STREAM: the answer is the run's event stream (a RunEventStream).
 * - TOOL_RESULT: the answer is a ToolResultOutcome, at most one POST per
 *   `toolUseId`.
 */
export const IDEMPOTENT = 1;
export const EMPTY_OK = 2;
export const STREAM = 4;
export const TOOL_RESULT = 8;

/**
 * One operation, as `generated/client.ts` describes it: HTTP method, path
 * template (`{workspaceSlug}` filled from the client's `workspace`, the
 * other parameters from the method's leading arguments, in path order),
 * flags, and the request body's validators when it takes one (the body is
 * then the argument after the path parameters). The last argument is the
 * per-call options.
 */
export type Operation = readonly [method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, flags: number, body?: BodyCheck];

/** Reports what `validation: "warn"` (and `onInvalid: "skip-and-warn"`) lets through; default `console.warn`. */
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
  /**
   * The levels are explicit (schema/CONVENTIONS.md, "Two validation levels"):
   * request bodies are checked at the strict level with every error listed;
   * received events at the receive level (the shape each type promises), so
   * an additive value or a rule only a conformance check needs never stops a
   * run. Strict checking of events is an opt-in: pass the strict validator,
   * `validateAgentRunEvent` from `@mantyx/wire-types/validators/agent-run-event`
   * (a program that does not import it does not bundle it). An event that
   * fails only the strict level is delivered and reported once to `onWarning`.
   */
  strictEvents?: StrictEventValidator | undefined;
  /** Receives warnings (`validation: "warn"`, `onInvalid: "skip-and-warn"`, `strictEvents`). Default `console.warn`. */
  onWarning?: ClientWarningHandler | undefined;
  /** Retries of a request after 429 (any operation) or 5xx/network failure (idempotent ones). Default 2. */
  maxRetries?: number | undefined;
  /** Back-off of request retries and stream reconnects. Defaults 500 ms, capped at 10 s. */
  retryDelay?: BackoffOptions | undefined;
  /**
   * Extra product token for the `User-Agent`, e.g. `my-app/1.2`. Outside
   * browsers the client sends `User-Agent: @mantyx/wire-types/<version>`
   * (plus this). In browsers it sends none: the browser owns User-Agent.
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

/**
 * The documented endings of a tool-result POST, as values (wire-protocol.md
 * §5, §10, §13). Anything else (401, 403, a 404 for a wrong workspace, …)
 * is thrown as MantyxApiError.
 */
export type ToolResultOutcome =
  /** The runner got it (204; 200 from older servers, which also answer 200 for a result after cancellation). */
  | { status: "accepted"; httpStatus: number }
  /** 404 `unknown_tool_use`: already answered, no pending call with that id, or (older servers) the run ended. */
  | { status: "unknown_tool_use"; error: MantyxApiError }
  /** 409 `run_terminal`: the run already ended (or the tool timed out); the result was dropped. */
  | { status: "run_terminal"; error: MantyxApiError };

/** Opens one stream connection (resuming after `lastSeq` when defined): the 2xx response; throws what a request throws. */
export type StreamOpener = (lastSeq: number | undefined, signal: AbortSignal) => Promise<Response>;

/** A credential as sent and as JSON escapes it (what redaction removes); none for an empty one. */
const secretForms = (key: string): string[] => (key ? [key, JSON.stringify(key).slice(1, -1)] : []);

/**
 * Sets each header of `set` on `headers`, and adds the credential of an
 * `authorization` or `x-api-key` one to `secrets` (a credential passed as a
 * plain header is redacted too). A value fetch would refuse is a TypeError
 * naming the header, not quoting the value (it may be a credential).
 */
function addHeaders(headers: Headers, set: Record<string, string> | undefined, secrets: string[]): void {
  for (const name in set) {
    try {
      headers.set(name, set[name]!);
    } catch {
      throw new TypeError(`MantyxClient: header ${JSON.stringify(name)} has a value that is no valid header value (not shown)`);
    }
    if (/^(authorization|x-api-key)$/i.test(name)) secrets.push(...secretForms(headers.get(name)!.replace(/^Bearer\s+/i, "")));
  }
}

export class ClientCore {
  /** The options as given (defaults are applied where they are read). */
  readonly #o: ClientOptions;
  /** Identity, client headers and the credential. Private (`#`): never enumerable, never in `inspect` or JSON output. */
  readonly #headers: Headers;
  /** The credential as sent, and as JSON escapes it: what redaction removes. */
  readonly #secrets: string[] = [];
  /** Tool-result outcomes by URL and `toolUseId`: at most one POST each. */
  readonly #posted = new Map<string, Promise<ToolResultOutcome>>();

  constructor(options: ClientOptions, version: string) {
    const { apiKey, userAgent } = options;
    this.#o = options;
    if (!options.baseUrl || typeof (options.fetch ?? globalThis.fetch) != "function") throw new TypeError("MantyxClient: pass baseUrl (and fetch)");
    // A mistyped URL fails here, not as a "connection error" on every call.
    // A relative one resolves as fetch resolves it in a browser: against the
    // document's base URL.
    const page = globalThis as { document?: { baseURI?: string }; location?: { href: string } };
    let base: URL;
    try {
      base = new URL(options.baseUrl, page.document?.baseURI ?? page.location?.href);
    } catch {
      throw new TypeError(`MantyxClient: baseUrl ${JSON.stringify(options.baseUrl)} is not a URL`);
    }
    // fetch refuses such a URL, and its error would quote the password.
    if (base.username || base.password) throw new TypeError("MantyxClient: baseUrl carries a user name or password (not shown); pass the credential as apiKey");
    const inBrowser = "document" in globalThis || "WorkerGlobalScope" in globalThis;
    const headers = (this.#headers = new Headers(inBrowser ? {} : { "user-agent": `@mantyx/wire-types/${version}${userAgent ? " " + userAgent : ""}` }));
    addHeaders(headers, options.headers, this.#secrets);
    if (apiKey !== undefined) {
      // fetch strips leading and trailing HTTP whitespace from header values,
      // so a key read with its newline is sent (and echoed back) without it:
      // that is the form to redact. A key fetch would refuse is refused here
      // without quoting it, since fetch's own error quotes the whole header.
      const key = apiKey.trim();
      if (/[\0\r\n]|[^\0-\xff]/.test(key)) throw new TypeError("MantyxClient: apiKey is no valid header value (not shown)");
      if (options.credentialHeader == "x-api-key") headers.set("x-api-key", key);
      else headers.set("authorization", "Bearer " + key);
      this.#secrets.push(...secretForms(key));
    }
  }

  /** Installs one method per operation on this class's prototype (generated/client.ts calls it once). */
  static define(operations: Readonly<Record<string, Operation>>): void {
    for (const id in operations) {
      (this.prototype as unknown as Record<string, unknown>)[id] = function (this: ClientCore, ...args: unknown[]) {
        return this.#call(id, operations[id]!, args);
      };
    }
  }

  #call(id: string, [method, path, flags, check]: Operation, args: unknown[]): unknown {
    // Arguments: the path parameters but workspaceSlug, in path order; the body; the options.
    const optionsIndex = path.split(/\{(?!workspaceSlug\})/).length - (check ? 0 : 1);
    const callOptions = args[optionsIndex] as StreamRunOptions | undefined;
    const settings = this.#o;
    let nextArg = 0;
    const url = (): string =>
      settings.baseUrl.replace(/\/+$/, "") +
      path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const value = name == "workspaceSlug" ? (callOptions?.workspace ?? settings.workspace) : args[nextArg++];
        if (value == null || value === "") throw new TypeError(`${id}: pass ${name == "workspaceSlug" ? "{ workspace } to the client or the call" : name}`);
        return encodeURIComponent(value as string);
      });
    if (flags & STREAM) {
      let streamUrl: string | Error;
      try {
        // A caller mistake (no workspace, a header value fetch refuses) is thrown by the first next(), not retried as a drop.
        addHeaders(new Headers(), callOptions?.headers, []);
        streamUrl = url();
      } catch (e) {
        streamUrl = e as Error;
      }
      return runEventStream(this, settings, id, args[0] as string, callOptions ?? {}, streamUrl, (seq, signal) =>
        this.#request(id, method, seq === undefined ? (streamUrl as string) : `${streamUrl}?lastSeq=${seq}`, 0, undefined, callOptions, signal, "text/event-stream", seq === undefined ? {} : { "last-event-id": "" + seq }),
      );
    }
    return this.#invoke(id, method, url, flags, check, check && args[optionsIndex - 1], callOptions);
  }

  async #invoke(id: string, method: string, url: () => string, flags: number, check: BodyCheck | undefined, body: unknown, callOptions: CallOptions | undefined): Promise<unknown> {
    const { validation: mode, onWarning = (m: string) => console.warn(m) } = this.#o;
    const issues = check && mode != "off" && bodyIssues(check, body);
    if (issues) {
      const e = new RequestValidationError(`${id}: invalid body, not sent:${describeBodyIssues(issues)}`, { operationId: id, issues });
      if (mode != "warn") throw e;
      onWarning(e.message, e);
    }
    const target = url();
    const request = (): Promise<Response> => this.#request(id, method, target, flags & IDEMPOTENT ? -1 : 1, body, callOptions);
    if (flags & TOOL_RESULT) {
      // At most one POST per toolUseId: a second call returns the first
      // outcome without posting. A POST that failed (thrown error, nothing
      // decided) is forgotten, so it can be retried; if it did reach the
      // server, the retry gets `unknown_tool_use`, a normal outcome.
      const posted = this.#posted;
      const key = `${target}\0${(body as { toolUseId?: unknown } | undefined)?.toolUseId}`;
      let outcome = posted.get(key);
      if (!outcome) {
        posted.set(
          key,
          (outcome = request().then(
            // A 2xx is the acceptance whatever its body (older servers answer 200, maybe with text).
            (response) => (response.body?.cancel().catch(() => undefined), { status: "accepted", httpStatus: response.status }),
            (error) => {
              const status = error instanceof MantyxApiError && (error.status == 409 ? "run_terminal" : error.status == 404 && error.code == "unknown_tool_use" && error.code);
              if (status) return { status, error } as ToolResultOutcome;
              throw error;
            },
          )),
        );
        const own = outcome;
        // (Only its own entry: after an eviction the key may hold a newer POST.)
        own.catch(() => posted.get(key) === own && posted.delete(key));
        if (posted.size > 1e4) posted.delete(posted.keys().next().value!);
      }
      return outcome;
    }
    const response = await request();
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : undefined;
    } catch {
      const contentType = response.headers.get("content-type");
      if (!(flags & EMPTY_OK)) throw new UnexpectedResponseError(`${id}: ${response.status} ${contentType}, not JSON`, { operationId: id, status: response.status, contentType });
    }
  }

  /**
   * Sends a request; non-2xx answers become MantyxApiError, network failures
   * MantyxConnectionError. Retries with back-off honouring `Retry-After`:
   * 429 always, 5xx and network failures when `retry` is -1 (idempotent),
   * none when it is 0 (the stream retries on its own).
   */
  async #request(id: string, method: string, url: string, retry: number, body: unknown, callOptions: CallOptions | undefined, signal = callOptions?.signal, accept = "application/json", extra = {}): Promise<Response> {
    const { maxRetries = 2, retryDelay, fetch: fetchFn = globalThis.fetch } = this.#o;
    // Built once, outside the retry loop: a header value fetch refuses or a
    // body JSON cannot encode (a BigInt, a cycle) is the caller's mistake,
    // thrown as the TypeError it is, never retried as a network failure.
    const headers = new Headers(this.#headers);
    const secrets = [...this.#secrets];
    for (const set of [{ accept }, callOptions?.headers, extra, body === undefined ? {} : { "content-type": "application/json" }]) addHeaders(headers, set, secrets);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 1; ; attempt++) {
      let response: Response | undefined;
      let error: MantyxApiError | MantyxConnectionError;
      try {
        // Called unbound: a browser's window.fetch called as a method of another object throws "Illegal invocation".
        response = await fetchFn(url, { method, headers, body: payload, signal });
        if (response.ok) return response;
        error = await this.#error(id, response, secrets);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        // fetch's own message is often just "fetch failed": the reason (ECONNREFUSED, a DNS failure, …) is its cause's.
        const reason = (cause as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
        const detail = reason?.message || reason?.code;
        error = new MantyxConnectionError(`${id}: ${(cause as Error)?.message}${typeof detail == "string" ? ` (${detail})` : ""}`, { operationId: id, cause, attempts: attempt });
      }
      const retriable = response?.status == 429 || (retry < 0 && (!response || response.status > 499));
      if (!retry || attempt > maxRetries || !retriable) throw error;
      await sleep(backoff(attempt, retryDelay, undefined, (error as MantyxApiError).retryAfterMs), signal);
    }
  }

  /**
   * The typed error of a non-2xx answer. The credential is redacted from the
   * body text (also in its JSON-escaped form, after normalising the JSON)
   * and from every header the error reads, before anything is taken from them.
   */
  async #error(id: string, response: Response, secrets: string[]): Promise<MantyxApiError> {
    const hide = (text: string): string => secrets.reduce((redacted, secret) => redacted.split(secret).join("[redacted]"), text);
    // The body may be gone (connection dropped): the status still says enough.
    const text = hide(await response.text().catch(() => ""));
    let body: unknown = text;
    try {
      body = JSON.parse(hide(JSON.stringify(JSON.parse(text))));
    } catch {
      // Not JSON (a proxy's HTML page): keep the text.
    }
    return new MantyxApiError(id, response.status, body, {
      get: (name) => {
        const value = response.headers.get(name);
        return value == null ? null : hide(value);
      },
    });
  }
}
