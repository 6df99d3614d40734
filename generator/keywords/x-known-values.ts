/**
 * `x-known-values: [..]` (schema/CONVENTIONS.md, "Vendor keywords"): the
 * values an additive enumeration has today. An annotation for generated types
 * and docs; never asserted, so a value added by a newer server stays valid.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xKnownValues: KeywordDefinition = {
  keyword: "x-known-values",
  schemaType: "array",
  metaSchema: { type: "array", items: { type: "string" }, uniqueItems: true },
};
