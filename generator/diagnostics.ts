/**
 * What `gen` reports beside its output without failing: an opt-in emitter
 * skipped (info), a construct the generator cannot represent and degraded
 * to `unknown` or left out (warning). Emitters never print; these are
 * computed from the model by the same predicates the emitters decide with
 * (emit/diagnostics.ts), so a run and its report cannot disagree.
 */
import { formatPlace, type SourceLocation } from "./errors.js";

export interface Diagnostic {
  readonly level: "info" | "warning";
  /** The emitter it concerns. */
  readonly emitter: string;
  readonly message: string;
  /** JSON pointer into the bundled document, when it is about one place. */
  readonly pointer?: string;
}

/** One line: `warning[types]: openapi.yaml:12:5: ...`; the place is the file:line:col of the pointer when known. */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  locate: (pointer: string) => SourceLocation | undefined,
): string {
  const location = diagnostic.pointer === undefined ? undefined : locate(diagnostic.pointer);
  const place =
    location !== undefined
      ? `${formatPlace(location)}: `
      : diagnostic.pointer !== undefined
        ? `#${diagnostic.pointer}: `
        : "";
  const at = location !== undefined && diagnostic.pointer !== undefined ? ` (at #${diagnostic.pointer})` : "";
  return `${diagnostic.level}[${diagnostic.emitter}]: ${place}${diagnostic.message}${at}`;
}
