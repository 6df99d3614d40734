/**
 * The one failure of the event layer: an SSE message whose `data` is not a
 * protocol event. Delivered in the stream or thrown, per `onInvalid`.
 */
import type { SseMessage } from "../sse/index.js";
import type { ValidationIssue } from "../../generated/validators/runtime.js";

/** `invalid-json`: `data` is not JSON. `invalid-event`: JSON, but not an `AgentRunEvent`. */
export type StreamDecodeErrorType = "invalid-json" | "invalid-event";

export class StreamDecodeError extends Error {
  override readonly name = "StreamDecodeError";
  readonly type: StreamDecodeErrorType;
  /** The SSE message as received (its `data` is the offending text). */
  readonly frame: SseMessage;
  /** Schema problems (`invalid-event`); empty for `invalid-json`. */
  readonly issues: readonly ValidationIssue[];
  /** The parsed JSON (`invalid-event`), for diagnostics; `undefined` for `invalid-json`. */
  readonly value: unknown;

  constructor(type: StreamDecodeErrorType, frame: SseMessage, issues: readonly ValidationIssue[], cause?: unknown, value?: unknown) {
    const where = frame.id === "" ? "" : ` (SSE id ${frame.id})`;
    const what =
      type === "invalid-json"
        ? `an SSE message${where} whose data is not JSON`
        : `an SSE message${where} whose data is not a valid AgentRunEvent: ${describeIssues(issues)}`;
    super(
      `Received ${what}. The server or a proxy sent a malformed frame; ` +
        `pass onInvalid: "deliver" or "skip-and-warn" to keep reading past it.`,
      cause === undefined ? undefined : { cause },
    );
    this.type = type;
    this.frame = frame;
    this.issues = issues;
    this.value = value;
  }

  /** True when the malformed message still names a terminal type (`result`, `error`, `cancelled`): the run is over. */
  get terminal(): boolean {
    const t = (this.value as { type?: unknown } | null | undefined)?.type;
    return t === "result" || t === "error" || t === "cancelled";
  }
}

/** True for a StreamDecodeError, also one from another copy of this module. */
export function isStreamDecodeError(e: unknown): e is StreamDecodeError {
  if (e instanceof StreamDecodeError) return true;
  const o = e as { name?: unknown; type?: unknown } | null;
  return typeof o === "object" && o !== null && o.name === "StreamDecodeError" && typeof o.type === "string";
}

/** "/data must have required property 'text'; …" (at most three). */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  if (issues.length === 0) return "no details";
  const shown = issues.slice(0, 3).map((i) => `${i.instancePath === "" ? "(root)" : i.instancePath} ${i.message}`);
  return shown.join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");
}
