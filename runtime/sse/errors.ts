/**
 * Errors raised by the SSE decoder.
 *
 * Only resource limits are errors: the WHATWG event-stream rules never reject
 * input (malformed fields are ignored, invalid UTF-8 becomes U+FFFD), so the
 * single thing that can go wrong is a peer sending more than we agreed to buffer.
 * `type` is a string-literal union so new kinds can be added without breaking
 * callers that switch on it.
 */

/** Kinds of parse error. More may be added; switch with a default branch. */
export type SseParseErrorType = "max-event-bytes-exceeded";

export class SseParseError extends Error {
  override readonly name = "SseParseError";
  readonly type: SseParseErrorType;
  /** The configured limit in bytes (`maxEventBytes`). */
  readonly limit: number;
  /** How many bytes were buffered when the limit was crossed (> limit). */
  readonly size: number;
  /** What was being buffered: the fields of one event, or one line without a terminator yet. */
  readonly buffer: "event" | "line";

  constructor(type: SseParseErrorType, buffer: "event" | "line", limit: number, size: number) {
    const what =
      buffer === "event"
        ? `an SSE event grew to ${size} bytes of field lines`
        : `an unterminated SSE line grew to ${size} bytes`;
    super(
      `${what}, over the limit of ${limit} bytes (maxEventBytes). ` +
        `If the server legitimately sends events this large, raise the maxEventBytes option.`,
    );
    this.type = type;
    this.buffer = buffer;
    this.limit = limit;
    this.size = size;
  }
}

/**
 * True for an SseParseError. Also recognises one created by another copy of
 * this module (bundlers can duplicate it), hence the duck-typed fallback.
 */
export function isSseParseError(e: unknown): e is SseParseError {
  if (e instanceof SseParseError) return true;
  if (typeof e !== "object" || e === null) return false;
  const o = e as { name?: unknown; type?: unknown };
  return o.name === "SseParseError" && typeof o.type === "string";
}
