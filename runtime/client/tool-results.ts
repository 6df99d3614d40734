/**
 * `postToolResult` outcomes (wire-protocol.md §5, §10, §13).
 *
 * The documented normal endings of a tool-result POST are values, not
 * exceptions: accepted (204, or 200 from older servers — which also answer
 * 200 for a result after cancellation), `404 unknown_tool_use` (already
 * answered, unknown id, or — older servers — a run that ended) and
 * `409 run_terminal` (the run finished or the tool timed out). Anything else
 * (401, 403, a 404 for a wrong workspace, …) is thrown as MantyxApiError.
 *
 * At most one POST per `toolUseId`: the ledger keeps each POST's outcome
 * (per client, workspace and run), and a second call for the same id returns
 * the first outcome without posting. A POST that failed (thrown error,
 * nothing decided) is forgotten, so it can be retried; if the first one did
 * reach the server, the retry gets `unknown_tool_use`, a normal outcome.
 */
import type { ToolResultRequest } from "../../generated/types.js";
import type { CallOptions, ClientCore, OperationInfo } from "./core.js";
import { isMantyxApiError, UnexpectedResponseError, type MantyxApiError } from "./errors.js";

export type ToolResultOutcome =
  /** The runner got it (204; 200 from older servers). */
  | { status: "accepted"; httpStatus: number }
  /** 404 `unknown_tool_use`: already answered, or no pending call with that id. */
  | { status: "unknown_tool_use"; error: MantyxApiError }
  /** 409 `run_terminal`: the run already ended; the result was dropped. */
  | { status: "run_terminal"; error: MantyxApiError };

/** How many outcomes a client remembers (oldest forgotten first). */
const LEDGER_LIMIT = 10_000;

export class ToolResultLedger {
  private readonly entries = new Map<string, Promise<ToolResultOutcome>>();

  /** The outcome of the first POST for `key`, running `post` only if there was none. */
  once(key: string, post: () => Promise<ToolResultOutcome>): Promise<ToolResultOutcome> {
    const known = this.entries.get(key);
    if (known !== undefined) return known;
    const p = post();
    this.entries.set(key, p);
    if (this.entries.size > LEDGER_LIMIT) this.entries.delete(this.entries.keys().next().value as string);
    p.catch(() => {
      if (this.entries.get(key) === p) this.entries.delete(key);
    });
    return p;
  }

  /** Forget a run's entries (e.g. once it has ended). */
  forgetRun(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

export function ledgerKey(workspace: string | undefined, runId: string, toolUseId?: string): string {
  return `${workspace ?? ""}\u0000${runId}\u0000${toolUseId ?? ""}`;
}

export async function postToolResultOnce(
  core: ClientCore,
  ledger: ToolResultLedger,
  op: OperationInfo,
  runId: string,
  body: ToolResultRequest,
  options?: CallOptions,
): Promise<ToolResultOutcome> {
  // Validate first: an invalid body is never posted, so never recorded.
  core.checkRequest(op, body);
  const key = ledgerKey(options?.workspace ?? core.workspace, runId, typeof body?.toolUseId === "string" ? body.toolUseId : "");
  return ledger.once(key, async () => {
    try {
      const r = await core.request<unknown>({ ...op, body: undefined }, { path: { runId }, body }, options);
      return { status: "accepted", httpStatus: r.status };
    } catch (error) {
      // A 2xx is the acceptance whatever its body (older servers answer 200, maybe with text).
      if (error instanceof UnexpectedResponseError && error.status >= 200 && error.status < 300) return { status: "accepted", httpStatus: error.status };
      if (isMantyxApiError(error)) {
        if (error.status === 409) return { status: "run_terminal", error };
        if (error.status === 404 && error.code === "unknown_tool_use") return { status: "unknown_tool_use", error };
      }
      throw error;
    }
  });
}
