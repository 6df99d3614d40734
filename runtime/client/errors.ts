/**
 * Errors of the fetch client: one class per kind of failure, each with its
 * `name` and a type guard. An HTTP error is one `ApiError` whatever its
 * status: switch on `status` or `code` (one subclass per status would cost
 * more bundle bytes than it gives).
 *
 * Protocol-neutral names, the same for every generated client: `ApiError`,
 * `ConnectionError`. (Carrying each client's brand in `name`, `AcmeApiError`,
 * was measured at 28 B gzip of every client bundle, over the 7 kB budget of
 * the validation-off MANTYX program; the MANTYX package keeps its names as
 * aliases of these classes, so `instanceof` and the guards are unchanged.)
 *
 * No error ever holds the credential: requests (and their headers) are not
 * kept, and the response text and headers an error reads are redacted before
 * anything is taken from them (core.ts).
 */
import type { ValidationIssue } from "../validation/issue.js";

/** Response headers as an error holds them: `get` answers with the credential redacted. A `Headers` object fits. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The base of the client's errors: `fields` become own properties (and a
 * `cause` among them also the standard one). Each subclass declares its fields.
 */
class ClientError extends Error {
  constructor(message: string, fields: object) {
    super(message, fields);
    Object.assign(this, fields);
  }
}

/** `Retry-After` in ms (delta-seconds or an HTTP date), or undefined. */
export const retryAfterMs = (h: string | null): number | undefined =>
  h == null ? undefined : Math.max(0, +h >= 0 ? +h * 1e3 : Date.parse(h) - Date.now()) || 0;

const CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
};

/** A non-2xx answer from the API. */
export class ApiError extends ClientError {
  override readonly name: string = "ApiError";
  /** HTTP status. */
  declare readonly status: number;
  /**
   * Machine code: the body's `error` when it is one (`invalid_model`,
   * `run_terminal`, …), else the body's `code` (`api_keys_plan`), else one
   * derived from the status (`invalid_request`, `unauthorized`, `forbidden`,
   * `not_found`, `conflict`, `rate_limited`, `server_error`, `http_error`).
   */
  declare readonly code: string;
  /** The fix the server suggests (e.g. the right workspace slug on a 404). */
  declare readonly hint: string | undefined;
  /** The `x-request-id` response header, for support. */
  declare readonly requestId: string | undefined;
  /** The `Retry-After` header in ms (429, 503), when sent. */
  declare readonly retryAfterMs: number | undefined;
  /** The operation that failed (`createRun`, …). */
  declare readonly operationId: string;
  /** The response body (parsed JSON, or the text), credential redacted. */
  declare readonly body: unknown;
  /**
   * The response headers, credential redacted. MANTYX's other details
   * (agent-runs §10) are read from `body` and these on demand, by the
   * helpers of the MANTYX package: `rateLimitOf`, `requiredScopesOf`,
   * `candidatesOf` (mantyx/api-errors.ts), so a program that reads none
   * bundles none.
   */
  declare readonly headers: HeaderSource;

  /** `body` and `headers` must already be free of the credential (the client redacts them). */
  constructor(operationId: string, status: number, body: unknown, headers: HeaderSource) {
    const b = (body || {}) as Record<string, unknown>;
    const str = (v: unknown): string | undefined => (typeof v == "string" ? v : undefined);
    const error = str(b["error"]);
    const code =
      (error && /^[a-z][a-z0-9_.]*$/.test(error) ? error : str(b["code"])) ??
      CODES[status] ??
      (status > 499 ? "server_error" : "http_error");
    const hint = str(b["hint"]);
    // (The scopes of a 403 as the body names them; `requiredScopesOf` adds WWW-Authenticate's.)
    const scopes = b["required"];
    const human = str(b["message"]) ?? (error != code ? error : str(body)?.slice(0, 300));
    super(
      `${operationId}: ${status} ${code}${human ? ` — ${human}` : ""}${hint ? ` (hint: ${hint})` : ""}${scopes ? ` (needs scope ${scopes})` : ""}`,
      {
        status,
        code,
        hint,
        requestId: headers.get("x-request-id") ?? undefined,
        retryAfterMs: retryAfterMs(headers.get("retry-after")),
        operationId,
        body,
        headers,
      },
    );
  }
}

/** True for an ApiError (whatever its brand), also one from another copy of this module. */
export function isApiError(e: unknown): e is ApiError {
  const o = e as ApiError | null;
  return (
    e instanceof ApiError ||
    (typeof o?.status == "number" && typeof o.code == "string" && typeof o.operationId == "string")
  );
}

/** A request body that fails the schema; nothing was sent. `issues` lists every problem found. */
export class RequestValidationError extends ClientError {
  override readonly name = "RequestValidationError";
  declare readonly operationId: string;
  declare readonly issues: readonly ValidationIssue[];
}

export function isRequestValidationError(e: unknown): e is RequestValidationError {
  return (e as Error | null)?.name == "RequestValidationError";
}

/**
 * The server could not be reached, or a stream kept dropping: network
 * failure, connection reset, or reconnect attempts exhausted (`lastSeq` tells
 * where a later `streamRun(runId, { lastSeq })` can resume). `cause` holds
 * the last underlying error.
 */
export class ConnectionError extends ClientError {
  override readonly name: string = "ConnectionError";
  declare readonly operationId: string;
  /** Attempts made (requests sent, or stream connections in a row without a new event). */
  declare readonly attempts: number;
  declare readonly lastSeq: number | undefined;
  /** An item stream's last event id, when it broke off after one (item-stream.ts): where `{ resume: true, lastEventId }` resumes. */
  declare readonly lastEventId?: string | undefined;
}

/** True for a ConnectionError (whatever its brand), also one from another copy of this module. */
export function isConnectionError(e: unknown): e is ConnectionError {
  return /ConnectionError$/.test((e as Error | null)?.name as string);
}

/**
 * A 2xx answer the client cannot use: the stream route answered without
 * `text/event-stream` (a proxy or login page), or a JSON route sent a body
 * that is not JSON. Not retried: doing the same again gives the same answer.
 */
export class UnexpectedResponseError extends ClientError {
  override readonly name = "UnexpectedResponseError";
  declare readonly operationId: string;
  declare readonly status: number;
  declare readonly contentType: string | null;
}

/** The UnexpectedResponseError of operation `id`'s 2xx `response`, which is not `what`; its content type redacted by `hide` (a server may echo the credential into any header). */
export function unexpectedResponse(
  id: string,
  response: Response,
  hide: (text: string) => string,
  what: string,
): UnexpectedResponseError {
  const raw = response.headers.get("content-type");
  const contentType = raw && hide(raw);
  return new UnexpectedResponseError(`${id}: ${response.status} ${contentType}, not ${what}`, {
    operationId: id,
    status: response.status,
    contentType,
  });
}

export function isUnexpectedResponseError(e: unknown): e is UnexpectedResponseError {
  return (e as Error | null)?.name == "UnexpectedResponseError";
}
