/**
 * An operation as data, and what a call of one takes: the types a generated
 * client's table entries and options are written in. The HTTP core
 * (./core.ts) sends a call of such an entry; the types of the operation
 * kinds that only some entries need (the body check, the event stream's
 * options, item streams, pages) are here too, so that core.ts and the kinds
 * (./request-check.ts, ./stream-run.ts, ./item-stream.ts, ./pages.ts) import
 * them from here, not from each other: core.ts imports none of the kinds,
 * and no module of runtime/ is in an import cycle (test/layers/cycles.test.ts).
 * Types only: nothing here is bundled.
 */
import type { EventStreamSpec, OnInvalid, StrictEventValidator, ValidationMode } from "../events/index.js";
import type { Validator } from "../validation/issue.js";
import type { ApiError } from "./errors.js";
import type { BackoffOptions } from "./internal/backoff.js";

/**
 * One operation, as a generated client describes it. The method's arguments
 * are the path parameters in path order (but those filled from a client
 * option, see `HttpClient`'s `pathOptions`), then the body when the
 * operation takes one, then its query, header and cookie parameters as one
 * object (`{ query?, header?, cookie? }`) when it has any, then the
 * per-call options.
 */
export interface Operation {
  /** Every method of an OpenAPI Path Item (`QUERY` is 3.2's), or a 3.2 `additionalOperations` method as written (`COPY`). */
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "TRACE" | "QUERY" | (string & {});
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
  /**
   * The request body's validator (its all-errors build). Checked by the
   * kind `checkedBody` (./request-check.ts), which the methods of
   * ./define.ts and generated operation functions pass for such an entry;
   * so a program that calls no validated operation bundles no checking.
   */
  readonly body?: BodyCheck;
  /** The answer is an event stream (a resumable RunEventStream). */
  readonly stream?: StreamSpec;
  /** At most one request per value of a body field, with outcomes for some answers (the schema's `x-once-per`, `x-outcomes`); made so by the kind `onceKind` (./once.ts). */
  readonly once?: OnceSpec;
  /** Cursor pagination (the schema's `x-pagination`): the client also gets `<operation>Pages`, an async iteration over the pages. */
  readonly pages?: PagesSpec;
  /** Path parameters written otherwise than as one URL-encoded scalar (an array, an object, `label` or `matrix` style), by name; sent by `extras`. */
  readonly pathStyles?: Readonly<Record<string, PathStyle>>;
  /** The method takes a body without validators (an inline schema, or not JSON). */
  readonly takesBody?: boolean;
  /** The body's media type when it is not `application/json`, sent by `extras`: another JSON one (`application/merge-patch+json`) JSON-encoded, any other body as given (a string, Blob, FormData, ...). */
  readonly bodyMedia?: string;
  /** Query, header and cookie parameters, by where they go (see `ParamsSpec`). */
  readonly params?: ParamsSpec;
  /** Security requirement alternatives, each a list of scheme names (of the client's `CredentialSupport`: ./credentials.ts); the first non-empty one the client holds every credential of is sent. An empty list: none needed (an empty alternative beside others: authentication is optional, and a held credential is still sent). */
  readonly security?: readonly (readonly string[])[];
  /**
   * What sends `params`, a body that is not JSON (`bodyMedia`) and the
   * credentials of a basic, API-key-in-query or API-key-in-cookie scheme
   * (`operationExtras`, ./extras.ts): generated
   * operation functions pass it only in entries that need it, so a program
   * that calls none bundles none of it. `operationFunction` and
   * `defineOperations` (the entries of code generated before revision 5)
   * give it to every entry.
   */
  readonly extras?: OperationExtras;
  /** The answer is a stream of items (item-stream.ts; a JSON-or-stream answer with the kind `eitherKind`). */
  readonly items?: ItemStreamMode;
  /** An SSE item stream whose data is JSON: the data that ends it cleanly (`x-sse-sentinel`, `[DONE]` by default). */
  readonly sentinel?: string;
  /** An SSE item stream the server resumes after `Last-Event-ID` (`x-sse-resume: true`): a drop reconnects. */
  readonly resume?: boolean;
  /** The answer is JSON or an item stream (of `items`), as its Content-Type says: the kind `eitherKind`. */
  readonly either?: boolean;

  /** The success answer is read as text or as a Blob, not as JSON. */
  readonly answer?: "text" | "blob";
}

/**
 * How a query parameter is serialised (OpenAPI `style` + `explode`):
 * `form` (the default: `a=1&a=2`, an object's members as their own keys),
 * `csv` (form without explode: `a=1,2`), `deep` (deepObject: `a[k]=v`),
 * `pipe` / `space` (pipeDelimited / spaceDelimited arrays), `json` (a
 * parameter described by `content: application/json` instead of a schema:
 * the value as one JSON text, `a=%7B%22k%22%3A1%7D`).
 */
export type QueryStyle = "form" | "csv" | "deep" | "pipe" | "space" | "json";

/**
 * How a header or cookie parameter is written: `simple` (OpenAPI's default
 * for them: an array's items, or an object's keys and values, joined by
 * commas), `explode` (simple with explode: an object as `k=v,k2=v2`),
 * `json` (described by `content: application/json`: one JSON text).
 */
export type HeaderStyle = "simple" | "explode" | "json";

/**
 * How a path parameter is written when it is not a scalar in OpenAPI's
 * default `simple` style (which the client writes itself, URL-encoded):
 * `simple` / `explode` (an array's items, an object's keys and values, joined
 * by commas; `k=v` pairs with explode), `label` (`.a.b` with explode, `.a,b`
 * without), `matrix` (`;id=a;id=b` with explode, `;id=a,b` without), `json`
 * (described by `content: application/json`). RFC 6570's expansions, which
 * OpenAPI's `style` names.
 */
export type PathStyle = "simple" | "explode" | "label" | "labelExplode" | "matrix" | "matrixExplode" | "json";

export interface ParamsSpec {
  /** Query parameter names and their style. */
  readonly query?: Readonly<Record<string, QueryStyle>>;
  /** Header and cookie parameter names, each `simple` (a list, as revision 4 writes them), or by name with their style. */
  readonly header?: readonly string[] | Readonly<Record<string, HeaderStyle>>;
  readonly cookie?: readonly string[] | Readonly<Record<string, HeaderStyle>>;
}

/** A security scheme the client sends (OpenAPI Security Scheme Object): bearer token, basic user/password, or an API key by name in a header, the query or a cookie. */
export type SecurityScheme =
  | readonly ["bearer"]
  | readonly ["basic"]
  | readonly ["apiKey", "header" | "query" | "cookie", string];

/** A credential for one scheme: a token or key, or a user name and password (basic). */
export type Credential = string | { readonly username: string; readonly password: string };

/**
 * Credentials by security scheme (`ClientOptions.credentials`): what a
 * client of a schema whose schemes `apiKey` cannot stand for passes to
 * `HttpClient` (`schemeCredentials`, ./credentials.ts), so a client that
 * needs only `apiKey` bundles none of it.
 */
export type CredentialSupport = (
  credentials: NonNullable<ClientOptions["credentials"]>,
  /** Where every form of the given credentials goes (internal/redact.ts), to be redacted from errors. */
  secrets: string[],
) => CredentialSender;

/**
 * Writes the credentials of the first of `operation`'s security
 * alternatives that the client holds into the call's query and headers;
 * `need(name)` gives the entry's extras for a scheme that is neither a
 * bearer token nor a header key.
 */
export type CredentialSender = (
  operation: Operation,
  query: URLSearchParams,
  headers: Record<string, string>,
  need: (what: string) => OperationExtras,
) => void;

/** What a method with parameters takes: `{ query?, header?, cookie? }`, each by the parameter's name. */
export interface CallParams {
  readonly query?: Readonly<Record<string, unknown>>;
  readonly header?: Readonly<Record<string, unknown>>;
  readonly cookie?: Readonly<Record<string, unknown>>;
}

/**
 * The request parts only some operations need (./extras.ts): writing a
 * call's `params`, and a credential that is neither a bearer token nor an
 * API key in a header, into the call's query and headers (a cookie joins
 * `headers.cookie`); a body that is not JSON.
 */
export interface OperationExtras {
  params(
    spec: ParamsSpec,
    given: CallParams | undefined,
    query: URLSearchParams,
    headers: Record<string, string>,
  ): void;
  credential(
    scheme: SecurityScheme,
    credential: Credential,
    query: URLSearchParams,
    headers: Record<string, string>,
  ): void;
  /** A body of media type `media` (not JSON), as sent, and its content type (none for FormData and URLSearchParams, which set their own). */
  body(body: unknown, media: string): readonly [BodyInit, string?];
  /** A path parameter's value as its style writes it into the path, URL-encoded (`PathStyle`). */
  pathText(name: string, value: unknown, style: PathStyle): string;
}

/** A streamed operation's settings, from its item schema and `x-resume`. */
export interface StreamSpec {
  /** The events: their validator and terminal types. */
  // biome-ignore lint/suspicious/noExplicitAny: each operation's own event type; the kind hands its items on as the generated signature types them
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
  /** Back-off of request retries. Defaults 500 ms, capped at 10 s. */
  retryDelay?: BackoffOptions | undefined;
  /**
   * Back-off of stream reconnects over connections in a row that delivered
   * no new event (after one that did, the stream reconnects at once).
   * Defaults 200 ms, capped at 5 s; a stream's `retry:` and a `Retry-After`
   * are minimums. Per stream: `streamRun(id, { reconnectDelay })`.
   */
  reconnectDelay?: BackoffOptions | undefined;
  /**
   * The longest a request other than the event stream may take, retries
   * included, before it fails with ConnectionError. Default 60 000;
   * 0 turns it off. Per call: `{ timeoutMs }`. (The stream has
   * `idleTimeoutMs` instead.)
   */
  timeoutMs?: number | undefined;
  /**
   * Extra product token for the `User-Agent`, e.g. `my-app/1.2`. Outside
   * browsers the client sends `User-Agent: @mantyx/wire-types/<version>`
   * (plus this). In browsers it sends none: the browser owns User-Agent.
   */
  userAgent?: string | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Credentials by security scheme name (generated clients type the names; only those whose schemes `apiKey` cannot stand for take them); each request sends those its operation requires. */
  credentials?: Readonly<Record<string, Credential | undefined>> | undefined;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Headers for this call only. */
  headers?: Record<string, string> | undefined;
  /** Overrides the client's `timeoutMs` for this call (not for the event stream). */
  timeoutMs?: number | undefined;
}

/**
 * The answer of an at-most-once operation (`OnceSpec`), as a value: accepted
 * (any 2xx), or one of the outcomes the schema names for a status. Anything
 * else is thrown as ApiError.
 */
export type OnceOutcome<Name extends string = string> =
  | { status: "accepted"; httpStatus: number }
  | { status: Name; error: ApiError };

/** Opens one stream connection (resuming after `lastSeq` when defined): the 2xx response; throws what a request throws. */
export type StreamOpener = (lastSeq: number | undefined, signal: AbortSignal) => Promise<Response>;

/** A request body's validator: the all-errors build of its component. */
export type BodyCheck = Validator<unknown>;

export type ItemStreamMode = "sse" | "sse-json" | "sse-data" | "jsonl";

/** From the schema's `x-pagination`: the query parameter that takes the cursor, and the answer's fields. */
export interface PagesSpec {
  /** Query parameter the cursor is sent in (`cursor`, or `beforeSeq` for a replay that pages backwards). */
  readonly cursorParam: string;
  /** Field of a page that holds the next cursor (`nextCursor`, `nextBeforeSeq`). */
  readonly nextCursor: string;
  /** Field of a page that holds its items (documentation for callers; pages are yielded whole). */
  readonly items: string;
}

export interface StreamRunOptions extends CallOptions {
  /** Resume after this `seq` (events up to it are not delivered). */
  lastSeq?: number | undefined;
  /**
   * Treat a connection that sends no bytes for this long (heartbeat comments
   * count; the consumer's own time does not) as dropped, and reconnect.
   * Default 60 000; 0 turns it off. Safe for long tool calls: a silent
   * connection of a run that `getRun` reports live does not count toward
   * `maxReconnects` (see the top of stream-run.ts).
   */
  idleTimeoutMs?: number | undefined;
  /**
   * Connections in a row without a new event (a live run's quiet ones
   * aside) before giving up with ConnectionError. Default 8.
   */
  maxReconnects?: number | undefined;
  /** Back-off of reconnects over empty connections; overrides the client's `reconnectDelay`. Defaults 200 ms, capped at 5 s. */
  reconnectDelay?: BackoffOptions | undefined;
  /** A message that is not a valid event: `"throw"` (default), `"deliver"` it as a StreamDecodeError item, or `"skip-and-warn"`. */
  onInvalid?: OnInvalid | undefined;
  /** Called before each reconnect, e.g. for logging. */
  onReconnect?: ((info: ReconnectInfo) => void) | undefined;
}

export interface ReconnectInfo {
  /** Reconnects since the last new event: 1 for the first (made at once when the connection before it delivered events). */
  attempt: number;
  lastSeq: number | undefined;
  delayMs: number;
  /** Why the previous connection ended. */
  reason: unknown;
  /** Whether this reconnect counts toward `maxReconnects` (a live run's quiet connection does not). */
  counted: boolean;
}
