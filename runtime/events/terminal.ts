/**
 * Which events end a run, and how (wire-protocol.md §4.8, http-surface.md
 * "older event shapes"). The only place that knows these rules.
 *
 * - `result` ends the run. It is a success unless it is the older failure
 *   shape, `subtype: "error_…"` (e.g. `error_local_tool_timeout`), or says
 *   `ok: false`.
 * - `error` ends the run with a failure.
 * - `cancelled` ends the run (`POST /cancel`, or a deleted session).
 */
import type { AgentRunEvent, CancelledEvent, ErrorEvent, ResultEvent } from "../../generated/types.js";

export type TerminalEvent = ResultEvent | ErrorEvent | CancelledEvent;

/** How a run ended. */
export type RunOutcome = "succeeded" | "failed" | "cancelled";

/** True for `result`, `error` and `cancelled`: the server sends nothing after it and closes the stream. */
export function isTerminalEvent(event: AgentRunEvent | { type: string }): event is TerminalEvent {
  return isTerminalType(event.type);
}

/** @internal `result`, `error` or `cancelled`. */
export function isTerminalType(t: unknown): boolean {
  return t === "result" || t === "error" || t === "cancelled";
}

/** The outcome a terminal event reports; `undefined` for a non-terminal event. */
export function runOutcome(event: AgentRunEvent | { type: string; data?: unknown }): RunOutcome | undefined {
  switch (event.type) {
    case "result": {
      const data = event.data as { ok?: unknown; subtype?: unknown } | undefined;
      if (data?.ok === false) return "failed";
      if (typeof data?.subtype === "string" && data.subtype.startsWith("error")) return "failed";
      return "succeeded";
    }
    case "error":
      return "failed";
    case "cancelled":
      return "cancelled";
    default:
      return undefined;
  }
}

/** The failure message of a failed terminal event (`error` data, or an older `result` with `subtype: "error_…"`). */
export function failureMessage(event: TerminalEvent): string | undefined {
  if (runOutcome(event) !== "failed") return undefined;
  const data = event.data as { error?: unknown; subtype?: unknown };
  if (typeof data.error === "string") return data.error;
  return typeof data.subtype === "string" ? data.subtype : "the run failed";
}
