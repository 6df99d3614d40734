/**
 * The one failure of the event layer: an SSE message whose `data` is not a
 * protocol event. Delivered in the stream or thrown, per `onInvalid`.
 */
import type { SseMessage } from "../sse/index.js";
import type { ValidationIssue } from "../../generated/validators/runtime.js";
import type { FrameShape } from "./frame-shape.js";
import { isTerminalType } from "./terminal.js";

/**
 * `invalid-json`: `data` is not JSON. `invalid-event`: JSON, but not an
 * `AgentRunEvent` at the receive level. `strict-only`: a valid event that
 * breaks a strict-level rule; only reported (to `onWarning`) when strict
 * checking is on, and the event is delivered.
 */
export type StreamDecodeErrorType = "invalid-json" | "invalid-event" | "strict-only";

const MESSAGES: Readonly<Record<StreamDecodeErrorType, string>> = {
  "invalid-json": "is not JSON",
  "invalid-event": "is not an AgentRunEvent",
  "strict-only": "is an AgentRunEvent that breaks a strict-level rule",
};

export class StreamDecodeError extends Error {
  override readonly name = "StreamDecodeError";
  declare readonly type: StreamDecodeErrorType;
  /** The SSE message as received (its `data` is the offending text). */
  declare readonly frame: SseMessage;
  /** Schema problems (`invalid-event`); empty for `invalid-json`. */
  declare readonly issues: readonly ValidationIssue[];
  /** The event read from the frame, as the envelope (`invalid-event`, `strict-only`), for diagnostics; `undefined` for `invalid-json`. */
  declare readonly value: unknown;
  /** The frame shape `data` came in (`envelope` or `flat`); `undefined` for `invalid-json`. */
  declare readonly shape: FrameShape | undefined;

  constructor(type: StreamDecodeErrorType, frame: SseMessage, issues: readonly ValidationIssue[], cause?: unknown, value?: unknown, shape?: FrameShape) {
    super(
      `SSE message${frame.id && " " + frame.id} ${MESSAGES[type]}${type === "invalid-json" ? "" : `: ${describeIssues(issues)}`} (${type === "strict-only" ? "delivered; strict checking is on" : "see onInvalid"})`,
      { cause },
    );
    Object.assign(this, { type, frame, issues, value, shape });
  }

  /** True when the malformed message still names a terminal type (`result`, `error`, `cancelled`): the run is over. */
  get terminal(): boolean {
    return isTerminalType((this.value as { type?: unknown } | null | undefined)?.type);
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
