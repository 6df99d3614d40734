/**
 * `x-transcript-rules` (schema/CONVENTIONS.md, "Vendor keywords"): sequence
 * rules for a whole run transcript. Tolerated, not compiled, here: the rules
 * span many events and are compiled by the transcript checker, not by a
 * per-value JSON Schema validator.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const xTranscriptRules: KeywordDefinition = {
  keyword: "x-transcript-rules",
  schemaType: "array",
};
