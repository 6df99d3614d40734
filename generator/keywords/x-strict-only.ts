/**
 * `x-strict-only` (schema/CONVENTIONS.md, "Two validation levels"): the
 * whole subschema is a strict-level rule. Put an extra strict-only rule in
 * an `allOf` branch with it. An annotation for ajv; the strict level
 * applies the subschema as written.
 *
 * - `true`: at the receive level the subschema is `true`.
 * - `{ section }`: a documented rule that real servers break and the
 *   official SDKs read anyway. At the receive level it does not assert
 *   either, but a message that breaks it is reported, once, naming
 *   `section` (the document and section that state the rule): the receive
 *   level compiles it into `x-tolerated` (./x-tolerated.ts).
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

/** A document and section, e.g. "wire-protocol.md §4.3.2". */
export const SECTION_SCHEMA = { type: "string", minLength: 1 } as const;

export const xStrictOnly: KeywordDefinition = {
  keyword: "x-strict-only",
  metaSchema: {
    anyOf: [
      { const: true },
      { type: "object", required: ["section"], properties: { section: SECTION_SCHEMA }, additionalProperties: false },
    ],
  },
};
