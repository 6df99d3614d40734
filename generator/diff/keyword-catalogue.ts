/**
 * What each schema keyword means to a wire-compatibility check. A keyword
 * that no list here or no comparison rule names is compared as opaque JSON:
 * any difference is a change to review (compare-schema.ts), so a keyword
 * added to the schema later is never silently ignored.
 */

import { ASSERTING_KEYWORD_NAMES } from "../keywords/index.js";

/** Documentation only: a difference is not reported. */
const IGNORED = new Set([
  "description",
  "title",
  "examples",
  "example",
  "$comment",
  "externalDocs",
  "xml",
  "$schema",
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$defs",
  "definitions",
]);

/**
 * Annotations that say something about the value but assert nothing (the
 * project never asserts `format`, CONVENTIONS.md): a difference is `info`.
 */
// `x-receive` / `x-strict-only` / `x-receive-default` move a rule between
// the validation levels (CONVENTIONS.md, "Two validation levels"); the
// strict level, which the diff compares, stays the same.
const INFO = new Set([
  "format",
  "deprecated",
  "default",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "x-receive",
  "x-strict-only",
  "x-receive-default",
]);

/** Which bound a numeric limit is: an upper bound narrows when it goes down, a lower bound when it goes up. */
export const LIMITS: Readonly<Record<string, "upper" | "lower">> = {
  maximum: "upper",
  exclusiveMaximum: "upper",
  maxLength: "upper",
  maxItems: "upper",
  maxProperties: "upper",
  maxContains: "upper",
  // Vendor keywords (schema/CONVENTIONS.md): byte limits of the serialized value.
  "x-max-utf8-bytes": "upper",
  "x-max-json-bytes": "upper",
  minimum: "lower",
  exclusiveMinimum: "lower",
  minLength: "lower",
  minItems: "lower",
  minProperties: "lower",
  minContains: "lower",
};

/**
 * Whether `keyword` is one the generated validators enforce: the generator's
 * own registry (generator/keywords), so a keyword added there is classified
 * here too. Such a keyword added narrows, removed widens, changed needs
 * review. An `x-` keyword the registry does not enforce is opaque: any
 * change to it is a change to review.
 */
export function isVendorAssertion(keyword: string): boolean {
  return ASSERTING_KEYWORD_NAMES.has(keyword);
}

/** Whether a keyword beside a `$ref` leaves the `$ref`'s target as the whole schema. */
export function isAnnotationKeyword(keyword: string): boolean {
  return IGNORED.has(keyword) || INFO.has(keyword);
}

export function isIgnoredKeyword(keyword: string): boolean {
  return IGNORED.has(keyword);
}

export function isInfoKeyword(keyword: string): boolean {
  return INFO.has(keyword);
}
