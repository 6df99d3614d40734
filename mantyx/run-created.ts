/**
 * The `createRun` answer as `runAgent` needs it: an object whose `runId` is
 * a non-empty string (agent-runs §5: `{ runId, streamUrl }`). Answers are
 * read tolerantly (the client does not check them against the schema), so a
 * proxy or a broken server can hand back `null`, `{}` or a `runId` of another
 * type; without a run id there is no stream to read and no run to cancel, so
 * the helper stops with this typed error instead of a TypeError from deep
 * inside. The message describes the answer's shape only, never its values:
 * a server may echo the credential into anything it sends.
 */

/** What was wrong with the answer: not a JSON object at all, or an object without a usable `runId`. */
export type RunCreatedErrorType = "not-an-object" | "no-run-id";

export class RunCreatedError extends Error {
  override readonly name = "RunCreatedError";
  readonly type: RunCreatedErrorType;
  /** The operation whose answer it was. */
  readonly operationId = "createRun";

  constructor(type: RunCreatedErrorType, message: string) {
    super(message);
    this.type = type;
  }
}

/** True for a RunCreatedError, also one from another copy of this module. */
export function isRunCreatedError(e: unknown): e is RunCreatedError {
  return e instanceof RunCreatedError || (e as { name?: unknown } | null)?.name === "RunCreatedError";
}

const FIX =
  "The server (or a proxy in front of it) did not answer as agent-runs §5 says: check the client's baseUrl and workspace, and that nothing between rewrites the answer.";

/** The kind of JSON value `v` is, for a message that must not quote it. */
function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** The run id of a `createRun` answer; throws RunCreatedError when there is none to use. */
export function runIdOf(answer: unknown): string {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw new RunCreatedError(
      "not-an-object",
      `createRun answered ${kindOf(answer)}, not an object with a runId. ${FIX}`,
    );
  }
  const runId = (answer as { runId?: unknown }).runId;
  if (typeof runId !== "string" || runId === "") {
    const what =
      runId === undefined
        ? "has no runId"
        : runId === ""
          ? "has an empty runId"
          : `has a runId that is ${kindOf(runId)}, not a string`;
    throw new RunCreatedError("no-run-id", `createRun answered an object that ${what}. ${FIX}`);
  }
  return runId;
}
