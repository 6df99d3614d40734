/**
 * `outputSchema` runs (wire-protocol.md §7, §13): the terminal `result`
 * carries the reply as `data.text`, JSON matching the schema — almost always.
 * Transient model failures can still produce text that does not parse, so
 * the reply is parsed and re-validated against the caller's own validator,
 * and every failure is a typed OutputParseError.
 *
 * A truncated run ends with an `error` event whose `partialText` holds the
 * bytes the model emitted: exposed on the error as a diagnostic, never
 * returned as the answer.
 */
import { isTerminalEvent } from "../generated/events.js";
import type { AgentRunEvent } from "../generated/types.js";
import { failureMessage, runOutcome } from "./outcome.js";

export type OutputParseErrorType = "not-json" | "schema-mismatch" | "run-failed";

export class OutputParseError extends Error {
  override readonly name = "OutputParseError";
  readonly type: OutputParseErrorType;
  /** The reply text (`not-json`, `schema-mismatch`). */
  readonly text: string | undefined;
  /** Salvaged partial output of a failed run (e.g. truncation). Diagnostic only: likely incomplete JSON. */
  readonly partialText: string | undefined;
  /** What the validator reported (`schema-mismatch`): its `errors`, or a safeParse error. */
  readonly issues: unknown;
  /** The terminal event examined. */
  readonly event: AgentRunEvent;

  constructor(
    type: OutputParseErrorType,
    message: string,
    event: AgentRunEvent,
    extra: { text?: string; partialText?: string; issues?: unknown; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.type = type;
    this.event = event;
    this.text = extra.text;
    this.partialText = extra.partialText;
    this.issues = extra.issues;
  }
}

export function isOutputParseError(e: unknown): e is OutputParseError {
  return e instanceof OutputParseError || (e as { name?: unknown } | null)?.name === "OutputParseError";
}

/** A type guard (a generated validator, ajv, …), optionally with `errors`; or a Zod-style `safeParse`. */
export type OutputValidator<T> =
  | (((value: unknown) => value is T) & { errors?: unknown })
  | (((value: unknown) => boolean) & { errors?: unknown })
  | { safeParse(value: unknown): { success: boolean; data?: T; error?: unknown } };

/**
 * The structured reply of a finished run: `JSON.parse(result.data.text)`,
 * checked by `validate` when given. Throws OutputParseError:
 * `run-failed` (the run failed or was cancelled; `partialText` set for a
 * truncation), `not-json`, or `schema-mismatch` (`issues` holds why).
 */
export function parseStructuredOutput<T = unknown>(terminal: AgentRunEvent, validate?: OutputValidator<T>): T {
  if (!isTerminalEvent(terminal)) {
    throw new OutputParseError(
      "run-failed",
      `parseStructuredOutput needs the run's terminal event (result, error or cancelled), got ${JSON.stringify(terminal.type)}.`,
      terminal,
    );
  }
  const outcome = runOutcome(terminal);
  if (outcome !== "succeeded") {
    const data = terminal.data as { partialText?: unknown };
    const partialText = typeof data.partialText === "string" ? data.partialText : undefined;
    const why = outcome === "cancelled" ? "the run was cancelled" : `the run failed: ${failureMessage(terminal)}`;
    throw new OutputParseError(
      "run-failed",
      `No structured output: ${why}.${partialText !== undefined ? " The partial output is on error.partialText (diagnostic only: likely incomplete JSON)." : ""}`,
      terminal,
      partialText === undefined ? {} : { partialText },
    );
  }
  const text = (terminal.data as { text?: unknown }).text;
  if (typeof text !== "string")
    throw new OutputParseError("not-json", "The run succeeded without a text reply to parse.", terminal);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new OutputParseError(
      "not-json",
      `The run's reply is not JSON (${(cause as Error).message}); the model may have answered in prose.`,
      terminal,
      { text, cause },
    );
  }
  if (validate === undefined) return value as T;
  if (typeof validate === "function") {
    if (validate(value)) return value as T;
    throw new OutputParseError(
      "schema-mismatch",
      "The run's reply is JSON but does not match your schema; see error.issues.",
      terminal,
      { text, issues: validate.errors },
    );
  }
  const r = validate.safeParse(value);
  if (r.success) return r.data as T;
  throw new OutputParseError(
    "schema-mismatch",
    "The run's reply is JSON but does not match your schema; see error.issues.",
    terminal,
    { text, issues: r.error },
  );
}
