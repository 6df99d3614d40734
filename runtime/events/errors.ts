/**
 * The one failure of the event layer: an SSE message whose `data` is not a
 * valid event. Delivered in the stream or thrown, per `onInvalid`.
 */
import type { SseMessage } from "../sse/index.js";
import type { ValidationIssue } from "../validation/issue.js";

/** `invalid-json`: `data` is not JSON. `invalid-event`: JSON, but not a valid event of the stream. */
export type StreamDecodeErrorType = "invalid-json" | "invalid-event";

export class StreamDecodeError extends Error {
  override readonly name = "StreamDecodeError";
  declare readonly type: StreamDecodeErrorType;
  /** The SSE message as received (its `data` is the offending text). */
  declare readonly frame: SseMessage;
  /** Schema problems (`invalid-event`); empty for `invalid-json`. */
  declare readonly issues: readonly ValidationIssue[];
  /** The parsed JSON (`invalid-event`), for diagnostics; `undefined` for `invalid-json`. */
  declare readonly value: unknown;
  /** True when the malformed message still names a terminal type: the run is over, nothing follows it. */
  declare readonly terminal: boolean;

  constructor(type: StreamDecodeErrorType, frame: SseMessage, issues: readonly ValidationIssue[], cause?: unknown, value?: unknown, terminal = false) {
    super(`SSE message${frame.id && " " + frame.id} is ${type === "invalid-json" ? "not JSON" : `not a valid event: ${describeIssues(issues)}`} (see onInvalid)`, { cause });
    Object.assign(this, { type, frame, issues, value, terminal });
  }
}

/** True for a StreamDecodeError, also one from another copy of this module. */
export function isStreamDecodeError(e: unknown): e is StreamDecodeError {
  return e instanceof StreamDecodeError || ((e as Error | null)?.name === "StreamDecodeError" && typeof (e as StreamDecodeError).type === "string");
}

/** "/data must have required property 'text'; …" (the first three). */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.instancePath || "/"} ${i.message}`)
    .join("; ");
}
