/**
 * MANTYX's details of an error answer (agent-runs §10, http-surface.md
 * "Errors"), read on demand from a `MantyxApiError`'s `body` and `headers`
 * (both already free of the credential): the rate-limit figures, the scopes
 * a token lacks, the model ids close to an unresolvable one. Functions, not
 * fields of the error, so a program that reads none bundles none: the error
 * class is protocol-neutral runtime, these are MANTYX facts.
 */
import type { ApiError as MantyxApiError } from "../runtime/client/errors.js";

/**
 * The `X-RateLimit-*` headers of an answer: the window's limit and what is
 * left of it as numbers (when they are), its reset and bucket as sent (a
 * server may give the reset as seconds, an epoch or a date).
 */
export interface RateLimit {
  limit: number | undefined;
  remaining: number | undefined;
  reset: string | undefined;
  bucket: string | undefined;
}

/** The `X-RateLimit-*` figures of the answer (a 429 carries them), or undefined when it sent none. */
export function rateLimitOf(error: MantyxApiError): RateLimit | undefined {
  const get = (name: string): string | undefined => error.headers.get(`x-ratelimit-${name}`)?.trim() || undefined;
  const count = (name: string): number | undefined => {
    const value = get(name);
    return value !== undefined && /^\d+$/.test(value) ? +value : undefined;
  };
  const figures: RateLimit = {
    limit: count("limit"),
    remaining: count("remaining"),
    reset: get("reset"),
    bucket: get("bucket"),
  };
  return Object.values(figures).some((v) => v !== undefined) ? figures : undefined;
}

/**
 * The OAuth scopes a 403 `insufficient_scope` says the token lacks: the
 * body's `required` (a scope, or a list when a route needs several) and the
 * `scope` of the `WWW-Authenticate` challenge (RFC 6750 §3), each once.
 */
export function requiredScopesOf(error: MantyxApiError): string[] {
  const required = (error.body as { required?: unknown } | null | undefined)?.required;
  const challenged = /\bscope="([^"]*)/i.exec(error.headers.get("www-authenticate") ?? "")?.[1]?.split(" ");
  return [...new Set([required, challenged].flat().filter((s): s is string => typeof s === "string" && s !== ""))];
}

/** The model ids an `invalid_model` answer offers instead of an unresolvable `modelId`, when it lists any. */
export function candidatesOf(error: MantyxApiError): unknown[] | undefined {
  const candidates = (error.body as { candidates?: unknown } | null | undefined)?.candidates;
  return Array.isArray(candidates) ? candidates : undefined;
}
