/**
 * The one failure of the event layer: an SSE message whose `data` is not a
 * protocol event. Delivered in the stream or thrown, per `onInvalid`.
 */
import type { SseMessage } from "../sse/index.js";
import type { ValidationIssue } from "../../generated/validators/runtime.js";
import { isTerminalType } from "./terminal.js";

/** `invalid-json`: `data` is not JSON. `invalid-event`: JSON, but not an `AgentRunEvent`. */
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

  constructor(type: StreamDecodeErrorType, frame: SseMessage, issues: readonly ValidationIssue[], cause?: unknown, value?: unknown) {
    super(
      `SSE message${frame.id && " " + frame.id} is ${type === "invalid-json" ? "not JSON" : `not an AgentRunEvent: ${describeIssues(issues)}`} (see onInvalid)`,
      { cause },
    );
    Object.assign(this, { type, frame, issues, value });
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
