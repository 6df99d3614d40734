/**
 * Errors of the fetch client. One subclass per status family, all built by
 * one factory (`MantyxApiError.generate`), so `instanceof RateLimitError`
 * and `error.status` / `error.code` switches both work.
 *
 * No error ever holds the credential: requests (and their headers) are not
 * kept, and any echo of the credential in a response body (values and keys)
 * or in the headers an error reads is redacted before it reaches a field.
 */
import type { ValidationIssue } from "../../generated/validators/runtime.js";

/** Response headers the errors read; a `Headers` object fits. */
export interface HeaderSource {
  get(name: string): string | null;
}

const MACHINE_CODE = /^[a-z][a-z0-9_.]*$/;

/** The code of a status when the body names none. */
function familyCode(status: number): string {
  switch (status) {
    case 400:
      return "invalid_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 429:
      return "rate_limited";
    default:
      return status >= 500 ? "server_error" : "http_error";
  }
}

/** `scope="a b"` of a `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` header. */
export function scopesFromWwwAuthenticate(header: string | null): string[] {
  if (header === null) return [];
  const m = /(?:^|[\s,])scope="([^"]*)"/i.exec(header);
  return m?.[1] === undefined ? [] : m[1].split(/\s+/).filter((s) => s !== "");
}

/** `Retry-After` in ms (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function redact<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") {
    let s: string = value;
    for (const secret of secrets) if (secret !== "") s = s.split(secret).join("[redacted]");
    return s as T;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets)) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redact(k, secrets)] = redact(v, secrets);
    return out as T;
  }
  return value;
}

export interface ApiErrorFields {
  status: number;
  /** Parsed JSON body (redacted), or the text when it was not JSON. */
  body: unknown;
  headers: HeaderSource;
  operationId: string;
  /** Strings to scrub from everything the error keeps (the credential). */
  secrets: readonly string[];
}

/** A non-2xx answer from the MANTYX API. */
export class MantyxApiError extends Error {
  override readonly name: string = "MantyxApiError";
  /** HTTP status. */
  readonly status: number;
  /**
   * Machine code: the body's `error` when it is one (`invalid_model`,
   * `run_terminal`, …), else the body's `code` (`api_keys_plan`), else one
   * derived from the status (`unauthorized`, `not_found`, `server_error`, …).
   */
  readonly code: string;
  /** The fix the server suggests (e.g. the right workspace slug). */
  readonly hint: string | undefined;
  /** Missing OAuth scopes, from the body's `required` and the `WWW-Authenticate` header. */
  readonly requiredScopes: string[];
  /** Model ids close to an unresolvable `modelId` (`invalid_model`). */
  readonly candidates: unknown[] | undefined;
  /** The `x-request-id` response header, for support. */
  readonly requestId: string | undefined;
  /** The operation that failed (`createRun`, …). */
  readonly operationId: string;
  /** The response body (JSON, or text), credential redacted. */
  readonly body: unknown;

  constructor(fields: ApiErrorFields) {
    const body = redact(fields.body, fields.secrets);
    // Headers can echo the credential too (a proxy's request id, a realm).
    const header = (name: string): string | null => redact(fields.headers.get(name), fields.secrets);
    const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const error = typeof b["error"] === "string" ? b["error"] : undefined;
    const bodyCode = typeof b["code"] === "string" ? b["code"] : undefined;
    const code = error !== undefined && MACHINE_CODE.test(error) ? error : (bodyCode ?? familyCode(fields.status));
    const hint = typeof b["hint"] === "string" ? b["hint"] : undefined;
    const required = b["required"];
    const scopes = [
      ...(typeof required === "string" ? [required] : Array.isArray(required) ? required.filter((s): s is string => typeof s === "string") : []),
      ...scopesFromWwwAuthenticate(header("www-authenticate")),
    ];
    const requiredScopes = [...new Set(scopes)];
    const human =
      typeof b["message"] === "string"
        ? b["message"]
        : error !== undefined && error !== code
          ? error
          : typeof body === "string" && body !== "" && body.length < 300
            ? body
            : undefined;
    let message = `${fields.operationId}: ${fields.status} ${code}${human !== undefined ? ` — ${human}` : ""}`;
    if (hint !== undefined) message += ` (hint: ${hint})`;
    if (requiredScopes.length > 0) message += ` (the credential needs scope ${requiredScopes.join(", ")})`;
    super(message);
    this.status = fields.status;
    this.code = code;
    this.hint = hint;
    this.requiredScopes = requiredScopes;
    this.candidates = Array.isArray(b["candidates"]) ? (b["candidates"] as unknown[]) : undefined;
    this.requestId = header("x-request-id") ?? undefined;
    this.operationId = fields.operationId;
    this.body = body;
  }

  /** The subclass for `status`. */
  static generate(fields: ApiErrorFields): MantyxApiError {
    const s = fields.status;
    if (s === 400) return new BadRequestError(fields);
    if (s === 401) return new AuthenticationError(fields);
    if (s === 403) return new PermissionDeniedError(fields);
    if (s === 404) return new NotFoundError(fields);
    if (s === 409) return new ConflictError(fields);
    if (s === 429) return new RateLimitError(fields);
    if (s >= 500) return new ServerError(fields);
    return new MantyxApiError(fields);
  }
}

/** 400: `invalid_request` (body failed validation) or `invalid_model` (see `candidates`). */
export class BadRequestError extends MantyxApiError {
  override readonly name = "BadRequestError";
}
/** 401: no credential, or an unknown, expired or revoked one. */
export class AuthenticationError extends MantyxApiError {
  override readonly name = "AuthenticationError";
}
/** 403: wrong key usage (`hint`), plan (`code`), or `insufficient_scope` (`requiredScopes`). */
export class PermissionDeniedError extends MantyxApiError {
  override readonly name = "PermissionDeniedError";
}
/** 404: unknown resource, or the workspace slug is not the credential's (`hint` names the right one). */
export class NotFoundError extends MantyxApiError {
  override readonly name = "NotFoundError";
}
/** 409: e.g. `run_terminal`. */
export class ConflictError extends MantyxApiError {
  override readonly name = "ConflictError";
}
/** 429: slow down. Retried automatically (with back-off) before it reaches you. */
export class RateLimitError extends MantyxApiError {
  override readonly name = "RateLimitError";
  /** The `Retry-After` header in ms, when sent. */
  readonly retryAfterMs: number | undefined;
  constructor(fields: ApiErrorFields) {
    super(fields);
    this.retryAfterMs = retryAfterMs(fields.headers.get("retry-after"));
  }
}
/** 5xx. Retried automatically for idempotent operations. */
export class ServerError extends MantyxApiError {
  override readonly name = "ServerError";
}

export function isMantyxApiError(e: unknown): e is MantyxApiError {
  if (e instanceof MantyxApiError) return true;
  const o = e as { status?: unknown; code?: unknown; operationId?: unknown } | null;
  return typeof o === "object" && o !== null && typeof o.status === "number" && typeof o.code === "string" && typeof o.operationId === "string";
}

/** A request body that fails the schema; nothing was sent. Lists every problem found. */
export class RequestValidationError extends Error {
  override readonly name = "RequestValidationError";
  readonly operationId: string;
  readonly issues: readonly ValidationIssue[];
  constructor(operationId: string, issues: readonly ValidationIssue[]) {
    const list = issues.map((i) => `  - ${i.instancePath === "" ? "(body)" : i.instancePath}: ${i.message}`).join("\n");
    super(
      `${operationId}: the request body does not match the schema, so it was not sent (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${list}\n` +
        `Fix the body, or pass validation: "warn" / "off" to send it anyway.`,
    );
    this.operationId = operationId;
    this.issues = issues;
  }
}

export function isRequestValidationError(e: unknown): e is RequestValidationError {
  return e instanceof RequestValidationError || (e as { name?: unknown } | null)?.name === "RequestValidationError";
}

/**
 * The server could not be reached, or a stream kept dropping: network
 * failure, connection reset, or reconnect attempts exhausted (`lastSeq` tells
 * where a later `streamRun(runId, { lastSeq })` can resume).
 */
export class MantyxConnectionError extends Error {
  override readonly name = "MantyxConnectionError";
  readonly operationId: string;
  readonly attempts: number;
  readonly lastSeq: number | undefined;
  constructor(operationId: string, message: string, options: { cause?: unknown; attempts: number; lastSeq?: number | undefined }) {
    super(`${operationId}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.operationId = operationId;
    this.attempts = options.attempts;
    this.lastSeq = options.lastSeq;
  }
}

/**
 * A 2xx answer the client cannot use: the stream route answered without
 * `text/event-stream` (a proxy or login page), or a JSON route sent a body
 * that is not JSON. Not retried: doing the same again gives the same answer.
 */
export class UnexpectedResponseError extends Error {
  override readonly name = "UnexpectedResponseError";
  readonly operationId: string;
  readonly status: number;
  readonly contentType: string | null;
  constructor(operationId: string, status: number, contentType: string | null, why: string) {
    super(`${operationId}: ${why} (status ${status}, content-type ${contentType ?? "none"}).`);
    this.operationId = operationId;
    this.status = status;
    this.contentType = contentType;
  }
}
