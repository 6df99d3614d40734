/**
 * One difference between two schema documents, and how it is classified.
 *
 * A change is found with an *effect* on the set of values a schema accepts
 * (narrowed, widened, changed both ways, ...) on one *side* of the wire; the
 * direction follows from the two (classify.ts). Keeping the effect separate
 * lets a `not` flip it without knowing which rule found it.
 */

/** Who a change breaks, or that it breaks nobody. */
export type Direction =
  /** A client built against the old document sends something the new one refuses. */
  | "breaks-clients"
  /** A client built against the old document reads something it does not expect, or misses something it was promised. */
  | "breaks-readers"
  /** New capability that an old client can ignore. */
  | "additive"
  /** Worth knowing, breaks nobody (a renamed operationId, a narrowed response, a changed annotation). */
  | "info";

export const DIRECTIONS: readonly Direction[] = ["breaks-clients", "breaks-readers", "additive", "info"];

/**
 * Which way the data flows where the change sits: `request` is what the
 * client writes and the server validates (parameters, request bodies);
 * `response` is what the client reads (response bodies and headers, the
 * event stream's items). `operation` is a change to the route table itself.
 */
export type Side = "request" | "response" | "operation";

/**
 * What a change does to the set of accepted values.
 * - `narrow`: the new schema accepts fewer values (a new required field, a lower limit);
 * - `widen`: more values (a removed limit, a new enum value);
 * - `change`: some values in, some out, or undecidable (a changed pattern): review it;
 * - `removed`: a field, enum value or variant the old document promised is gone;
 * - `additive`: a new optional field, a new known value of an additive list, a new variant of an open union;
 * - `info`: an annotation (format, deprecated) or a rename.
 */
export type Effect = "narrow" | "widen" | "change" | "removed" | "additive" | "info";

export interface Change {
  readonly direction: Direction;
  /** What changed, kebab-case (`limit-narrowed`, `property-added`, `variant-removed`, ...). */
  readonly kind: string;
  /** JSON pointer (RFC 6901) of the change in the new document, or in the old one when the thing was removed. */
  readonly pointer: string;
  /** The old value at `pointer` (absent when added). */
  readonly old?: unknown;
  /** The new value at `pointer` (absent when removed). */
  readonly new?: unknown;
  /** Where the comparison reached it from: an operation and a part of it, e.g. `createRun request body`. */
  readonly via: string;
}
