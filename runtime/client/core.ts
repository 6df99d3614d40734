/**
 * The hand-written HTTP core of generated clients. A generated client
 * describes each operation as data (method, path, body validators, and the
 * stream and at-most-once settings the schema states); `HttpClient` sends
 * one call of such an entry: URL and header building, credentials,
 * error mapping, retries, timeouts, redirects and redaction live here once.
 * What only some operations need (the resumable event stream, item streams,
 * pages, request-body checking, at-most-once outcomes) is an
 * `OperationKind` of its own module, passed in by the operation function or
 * method that needs it, so a
 * program bundles it only when it calls such an operation
 * (./operation-functions.ts; the all-in-one class is ./define.ts).
 * Protocol-neutral: every protocol fact comes from the table.
 *
 * Uses only `fetch`, `Headers`, `AbortSignal`, `setTimeout`: runs in Node 20+,
 * browsers, Deno, Bun and edge workers.
 */
import type { EventStreamSpec, StrictEventValidator, ValidationMode } from "../events/index.js";
import { ApiError, ConnectionError, unexpectedResponse } from "./errors.js";
import { backoff, linked, sleep, type BackoffOptions } from "./internal/backoff.js";
import { failureReason, platformHeaders, send } from "./internal/platform.js";
import { redactError, redactor, scrub, secretForms, type Redact } from "./internal/redact.js";
import type { BodyCheck } from "./request-check.js";
import type { ItemStreamMode } from "./item-stream.js";
import type { PagesSpec } from "./pages.js";
import type { StreamRunOptions } from "./stream-run.js";

export type { RunEventStream, StreamRunOptions } from "./stream-run.js";

/** Default `timeoutMs` of a request (the event stream aside): a stalled server fails a call within a minute. */
export const DEFAULT_TIMEOUT_MS = 60_000;

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
export type SecurityScheme = readonly ["bearer"] | readonly ["basic"] | readonly ["apiKey", "header" | "query" | "cookie", string];

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
export type CredentialSender = (operation: Operation, query: URLSearchParams, headers: Record<string, string>, need: (what: string) => OperationExtras) => void;

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
  params(spec: ParamsSpec, given: CallParams | undefined, query: URLSearchParams, headers: Record<string, string>): void;
  credential(scheme: SecurityScheme, credential: Credential, query: URLSearchParams, headers: Record<string, string>): void;
  /** A body of media type `media` (not JSON), as sent, and its content type (none for FormData and URLSearchParams, which set their own). */
  body(body: unknown, media: string): readonly [BodyInit, string?];
  /** A path parameter's value as its style writes it into the path, URL-encoded (`PathStyle`). */
  pathText(name: string, value: unknown, style: PathStyle): string;
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
export type OnceOutcome<Name extends string = string> = { status: "accepted"; httpStatus: number } | { status: Name; error: ApiError };

/** Opens one stream connection (resuming after `lastSeq` when defined): the 2xx response; throws what a request throws. */
export type StreamOpener = (lastSeq: number | undefined, signal: AbortSignal) => Promise<Response>;

/**
 * One call as an `OperationKind` sees it: the arguments sorted out, the
 * URL, and the client's request pipeline for this call.
 */
export interface CallContext {
  readonly client: HttpClient;
  /** The operation's name (its method's), for error messages. */
  readonly id: string;
  readonly operation: Operation;
  /** The arguments as the caller passed them. */
  readonly args: readonly unknown[];
  /** How many leading path arguments the call takes (path parameters not filled from a client option). */
  readonly pathArgs: number;
  /** Where the parameters object stands among the arguments (after the path arguments and the body). */
  readonly paramsIndex: number;
  readonly callOptions: (StreamRunOptions & Record<string, unknown>) | undefined;
  /** The client's options. */
  readonly settings: ClientOptions;
  /** The URL with its query string; throws a caller's mistake (a missing path value) as a TypeError. */
  url(): string;
  /** The call's parameter and credential headers. */
  readonly headers: Record<string, string>;
  /** Redaction of the client's credentials and of those in the call's headers; throws a TypeError when a call header is no valid header value. */
  hide(): Redact;
  /** Makes the call as a plain one (its body sent, one JSON answer), unchecked: what a kind that checks the body goes on with. */
  send(): Promise<unknown>;
  /** Sends the call's request as `send` does (retries, the timeout) and resolves with its 2xx response, unread. */
  respond(): Promise<Response>;
  /** Sends one request of this call without a body: `retry` -1 retries failures of an idempotent request, 0 none (429 is retried unless 0). */
  request(url: string, retry: number, signal: AbortSignal | undefined, accept: string, extra: Record<string, string>): Promise<Response>;
}

/**
 * How a call whose answer is more than one JSON value is made (a resumable
 * event stream, an item stream, pages: ./stream-run.ts, ./item-stream.ts,
 * ./pages.ts; ./once.ts makes an at-most-once call). Without one, a call
 * sends its body and reads one JSON answer (or an at-most-once outcome).
 */
export type OperationKind = (call: CallContext) => unknown;

/** How much of an error answer's body the client reads: 64 Ki characters (64 KiB of ASCII), which an error keeps at most. */
export const ERROR_BODY_LIMIT = 65_536;

/**
 * The start of an error answer's body as text: read until `ERROR_BODY_LIMIT`
 * characters have been decoded (so at most three times as many bytes, plus
 * the network chunk that crosses it), then let go, so a proxy's endless or
 * huge error page costs neither memory nor time; what came when the body
 * fails (the connection dropped: the status still says enough). A body cut
 * there is no JSON and is kept as text.
 */
async function bodyPrefix(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    // (No body: `reader!` throws, and the text stays empty. A failure keeps what came before it.)
    for (let chunk; text.length < ERROR_BODY_LIMIT && !(chunk = await reader!.read()).done; ) text += decoder.decode(chunk.value, { stream: true });
  } catch {}
  reader?.cancel().catch(() => {});
  return text.slice(0, ERROR_BODY_LIMIT);
}

/**
 * A failure of fetch (no answer, or one that broke off) as operation `id`'s
 * ConnectionError (with the client's `brand`): its message with the
 * platform's reason for it, redacted, since fetch's errors may quote a URL a
 * redirect named or the server's bytes, and so an echoed credential.
 */
const connectionError = (id: string, thrown: unknown, hide: Redact, attempts: number): ConnectionError => {
  const cause = redactError(thrown, hide);
  return new ConnectionError(hide(`${id}: ${(cause as Error)?.message}${failureReason(cause)}`), { operationId: id, cause, attempts });
};

/**
 * Sets each header of `set` on `headers`, and adds the credential of an
 * `authorization` or `x-api-key` one to `secrets` when given (a credential passed as a
 * plain header is redacted too; a bearer or basic one without its scheme
 * word). A value fetch would refuse is a TypeError
 * naming the header, not quoting the value (it may be a credential), after
 * `who` (the client's class name, or the operation of a call).
 */
function addHeaders(who: string, headers: Headers, set: Record<string, string> | undefined, secrets?: string[]): void {
  for (const name in set) {
    try {
      headers.set(name, set[name]!);
    } catch {
      throw new TypeError(`${who}: header ${JSON.stringify(name)}: invalid value (not shown)`);
    }
    if (secrets && /^(authorization|x-api-key)$/i.test(name)) secrets.push(...secretForms(headers.get(name)!.replace(/^(bearer|basic)\s+/i, "")));
  }
}

/**
 * One call of `operation` (named `id`) on `client` with the method's
 * arguments `args`, made as `kind` says (default: one JSON answer). What
 * generated operation functions and the methods of ./define.ts run. Set by
 * HttpClient's static block: the only way into a client's private `#call`
 * (a `let` only so that the class can set it; nothing else assigns it).
 */
export let callOperation: (client: HttpClient, id: string, operation: Operation, args: unknown[], kind?: OperationKind) => unknown;

/**
 * The client of generated code (codegen/v1 revision 7 on): the options, the
 * client's headers and `apiKey`, and the calls. Credentials by security
 * scheme come with a `CredentialSupport` when the generated client passes
 * one (`schemeCredentials`); `ClientBase` (./client-base.ts) is this class
 * as code generated for revisions 1 to 6 builds it, from the schemes.
 */
export class HttpClient {
  static {
    callOperation = (client, id, operation, args, kind) => client.#call(id, operation, args, kind);
  }

  /** The options as given (defaults are applied where they are read). */
  readonly #o: ClientOptions;
  /** Path parameters filled from an option (per call, else the client's) instead of an argument: parameter -> option name. */
  readonly #pathOptions: Readonly<Record<string, string>>;
  /** Identity, client headers and the credential. Private (`#`): never enumerable, never in `inspect` or JSON output. */
  readonly #headers: Headers;
  /** The credential in every form it may be echoed in (internal/redact.ts): what redaction removes. */
  readonly #secrets: string[] = [];
  /** Sends credentials by security scheme, when the client takes them. */
  readonly #credentials: CredentialSender | undefined;
  /**
   * `version` names the client in `User-Agent`; `pathOptions` maps path
   * parameters that come from an option (the MANTYX client: `workspaceSlug`
   * from `workspace`) to that option's name; `credentials` sends the
   * `credentials` option (without it, that option is not read); `brand` is
   * the generated client's class name less `Client` (none for the default
   * `ApiClient`, and from code of an older generator): its TypeErrors begin
   * with `<brand>Client` (`ApiClient` without one). Its errors are the
   * runtime's, with their neutral names (errors.ts).
   */
  constructor(options: ClientOptions, version: string, pathOptions: Readonly<Record<string, string>> = {}, credentials?: CredentialSupport, brand = "") {
    const { apiKey, userAgent, baseUrl } = options;
    const secrets = this.#secrets;
    const name = (brand || "Api") + "Client";
    this.#o = options;
    this.#pathOptions = pathOptions;
    this.#credentials = credentials?.(options.credentials ?? {}, secrets);
    if (!baseUrl || typeof (options.fetch ?? globalThis.fetch) != "function") throw new TypeError(name + ": pass baseUrl (and fetch)");
    // A mistyped URL fails here, not as a "connection error" on every call.
    // A relative one resolves as fetch resolves it in a browser: against the
    // document's base URL.
    const page = globalThis as { document?: { baseURI?: string }; location?: { href: string } };
    let base: URL;
    try {
      base = new URL(baseUrl, page.document?.baseURI ?? page.location?.href);
    } catch {
      throw new TypeError(`${name}: baseUrl ${JSON.stringify(baseUrl)} is not a URL`);
    }
    // fetch refuses such a URL, and its error would quote the password.
    if (base.username || base.password) throw new TypeError(name + ": baseUrl has a user name or password (not shown); pass apiKey");
    const headers = (this.#headers = new Headers(platformHeaders(version, userAgent)));
    addHeaders(name, headers, options.headers, secrets);
    if (apiKey !== undefined) {
      // fetch strips leading and trailing HTTP whitespace from header values,
      // so a key read with its newline is sent (and echoed back) without it:
      // that is the form to redact. A key fetch would refuse is refused here
      // without quoting it, since fetch's own error quotes the whole header.
      const key = apiKey.trim();
      if (/[\0\r\n]|[^\0-\xff]/.test(key)) throw new TypeError(name + ": apiKey is no valid header value (not shown)");
      if (options.credentialHeader == "x-api-key") headers.set("x-api-key", key);
      else headers.set("authorization", "Bearer " + key);
      secrets.push(...secretForms(key));
    }
  }

  #call(id: string, operation: Operation, args: unknown[], kind: OperationKind | undefined): unknown {
    const { method, path, body: check, takesBody, params, extras, pathStyles } = operation;
    const fromOption = this.#pathOptions;
    // Arguments: the path parameters not filled from an option, in path order; the body; the parameters object; the options.
    const pathArgs = (path.match(/\{[^}]+\}/g) ?? []).filter((p) => !(p.slice(1, -1) in fromOption)).length;
    const paramsIndex = pathArgs + (check || takesBody ? 1 : 0);
    const callOptions = args[paramsIndex + (params ? 1 : 0)] as CallContext["callOptions"];
    const settings = this.#o as ClientOptions & Record<string, unknown>;
    // The query string and headers of the call: its parameters, and the
    // credentials of the first non-empty security alternative the client
    // holds every credential of.
    // A value that cannot be sent (a parameter JSON cannot encode, an entry
    // without the extras its credential needs) is the caller's mistake, a
    // TypeError thrown where the call is awaited (by `url`), like a missing
    // path value: never synchronously, never retried.
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    let mistake: TypeError | undefined;
    const need = (what: string): OperationExtras => {
      if (!extras) throw Error(what + " needs operationExtras in the entry");
      return extras;
    };
    try {
      if (params) need("params").params(params, args[paramsIndex] as CallParams | undefined, query, headers);
      this.#credentials?.(operation, query, headers, need);
    } catch (cause) {
      mistake = new TypeError(`${id}: ${(cause as Error).message}`, { cause });
    }
    const search = "" + query;
    const url = (): string => {
      if (mistake) throw mistake;
      let nextArg = 0;
      return (
        settings.baseUrl.replace(/\/+$/, "") +
        path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const option = fromOption[name];
          const value = option === undefined ? args[nextArg++] : (callOptions?.[option] ?? settings[option]);
          if (value == null || value === "") throw new TypeError(`${id}: pass ${option === undefined ? name : `{ ${option} } to the client or the call`}`);
          const style = pathStyles?.[name];
          return style ? need("pathStyles").pathText(name, value, style) : encodeURIComponent(value as string);
        }) +
        (search && "?" + search)
      );
    };
    const body = check || takesBody ? args[paramsIndex - 1] : undefined;
    const hide = (): Redact => {
      // Redaction of the client's credentials, and of those this call sends in its own headers (a basic token) or a per-call header.
      const secrets = [...this.#secrets];
      addHeaders(id, new Headers(), { ...headers, ...callOptions?.headers }, secrets);
      return redactor(secrets);
    };
    /** The call's request, as a plain call sends it (retries, the timeout); `read` reads its answer within that timeout. */
    const respond = async <T>(read?: (response: Response) => Promise<T>): Promise<[Response, T?]> => {
      const attempts = [0];
      // The timeout covers the whole call (retries, and reading the answer): a
      // stalled server fails it instead of hanging it forever.
      const ms = callOptions?.timeoutMs ?? settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      // Not aborted when the work is done (only unhooked): aborting a finished fetch can reset its kept-alive connection.
      const deadline = linked(callOptions?.signal);
      const timer = ms > 0 && ms < 2 ** 31 && setTimeout(() => deadline.abort(new ConnectionError(`${id}: no complete answer within ${ms} ms (timeoutMs)`, { operationId: id, attempts: attempts[0] })), ms);
      try {
        const target = url();
        let encoded: readonly [BodyInit?, string?] = [];
        // A body JSON cannot encode (a BigInt, a cycle, nesting deeper than
        // the stack) is the caller's mistake, a TypeError; nothing is sent. A
        // body that is not JSON goes as given (./extras.ts).
        try {
          encoded = body === undefined ? [] : operation.bodyMedia ? extras!.body(body, operation.bodyMedia) : [JSON.stringify(body), "application/json"];
        } catch (cause) {
          throw new TypeError(`${id}: the body is not JSON-encodable (${(cause as Error).message})`, { cause });
        }
        let content: T | undefined;
        const response = await this.#request(
          id,
          method,
          target,
          operation.idempotent || method == "GET" || method == "DELETE" ? -1 : 1,
          callOptions,
          deadline.signal,
          operation.answer ? "*/*" : "application/json",
          headers,
          hide,
          encoded,
          attempts,
          async (r) => void (content = await read?.(r)),
        );
        return [response, content];
      } finally {
        clearTimeout(timer as ReturnType<typeof setTimeout>);
        deadline.unhook();
      }
    };
    const send = async (): Promise<unknown> => {
      const { answer } = operation;
      const [response, content] = await respond<string | Blob>((r) => (answer == "blob" ? r.blob() : r.text()));
      if (answer) return content;
      try {
        if (content) return JSON.parse(content as string);
      } catch {
        // (Not JSON: below.)
      }
      // Also no body at all where every success answer has one (a proxy's bare 202): unexpected, not `undefined`.
      if (!operation.emptyOk) throw unexpectedResponse(id, response, hide(), content ? "JSON" : "JSON (no body)");
    };
    return kind
      ? kind({
          client: this,
          id,
          operation,
          args,
          pathArgs,
          paramsIndex,
          callOptions,
          settings,
          url,
          headers,
          hide,
          send,
          respond: async () => (await respond())[0],
          request: (target, retry, signal, accept, extra) => this.#request(id, method, target, retry, callOptions, signal, accept, extra, hide),
        })
      : send();
  }

  /**
   * Sends a request; non-2xx answers become ApiError, network failures
   * ConnectionError (with the client's brand). Retries with back-off honouring `Retry-After`:
   * 429 always, 5xx and network failures when `retry` is -1 (idempotent),
   * none when it is 0 (the stream retries on its own). `attempts[0]` counts
   * the requests sent. `read` reads a 2xx answer's body: its failure (the
   * answer broke off: a reset, a malformed chunk) is a network failure, so
   * an idempotent request is sent again under the same policy. An error
   * answer's body is read up to `ERROR_BODY_LIMIT` characters, the rest never.
   */
  async #request(
    id: string,
    method: string,
    url: string,
    retry: number,
    callOptions: CallOptions | undefined,
    signal: AbortSignal | undefined,
    accept: string,
    extra: Record<string, string>,
    redaction: () => Redact,
    [payload, type]: readonly [BodyInit?, string?] = [],
    attempts = [0],
    read?: (response: Response) => Promise<void>,
  ): Promise<Response> {
    const { maxRetries = 2, retryDelay, fetch: fetchFn = fetch } = this.#o;
    // Built once, outside the retry loop: a header value fetch refuses is
    // the caller's mistake, thrown as the TypeError it is, never retried as
    // a network failure.
    const headers = new Headers(this.#headers);
    for (const set of [{ accept }, callOptions?.headers, extra, type && { "content-type": type }]) addHeaders(id, headers, set || {});
    // The call's redaction (its `extra` headers are the call's own, plus a resume point).
    const hide = redaction();
    // The headers with a credential that fetch would forward to the origin a redirect names (./internal/platform.ts).
    const carried: string[] = [];
    headers.forEach((value, name) => name != "authorization" && hide(value) != value && carried.push(name));
    for (let attempt = 1; ; attempt++) {
      attempts[0] = attempt;
      let response: Response | undefined;
      let error: ApiError | ConnectionError;
      try {
        response = await send(
          fetchFn,
          { url, method, headers, body: payload, signal },
          carried,
          () =>
            new ConnectionError(`${id}: a browser hides the redirect; not followed (${carried} would go along): use Authorization, or the final URL as baseUrl`, {
              operationId: id,
              attempts: attempt,
            }),
        );
        if (response.ok) {
          await read?.(response);
          return response;
        }
        // The typed error: the credential is redacted from the body text (also
        // in its JSON-escaped form, after normalising the JSON) and from every
        // header the error reads, before anything is taken from them. The body
        // may be gone (connection dropped): the status still says enough.
        const answered = response;
        const text = hide(await bodyPrefix(answered));
        let parsed: unknown = text;
        try {
          parsed = scrub(JSON.parse(text), hide);
        } catch {
          // Not JSON (a proxy's HTML page): keep the text.
        }
        error = new ApiError(id, answered.status, parsed, {
          get: (name) => {
            const value = answered.headers.get(name);
            return value && hide(value);
          },
        });
      } catch (thrown) {
        if (signal?.aborted) throw signal.reason;
        if (thrown instanceof ConnectionError) throw thrown;
        error = connectionError(id, thrown, hide, attempt);
        // (No answer, or one whose body broke off: the same failure.)
        response = undefined;
      }
      // 408 (the server timed the request out, RFC 9110 §15.5.9: it may be repeated) counts as a failure to be retried.
      const retriable = response?.status == 429 || (retry < 0 && (!response || response.status > 499 || response.status == 408));
      if (!retry || attempt > maxRetries || !retriable) throw error;
      await sleep(backoff(attempt, retryDelay, undefined, (error as ApiError).retryAfterMs), signal);
    }
  }
}
