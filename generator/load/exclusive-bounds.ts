/**
 * Draft-04's boolean `exclusiveMinimum` / `exclusiveMaximum` (`minimum: 10,
 * exclusiveMinimum: true`), which documents written for OpenAPI 3.0 or
 * under a draft-04 `jsonSchemaDialect` carry into 3.1: in 2020-12 the
 * keyword's value is the bound itself, and a boolean fails the meta-schema.
 * Its meaning is plain, so the loader reads it so, in place, before the
 * model is built (every artefact agrees): `minimum: 10, exclusiveMinimum:
 * true` is `exclusiveMinimum: 10`; `false`, or `true` without a bound,
 * says nothing and is removed. `gen` warns at the first use
 * (emit/diagnostics.ts) with the 2020-12 spelling.
 */
import type { BundledDocument } from "./bundle.js";
import { formatPointer } from "./json-pointer.js";
import { findKeyword } from "./refs.js";

const PAIRS = [
  ["exclusiveMinimum", "minimum"],
  ["exclusiveMaximum", "maximum"],
] as const;

/** Where each document read had a boolean exclusive bound (pointers of the keyword), sorted. */
const uses = new WeakMap<object, string[]>();

/** The boolean exclusive bounds `readExclusiveBounds` rewrote in `document` (the loaded model's document), by pointer. */
export function booleanExclusiveBounds(document: object): readonly string[] {
  return uses.get(document) ?? [];
}

/** Rewrites every boolean exclusive bound of the bundled document into its 2020-12 form. */
export function readExclusiveBounds(bundled: BundledDocument): void {
  const found: string[] = [];
  for (const [exclusive, bound] of PAIRS) {
    for (const { path, holder } of findKeyword(bundled.data, exclusive)) {
      const value = holder[exclusive];
      if (typeof value !== "boolean") continue;
      found.push(formatPointer([...path, exclusive]));
      if (value && typeof holder[bound] === "number") {
        holder[exclusive] = holder[bound];
        delete holder[bound];
      } else delete holder[exclusive];
    }
  }
  if (found.length > 0 && typeof bundled.data === "object" && bundled.data !== null)
    uses.set(bundled.data, found.sort());
}
