/**
 * The hand-written HTTP core of generated clients. A generated client
 * describes each operation as data (method, path, body validators, and the
 * stream and at-most-once settings the schema states) and `ClientCore.define`
 * turns every entry into a method, so the generated file costs a table, not
 * code: URL and header building, credentials, request-body validation, error
 * mapping, retries, at-most-once outcomes and the event stream all live here
 * once. Protocol-neutral: every protocol fact comes from the table.
 *
 * Uses only `fetch`, `Headers`, `AbortSignal`, `setTimeout`: runs in Node 20+,
 * browsers, Deno, Bun and edge workers.
 */
import type { EventStreamSpec, StrictEventValidator, ValidationMode } from "../events/index.js";
import { MantyxApiError, MantyxConnectionError, RequestValidationError, UnexpectedResponseError } from "./errors.js";
import { backoff, sleep, type BackoffOptions } from "./internal/backoff.js";
import { bodyIssues, describeBodyIssues, type BodyCheck } from "./request-check.js";
import { runEventStream, type StreamRunOptions } from "./stream-run.js";

export type { RunEventStream, StreamRunOptions } from "./stream-run.js";

/**
 * One operation, as a generated client describes it. The method's arguments
 * are the path parameters in path order (but those filled from a client
 * option, see `ClientCore`'s `pathOptions`), then the body when the
 * operation takes one, then the per-call options.
 */
export interface Operation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template, `{name}` for each path parameter. */
  readonly path: string;
  /**
   * Safe to send again after a 5xx or a network failure (GET, DELETE, and
   * what the schema marks `x-idempotent`). Every operation is retried on
   * 429, which means "not processed".
   */
  readonly idempotent?: boolean;
  /** Some success answer has no body: a success body that is not JSON is ignored instead of being an UnexpectedResponseError. */
  readonly emptyOk?: boolean;
  /** The request body's validators. */
  readonly body?: BodyCheck;
  /** The answer is an event stream (a resumable RunEventStream). */
  readonly stream?: StreamSpec;
  /** At most one request per value of a body field, with outcomes for some answers (the schema's `x-once-per`, `x-outcomes`). */
  readonly once?: OnceSpec;
}

/** A streamed operation's settings, from its item schema and `x-resume`. */
export interface StreamSpec {
  /** The events: their validator and terminal types. */
  readonly events: EventStreamSpec<any>;
  /** Query parameter that carries the last delivered `seq` on a resume (besides `Last-Event-ID`). */
  readonly resumeQuery?: string;
  /**
   * How to tell, after a connection that ended cleanly with nothing new,
   * whether the stream's resource is still live: an operation taking the
   * same path arguments, and what its answer says.
   */
  readonly status?: StatusProbe;
}

export interface StatusProbe {
  /** The method (an operation of the same client) to call with the stream's path arguments. */
  readonly operation: string;
  /** The answer's field that holds the status. */
  readonly field: string;
  /** Statuses of a live resource (a quiet connection's clean close is then not a failure). */
  readonly live: readonly string[];
  /** Statuses of a finished one. */
  readonly done: readonly string[];
  /** Fields whose being set (not null) also says it is finished. */
  readonly doneWhenSet?: readonly string[];
}

/** At most one request per value of body field `key`; the answers in `outcomes` (status -> name) are values, not errors. */
export interface OnceSpec {
  readonly key: string;
  readonly outcomes: Readonly<Record<number, string>>;
}

/** Reports what `validation: "warn"` (and `onInvalid: "skip-and-warn"`) lets through; default `console.warn`. */
export type ClientWarningHandler = (message: string, detail?: unknown) => void;

export interface ClientOptions {
  /** Server origin, e.g. `https://app.mantyx.io` (a path prefix is kept). */
  baseUrl: string;
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
}

/**
 * The answer of an at-most-once operation (`OnceSpec`), as a value: accepted
 * (any 2xx), or one of the outcomes the schema names for a status. Anything
 * else is thrown as MantyxApiError.
 */
export type OnceOutcome<Name extends string = string> = { status: "accepted"; httpStatus: number } | { status: Name; error: MantyxApiError };

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
  /** Path parameters filled from an option (per call, else the client's) instead of an argument: parameter -> option name. */
  readonly #pathOptions: Readonly<Record<string, string>>;
  /** Identity, client headers and the credential. Private (`#`): never enumerable, never in `inspect` or JSON output. */
  readonly #headers: Headers;
  /** The credential as sent, and as JSON escapes it: what redaction removes. */
  readonly #secrets: string[] = [];
  /** Outcomes of at-most-once operations by URL and key: at most one request each. */
  readonly #posted = new Map<string, Promise<OnceOutcome>>();

  /**
   * `version` names the client in `User-Agent`; `pathOptions` maps path
   * parameters that come from an option (the MANTYX client: `workspaceSlug`
   * from `workspace`) to that option's name.
   */
  constructor(options: ClientOptions, version: string, pathOptions: Readonly<Record<string, string>> = {}) {
    const { apiKey, userAgent } = options;
    this.#o = options;
    this.#pathOptions = pathOptions;
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

  /** Installs one method per operation on this class's prototype (a generated client calls it once). */
  static define(operations: Readonly<Record<string, Operation>>): void {
    for (const id in operations) {
      (this.prototype as unknown as Record<string, unknown>)[id] = function (this: ClientCore, ...args: unknown[]) {
        return this.#call(id, operations[id]!, args);
      };
    }
  }

  #call(id: string, operation: Operation, args: unknown[]): unknown {
    const { method, path, body: check, stream } = operation;
    const fromOption = this.#pathOptions;
    // Arguments: the path parameters not filled from an option, in path order; the body; the options.
    const pathArgs = (path.match(/\{[^}]+\}/g) ?? []).filter((p) => !(p.slice(1, -1) in fromOption)).length;
    const optionsIndex = pathArgs + (check ? 1 : 0);
    const callOptions = args[optionsIndex] as (StreamRunOptions & Record<string, unknown>) | undefined;
    const settings = this.#o as ClientOptions & Record<string, unknown>;
    let nextArg = 0;
    const url = (): string =>
      settings.baseUrl.replace(/\/+$/, "") +
      path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const option = fromOption[name];
        const value = option === undefined ? args[nextArg++] : (callOptions?.[option] ?? settings[option]);
        if (value == null || value === "") throw new TypeError(`${id}: pass ${option === undefined ? name : `{ ${option} } to the client or the call`}`);
        return encodeURIComponent(value as string);
      });
    if (stream) {
      let streamUrl: string | Error;
      try {
        // A caller mistake (a missing path value, a header value fetch refuses) is thrown by the first next(), not retried as a drop.
        addHeaders(new Headers(), callOptions?.headers, []);
        streamUrl = url();
      } catch (e) {
        streamUrl = e as Error;
      }
      const { resumeQuery } = stream;
      return runEventStream(this, settings, id, stream, args.slice(0, pathArgs), callOptions ?? {}, streamUrl, (seq, signal) =>
        this.#request(
          id,
          method,
          seq === undefined || !resumeQuery ? (streamUrl as string) : `${streamUrl}${(streamUrl as string).includes("?") ? "&" : "?"}${encodeURIComponent(resumeQuery)}=${seq}`,
          0,
          undefined,
          callOptions,
          signal,
          "text/event-stream",
          seq === undefined ? {} : { "last-event-id": "" + seq },
        ),
      );
    }
    return this.#invoke(id, operation, url, check && args[optionsIndex - 1], callOptions);
  }

  async #invoke(id: string, { method, idempotent, emptyOk, body: check, once }: Operation, url: () => string, body: unknown, callOptions: CallOptions | undefined): Promise<unknown> {
    const { validation: mode, onWarning = (m: string) => console.warn(m) } = this.#o;
    const issues = check && mode != "off" && bodyIssues(check, body);
    if (issues) {
      const e = new RequestValidationError(`${id}: invalid body, not sent:${describeBodyIssues(issues)}`, { operationId: id, issues });
      if (mode != "warn") throw e;
      onWarning(e.message, e);
    }
    const target = url();
    const request = (): Promise<Response> => this.#request(id, method, target, idempotent || method == "GET" || method == "DELETE" ? -1 : 1, body, callOptions);
    if (once) {
      // At most one request per key: a second call returns the first
      // outcome without sending. A request that failed (thrown error,
      // nothing decided) is forgotten, so it can be retried; if it did reach
      // the server, the retry gets the outcome the server gives a repeat.
      const posted = this.#posted;
      const key = `${target}\0${(body as Record<string, unknown> | undefined)?.[once.key]}`;
      let outcome = posted.get(key);
      if (!outcome) {
        posted.set(
          key,
          (outcome = request().then(
            // A 2xx is the acceptance whatever its body (older servers answer 200, maybe with text).
            (response) => (response.body?.cancel().catch(() => undefined), { status: "accepted", httpStatus: response.status }),
            (error) => {
              // A listed status is that outcome when the body names that code.
              const name = error instanceof MantyxApiError && once.outcomes[error.status];
              if (name && error.code == name) return { status: name, error } as OnceOutcome;
              throw error;
            },
          )),
        );
        const own = outcome;
        // (Only its own entry: after an eviction the key may hold a newer request.)
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
      if (!emptyOk) throw new UnexpectedResponseError(`${id}: ${response.status} ${contentType}, not JSON`, { operationId: id, status: response.status, contentType });
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
