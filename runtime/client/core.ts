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
import { ApiError, ConnectionError, unexpectedResponse } from "./errors.js";
import { backoff, linked, sleep } from "./internal/backoff.js";
import { failureReason, platformHeaders, send } from "./internal/platform.js";
import { redactError, redactor, scrub, secretForms, type Redact } from "./internal/redact.js";
import type {
  CallOptions,
  CallParams,
  ClientOptions,
  CredentialSender,
  CredentialSupport,
  Operation,
  OperationExtras,
  StreamRunOptions,
} from "./operation.js";

/** Default `timeoutMs` of a request (the event stream aside): a stalled server fails a call within a minute. */
export const DEFAULT_TIMEOUT_MS = 60_000;

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
  request(
    url: string,
    retry: number,
    signal: AbortSignal | undefined,
    accept: string,
    extra: Record<string, string>,
  ): Promise<Response>;
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
    for (
      let chunk: ReadableStreamReadResult<Uint8Array>;
      text.length < ERROR_BODY_LIMIT && !(chunk = await reader!.read()).done;
    )
      text += decoder.decode(chunk.value, { stream: true });
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
  return new ConnectionError(hide(`${id}: ${(cause as Error)?.message}${failureReason(cause)}`), {
    operationId: id,
    cause,
    attempts,
  });
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
    if (secrets && /^(authorization|x-api-key)$/i.test(name))
      secrets.push(...secretForms(headers.get(name)!.replace(/^(bearer|basic)\s+/i, "")));
  }
}

/**
 * One call of `operation` (named `id`) on `client` with the method's
 * arguments `args`, made as `kind` says (default: one JSON answer). What
 * generated operation functions and the methods of ./define.ts run. Set by
 * HttpClient's static block: the only way into a client's private `#call`
 * (a `let` only so that the class can set it; nothing else assigns it).
 */
export let callOperation: (
  client: HttpClient,
  id: string,
  operation: Operation,
  args: unknown[],
  kind?: OperationKind,
) => unknown;

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
  constructor(
    options: ClientOptions,
    version: string,
    pathOptions: Readonly<Record<string, string>> = {},
    credentials?: CredentialSupport,
    brand = "",
  ) {
    const { apiKey, userAgent, baseUrl } = options;
    const secrets = this.#secrets;
    const name = `${brand || "Api"}Client`;
    this.#o = options;
    this.#pathOptions = pathOptions;
    this.#credentials = credentials?.(options.credentials ?? {}, secrets);
    if (!baseUrl || typeof (options.fetch ?? globalThis.fetch) != "function")
      throw new TypeError(`${name}: pass baseUrl (and fetch)`);
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
    if (base.username || base.password)
      throw new TypeError(`${name}: baseUrl has a user name or password (not shown); pass apiKey`);
    const headers = (this.#headers = new Headers(platformHeaders(version, userAgent)));
    addHeaders(name, headers, options.headers, secrets);
    if (apiKey !== undefined) {
      // fetch strips leading and trailing HTTP whitespace from header values,
      // so a key read with its newline is sent (and echoed back) without it:
      // that is the form to redact. A key fetch would refuse is refused here
      // without quoting it, since fetch's own error quotes the whole header.
      const key = apiKey.trim();
      if (/[\0\r\n]|[^\0-\xff]/.test(key)) throw new TypeError(`${name}: apiKey is no valid header value (not shown)`);
      if (options.credentialHeader == "x-api-key") headers.set("x-api-key", key);
      else headers.set("authorization", `Bearer ${key}`);
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
      if (!extras) throw Error(`${what} needs operationExtras in the entry`);
      return extras;
    };
    try {
      if (params) need("params").params(params, args[paramsIndex] as CallParams | undefined, query, headers);
      this.#credentials?.(operation, query, headers, need);
    } catch (cause) {
      mistake = new TypeError(`${id}: ${(cause as Error).message}`, { cause });
    }
    const search = `${query}`;
    const url = (): string => {
      if (mistake) throw mistake;
      let nextArg = 0;
      return (
        settings.baseUrl.replace(/\/+$/, "") +
        path.replace(/\{([^}]+)\}/g, (_, name: string) => {
          const option = fromOption[name];
          const value = option === undefined ? args[nextArg++] : (callOptions?.[option] ?? settings[option]);
          if (value == null || value === "")
            throw new TypeError(
              `${id}: pass ${option === undefined ? name : `{ ${option} } to the client or the call`}`,
            );
          const style = pathStyles?.[name];
          return style ? need("pathStyles").pathText(name, value, style) : encodeURIComponent(value as string);
        }) +
        (search && `?${search}`)
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
      const timer =
        ms > 0 &&
        ms < 2 ** 31 &&
        setTimeout(
          () =>
            deadline.abort(
              new ConnectionError(`${id}: no complete answer within ${ms} ms (timeoutMs)`, {
                operationId: id,
                attempts: attempts[0],
              }),
            ),
          ms,
        );
      try {
        const target = url();
        let encoded: readonly [BodyInit?, string?] = [];
        // A body JSON cannot encode (a BigInt, a cycle, nesting deeper than
        // the stack) is the caller's mistake, a TypeError; nothing is sent. A
        // body that is not JSON goes as given (./extras.ts).
        try {
          encoded =
            body === undefined
              ? []
              : operation.bodyMedia
                ? extras!.body(body, operation.bodyMedia)
                : [JSON.stringify(body), "application/json"];
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
          request: (target, retry, signal, accept, extra) =>
            this.#request(id, method, target, retry, callOptions, signal, accept, extra, hide),
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
    for (const set of [{ accept }, callOptions?.headers, extra, type && { "content-type": type }])
      addHeaders(id, headers, set || {});
    // The call's redaction (its `extra` headers are the call's own, plus a resume point).
    const hide = redaction();
    // The headers with a credential that fetch would forward to the origin a redirect names (./internal/platform.ts).
    const carried: string[] = [];
    headers.forEach((value, name) => {
      if (name != "authorization" && hide(value) != value) carried.push(name);
    });
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
            new ConnectionError(
              `${id}: a browser hides the redirect; not followed (${carried} would go along): use Authorization, or the final URL as baseUrl`,
              {
                operationId: id,
                attempts: attempt,
              },
            ),
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
      const retriable =
        response?.status == 429 || (retry < 0 && (!response || response.status > 499 || response.status == 408));
      if (!retry || attempt > maxRetries || !retriable) throw error;
      await sleep(backoff(attempt, retryDelay, undefined, (error as ApiError).retryAfterMs), signal);
    }
  }
}
