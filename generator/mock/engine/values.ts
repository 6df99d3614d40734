/**
 * The values the document mock answers with: a media type's example
 * (`example`, a named or the first of `examples`), else a value generated
 * from its schema by ../example-value.ts (deterministic: the same schema
 * gives the same value), with the document's `$ref`s resolved.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { getAtPointer, isPlainObject, parseRefFragment } from "../../load/json-pointer.js";
import { exampleValue, type ExampleSchema } from "../example-value.js";

/** How many values one answer generates before it leaves optional properties out (a large recursive schema stays a small answer). */
const BUDGET = 2_000;

/** A value for `schema`, `$ref`s into `doc` resolved. */
export function generate(doc: OpenAPIObject, schema: unknown): unknown {
  return exampleValue(schema ?? true, {
    budget: BUDGET,
    resolveRef: (ref) => {
      const segments = parseRefFragment(ref);
      const target = segments === undefined ? undefined : getAtPointer(doc, segments);
      return typeof target === "boolean" || isPlainObject(target) ? (target as ExampleSchema) : undefined;
    },
  });
}

/** The names of a media type's (or response header's) `examples`, in the document's order. */
export function exampleNames(media: Record<string, unknown>): string[] {
  return isPlainObject(media["examples"]) ? Object.keys(media["examples"]) : [];
}

/**
 * The example a media type gives: the one named `name` (undefined when it
 * has none of that name), else `example`, else the first of `examples`
 * with a `value`; `{ found: false }` when it gives none.
 */
export function mediaExample(
  doc: OpenAPIObject,
  media: Record<string, unknown>,
  name?: string,
): { found: true; value: unknown } | { found: false } {
  const examples = isPlainObject(media["examples"]) ? media["examples"] : {};
  const exampleOf = (entry: unknown): { found: true; value: unknown } | { found: false } => {
    const resolved = resolveRef(doc, entry);
    return isPlainObject(resolved) && "value" in resolved
      ? { found: true, value: resolved["value"] }
      : { found: false };
  };
  if (name !== undefined) return name in examples ? exampleOf(examples[name]) : { found: false };
  if ("example" in media) return { found: true, value: media["example"] };
  for (const entry of Object.values(examples)) {
    const v = exampleOf(entry);
    if (v.found) return v;
  }
  return { found: false };
}

/** `value`, or what its `$ref` (an Example Object's) points at. */
export function resolveRef(doc: OpenAPIObject, value: unknown): unknown {
  let cur = value;
  for (let i = 0; i < 16 && isPlainObject(cur) && typeof cur["$ref"] === "string"; i++) {
    const segments = parseRefFragment(cur["$ref"]);
    cur = segments === undefined ? undefined : getAtPointer(doc, segments);
  }
  return cur;
}
