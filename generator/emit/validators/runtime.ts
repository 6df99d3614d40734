/**
 * `generated/validators/runtime.js`: the helpers ajv's standalone output
 * `require`s from `ajv/dist/runtime/*`, written here so generated validators
 * import nothing outside their folder. Small, for JSON values, no Node APIs.
 *
 * `RUNTIME_EXPORTS` maps each `require("ajv/dist/runtime/<module>").<export>`
 * ajv can emit for this project's options to the runtime.js export that
 * replaces it. A require not in the table fails generation (see
 * ./module-code.ts), so a new ajv dependency is noticed, not shipped.
 */

export const RUNTIME_FILE = "runtime.js";

export const RUNTIME_EXPORTS: Readonly<Record<string, string>> = {
  // minLength / maxLength count code points, not UTF-16 units.
  "ajv/dist/runtime/ucs2length.default": "ucs2length",
  // enum / const with object or array values, uniqueItems.
  "ajv/dist/runtime/equal.default": "deepEqual",
};

export const runtimeJs = `/**
 * Helpers of the generated validators (they replace ajv's runtime modules).
 * Internal: the validators import these; applications import the validators.
 */

/**
 * Length of a string in Unicode code points, as JSON Schema's minLength and
 * maxLength count it: a surrogate pair is one character.
 * @param {string} str
 * @returns {number}
 */
export function ucs2length(str) {
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
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function deepEqual(a, b) {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return a !== a && b !== b; // NaN equals NaN, as in ajv
  }
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key) || !deepEqual(a[key], b[key])) return false;
  }
  return true;
}
`;

export const runtimeDts = `/**
 * One problem found by a generated validator. The shape is stable: it is
 * ajv's error object (without its \`verbose\` fields), so tools written for
 * ajv errors read it.
 *
 * Validators stop at the first failing keyword (ajv \`allErrors: false\`):
 * \`errors\` holds its issue. A discriminated union checks only the branch
 * its tag selects, so a wrong variant yields that branch's one issue. A
 * \`oneOf\`/\`anyOf\` without discriminator lists the first issue of each
 * branch, then the union's own issue (keyword \`oneOf\`/\`anyOf\`).
 */
export interface ValidationIssue {
  /** JSON Pointer to the failing value in the validated data, \`""\` for the root. */
  instancePath: string;
  /** JSON Pointer to the failing keyword in the component's schema (from the component, or from the document when the keyword was reached through a \`$ref\` ajv inlined). */
  schemaPath: string;
  /** The failing keyword: a JSON Schema keyword, \`discriminator\`, or a vendor keyword such as \`x-max-json-bytes\`. */
  keyword: string;
  /** English, for people: "must be at most 4096 bytes as JSON (is 5120)". */
  message: string;
  /** Machine-readable details; for the byte keywords \`{ limit, actual }\`. */
  params: Record<string, unknown>;
}

/**
 * A generated validator: a type guard whose \`errors\` property describes the
 * last call. \`errors\` is \`null\` before the first call and after a valid one.
 */
export interface Validator<T> {
  (data: unknown): data is T;
  errors: ValidationIssue[] | null;
}

/** @internal Code points in \`str\` (JSON Schema string length). */
export declare function ucs2length(str: string): number;
/** @internal Structural equality of JSON values. */
export declare function deepEqual(a: unknown, b: unknown): boolean;
`;
