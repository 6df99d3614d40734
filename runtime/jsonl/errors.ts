/**
 * The one error of the JSON-lines decoder: a line that is not JSON, or a
 * line over `maxLineBytes`. It names the line by number and size, never by
 * its text (a server may echo a credential into it).
 */

/** Kinds of JSON-lines error. More may be added; switch with a default branch. */
export type JsonLinesErrorType = "invalid-json" | "max-line-bytes-exceeded";

export class JsonLinesError extends Error {
  override readonly name = "JsonLinesError";
  declare readonly type: JsonLinesErrorType;
  /** 1-based number of the line in the stream (blank lines counted). */
  declare readonly line: number;
  /** The line's length in UTF-16 code units (for `invalid-json`) or bytes buffered (for the limit). */
  declare readonly size: number;

  constructor(type: JsonLinesErrorType, line: number, size: number, detail: string) {
    super(`JSON lines: line ${line} (${size} ${type === "invalid-json" ? "characters" : "bytes"}) ${detail}`);
    Object.assign(this, { type, line, size });
  }
}

/** True for a JsonLinesError, also one from another copy of this module (bundlers can duplicate it). */
export function isJsonLinesError(e: unknown): e is JsonLinesError {
  return (
    e instanceof JsonLinesError ||
    ((e as JsonLinesError | null)?.name === "JsonLinesError" && typeof (e as JsonLinesError).type === "string")
  );
}
