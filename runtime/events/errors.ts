/**
 * The one failure of the event layer: an SSE message whose `data` is not a
 * valid event. Delivered in the stream or thrown, per `onInvalid`.
 */
import type { SseMessage } from "../sse/index.js";
import type { ValidationIssue } from "../validation/issue.js";
import type { FrameShape } from "./frame-shape.js";

/**
 * `invalid-json`: `data` is not JSON. `invalid-event`: JSON, but not a valid
 * event of the stream (at the level its spec checks: the receive level for
 * generated specs). `strict-only`: a valid event that breaks a strict-level
 * rule: one the receive level reads anyway and reports (a documented rule
 * real servers break, `x-tolerated`: the issue names its section), or one
 * of the strict validator the program opted into (`strict`); it is
 * delivered, and this only goes to `onWarning`.
 */
export type StreamDecodeErrorType = "invalid-json" | "invalid-event" | "strict-only";

const WHAT: Readonly<Record<StreamDecodeErrorType, string>> = {
  "invalid-json": "is not JSON",
  "invalid-event": "is not a valid event",
  "strict-only": "is a valid event that breaks a strict-level rule",
};

export class StreamDecodeError extends Error {
  override readonly name = "StreamDecodeError";
  declare readonly type: StreamDecodeErrorType;
  /** The SSE message as received (its `data` is the offending text). */
  declare readonly frame: SseMessage;
  /** Schema problems (`invalid-event`); empty for `invalid-json`. */
  declare readonly issues: readonly ValidationIssue[];
  /** The event read from the frame (as the envelope, whatever shape it came in), for diagnostics; `undefined` for `invalid-json` (and, from the client's stream, for one nested too deep to redact). */
  declare readonly value: unknown;
  /** True when the malformed message still names a terminal type: the run is over, nothing follows it. */
  declare readonly terminal: boolean;
  /** The frame shape `data` came in (`envelope` or `flat`); `undefined` for `invalid-json`. */
  declare readonly shape: FrameShape | undefined;

  constructor(
    type: StreamDecodeErrorType,
    frame: SseMessage,
    issues: readonly ValidationIssue[],
    cause?: unknown,
    value?: unknown,
    terminal = false,
    shape?: FrameShape,
  ) {
    super(
      `SSE message${frame.id && ` ${frame.id}`} ${WHAT[type]}${type === "invalid-json" ? "" : `: ${describeIssues(issues)}`} (${type === "strict-only" ? "delivered" : "see onInvalid"})`,
      { cause },
    );
    Object.assign(this, { type, frame, issues, value, terminal, shape });
  }
}

/** True for a StreamDecodeError, also one from another copy of this module. */
export function isStreamDecodeError(e: unknown): e is StreamDecodeError {
  return (
    e instanceof StreamDecodeError ||
    ((e as Error | null)?.name === "StreamDecodeError" && typeof (e as StreamDecodeError).type === "string")
  );
}

/** "/data must have required property 'text'; …" (the first three). */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.instancePath || "/"} ${i.message}`)
    .join("; ");
}
