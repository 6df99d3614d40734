/**
 * How a MANTYX run ended, read from its terminal event (wire-protocol.md
 * §4.8, http-surface.md "older event shapes"). Which events are terminal
 * is the schema's (`x-terminal`, generated/events.ts); what they mean is here.
 *
 * - `result` ends the run. It is a success unless it is the older failure
 *   shape, `subtype: "error_…"` (e.g. `error_local_tool_timeout`), or says
 *   `ok: false`. A `result` with neither marker (the official SDKs' test
 *   servers send `{ "text": "ok" }`) is a success, as the documents say of
 *   a terminal `result` ("resolve the call"; only an `error` subtype
 *   throws), unless it carries an `error` message: then it failed
 *   (docs/schema-decisions.md, "A terminal result with neither marker").
 * - `error` ends the run with a failure.
 * - `cancelled` ends the run (`POST /cancel`, or a deleted session).
 */
import type { TerminalEvent } from "../generated/events.js";
import type { AgentRunEvent } from "../generated/types.js";

/** How a run ended. */
export type RunOutcome = "succeeded" | "failed" | "cancelled";

/** The outcome a terminal event reports; `undefined` for a non-terminal event. */
export function runOutcome(event: AgentRunEvent | { type: string; data?: unknown }): RunOutcome | undefined {
  switch (event.type) {
    case "result": {
      const data = event.data as { ok?: unknown; subtype?: unknown; error?: unknown } | undefined;
      if (data?.ok === false) return "failed";
      if (typeof data?.subtype === "string") return data.subtype.startsWith("error") ? "failed" : "succeeded";
      // Neither marker: a failure only when it says so with an error message.
      if (data?.ok === undefined && typeof data?.error === "string" && data.error !== "") return "failed";
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
