/**
 * The helpers ajv's standalone output `require`s from `ajv/dist/runtime/*`,
 * as the runtime's own code: generated validators import them through the
 * codegen contract (runtime/codegen/v1.ts), so they need neither ajv nor
 * anything outside this package at run time. For JSON values; no Node APIs.
 */
import type { ValidationIssue } from "./issue.js";

/**
 * Length of a string in Unicode code points, as JSON Schema's minLength and
 * maxLength count it: a surrogate pair is one character.
 */
export function ucs2length(str: string): number {
  let length = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    // charCodeAt past the end is NaN; NaN & 0xfc00 is 0, so no bound check.
    if ((c & 0xfc00) === 0xd800 && (str.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    length++;
  }
  return length;
}

/**
 * Structural equality of two JSON values (enum, const, uniqueItems): objects
 * by own enumerable keys in any order, arrays by position.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return Number.isNaN(a) && Number.isNaN(b); // NaN equals NaN, as in ajv
  }
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], other[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !deepEqual(left[key], right[key])) return false;
  }
  return true;
}

/**
 * @internal Where `tolerated` reports: the typed event layer sets `notes`
 * to an array around one validator call (runtime/events/decode.ts) and
 * reads it after; otherwise reports go nowhere (a program calling a
 * validator itself collects nothing and keeps nothing).
 */
export const toleratedNotes: { notes: ValidationIssue[] | undefined } = { notes: undefined };

/**
 * Called by receive-level validators (the `x-tolerated` keyword,
 * generator/keywords/x-tolerated.ts) for a value that breaks a documented
 * rule the receive level reads anyway: `section` names the document and
 * section of the rule.
 */
export function tolerated(instancePath: string, section: string): void {
  toleratedNotes.notes?.push({
    instancePath,
    schemaPath: "",
    keyword: "x-tolerated",
    params: { section },
    message: `breaks ${section}; read as documented`,
  });
}
