/**
 * `x-strict-only: true` (schema/CONVENTIONS.md, "Two validation levels"):
 * the whole subschema is a strict-level rule; at the receive level it is
 * `true`. Put an extra strict-only rule in an `allOf` branch with it. An
 * annotation for ajv; the strict level applies the subschema as written.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xStrictOnly: KeywordDefinition = {
  keyword: "x-strict-only",
  schemaType: "boolean",
  metaSchema: { const: true },
};
