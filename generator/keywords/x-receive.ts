/**
 * `x-receive: [keyword, ...]` (schema/CONVENTIONS.md, "Two validation
 * levels"): keywords of this schema that the receive level keeps although
 * its rule drops them, because the stream itself needs them (`seq` is an
 * integer >= 0: `x-receive: [minimum]`). An annotation for ajv; the
 * receive-level derivation (generator/emit/validators/receive-level.ts)
 * reads it.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xReceive: KeywordDefinition = {
  keyword: "x-receive",
  schemaType: "array",
  metaSchema: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, uniqueItems: true },
};
