/**
 * What differs between the protocol's editions on the mock's wire, from the
 * documents (../shared/spec): the October 2026 agent-runs document and
 * wire-protocol.md (`2026-10`), the seed wire-protocol.md (`2026-09`), and
 * the older companion http-surface.md restates (`older`). The schema
 * accepts all of them (each difference is a `description` there); which
 * one a server sends is not something the schema can say, so it is stated
 * here, once.
 */
export type Edition = "2026-10" | "2026-09" | "older";

export const EDITIONS: readonly Edition[] = ["2026-10", "2026-09", "older"];

export interface EditionShapes {
  /** `POST /agent-runs` and session messages: agent-runs §5 (2026-10) and the companion say 202, wire-protocol.md's diagram 201 (seed and October editions; the mock's 2026-10 follows agent-runs). */
  readonly runCreated: 201 | 202;
  /** An accepted tool result: 200 (agent-runs §8 of 2026-10, the companion), 204 (wire-protocol.md §5, seed and October editions; the mock's 2026-10 follows agent-runs). */
  readonly toolResultAccepted: 200 | 204;
  /** A tool result after cancellation: 200, ignored (2026-10 §9, the companion), or 409 `run_terminal` (seed). */
  readonly toolResultAfterCancel: 200 | 409;
  /**
   * A tool result after the run ended by itself: 409 `run_terminal` (newer), or
   * 200 and ignored: the older companion says that of a result after
   * cancellation, and the mock's `older` edition extends it to any ended run
   * (for a run that ended by itself that companion names 404 `unknown_tool_use`
   * and 409 `run_terminal`, http-surface.md "Smaller inconsistencies").
   */
  readonly toolResultAfterEnd: 200 | 409;
  /** The marker of a successful terminal `result`: `subtype: "success"` (2026-10, the companion) or `ok: true` (seed). */
  readonly success: { readonly subtype: "success" } | { readonly ok: true };
  /** `cancelled` data: `{}` (2026-10 §7 example, the companion) or `{ reason: "user" }` (seed). */
  readonly cancelledData: Readonly<Record<string, string>>;
  /** A run that failed on a local-tool timeout: an `error` event with `errorClass` (newer) or a `result` with `subtype: "error_local_tool_timeout"` (companion). */
  readonly timeoutAsErrorEvent: boolean;
  /** The older shapes' `started` event opens each run. */
  readonly startedEvent: boolean;
  /** Terminal `result` and `error` carry `structuredOutput` (wire-protocol.md §4.8, October 2026: "new servers emit" it, with or without `outputSchema`). */
  readonly structuredOutput: boolean;
  /** `local_tool_result_in` lists the posted `files` as metadata, `{ filename, mimeType, sizeBytes }` (agent-runs §7, October 2026). */
  readonly mirroredFiles: boolean;
  /** The body of a Developer API `429`: `code: "rate_limit_exceeded"`, also the body's machine code (agent-runs §10, October 2026), or the older companion's `rate_limited`. */
  readonly rateLimited: Readonly<Record<string, string>>;
  /** A `429` carries `X-RateLimit-Limit`, `-Remaining`, `-Reset` and `-Bucket` (agent-runs §10, October 2026; the bucket names are the mock's, the document gives none). */
  readonly rateLimitHeaders: boolean;
}

const SHAPES: Record<Edition, EditionShapes> = {
  "2026-10": {
    runCreated: 202,
    toolResultAccepted: 200,
    toolResultAfterCancel: 200,
    toolResultAfterEnd: 409,
    success: { subtype: "success" },
    cancelledData: {},
    timeoutAsErrorEvent: true,
    startedEvent: false,
    structuredOutput: true,
    mirroredFiles: true,
    rateLimited: {
      error: "rate_limit_exceeded",
      code: "rate_limit_exceeded",
      message: "Rate limit exceeded; retry after Retry-After.",
    },
    rateLimitHeaders: true,
  },
  "2026-09": {
    runCreated: 201,
    toolResultAccepted: 204,
    toolResultAfterCancel: 409,
    toolResultAfterEnd: 409,
    success: { ok: true },
    cancelledData: { reason: "user" },
    timeoutAsErrorEvent: true,
    startedEvent: false,
    structuredOutput: false,
    mirroredFiles: false,
    rateLimited: { error: "rate_limited" },
    rateLimitHeaders: false,
  },
  older: {
    runCreated: 202,
    toolResultAccepted: 200,
    toolResultAfterCancel: 200,
    toolResultAfterEnd: 200,
    success: { subtype: "success" },
    cancelledData: {},
    timeoutAsErrorEvent: false,
    startedEvent: true,
    structuredOutput: false,
    mirroredFiles: false,
    rateLimited: { error: "rate_limited" },
    rateLimitHeaders: false,
  },
};

export function editionShapes(edition: Edition): EditionShapes {
  return SHAPES[edition];
}

export function isEdition(value: unknown): value is Edition {
  return typeof value === "string" && (EDITIONS as readonly string[]).includes(value);
}
