/**
 * The one error of the SSE decoder. The event-stream rules never reject
 * input (bad fields are ignored, invalid UTF-8 becomes U+FFFD): only
 * `maxEventBytes` can be exceeded, by an event's field lines or by one line
 * (without a terminator yet, or a comment).
 */

/** Kinds of parse error. More may be added; switch with a default branch. */
export type SseParseErrorType = "max-event-bytes-exceeded";

export class SseParseError extends Error {
  override readonly name = "SseParseError";
  readonly type: SseParseErrorType = "max-event-bytes-exceeded";
  /** What was over the limit: the field lines of one event, or one line (unterminated, or a comment). */
  declare readonly buffer: "event" | "line";
  /** The configured limit in bytes (`maxEventBytes`). */
  declare readonly limit: number;
  /** The bytes buffered when the limit was crossed (> limit). */
  declare readonly size: number;

  constructor(buffer: "event" | "line", limit: number, size: number) {
    super(`SSE ${buffer} over maxEventBytes: ${size} > ${limit}`);
    Object.assign(this, { buffer, limit, size });
  }
}

/** True for an SseParseError, also one from another copy of this module (bundlers can duplicate it). */
export function isSseParseError(e: unknown): e is SseParseError {
  return (
    e instanceof SseParseError ||
    ((e as SseParseError | null)?.name === "SseParseError" && typeof (e as SseParseError).type === "string")
  );
}
