/**
 * The deep equality live ajv uses for `const`, `enum` and `uniqueItems`,
 * made the same as the generated validators' (`deepEqual` of
 * runtime/validation/helpers.ts; the generator imports nothing from
 * runtime/, so this is a copy, and test/validators/prototype-keys.test.ts
 * checks the two agree).
 *
 * ajv's own (`ajv/dist/runtime/equal`, fast-deep-equal) calls `a.toString()`
 * when `a.toString` is not Object.prototype's, so data with an own key
 * `toString` or `valueOf` (`{"toString": "x"}` from JSON.parse) makes live ajv
 * throw `TypeError: a.toString is not a function` against an object `const`,
 * where the generated validators answer. ajv's keywords read that module's
 * `default` when they generate code, so replacing it before anything compiles
 * gives live ajv (tests, the fixtures emitter's judges) the generated code's
 * equality. The function keeps ajv's `code`, so standalone output is
 * unchanged: the generated modules still import the runtime's `deepEqual`.
 */
import { createRequire } from "node:module";

interface EqualFunction {
  (a: unknown, b: unknown): boolean;
  code: string;
}

/** Structural equality of two JSON values: objects by own enumerable keys in any order, arrays by position; NaN equals NaN. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return a !== a && b !== b;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    return left.length === right.length && left.every((item, i) => jsonEqual(item, right[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The CommonJS exports object ajv's keywords `require`, not an ES-module view of it. */
const ajvEqual = createRequire(import.meta.url)("ajv/dist/runtime/equal") as { default: EqualFunction };

/** ajv's own equality (fast-deep-equal), as loaded: for tests that compare against it. */
export const ajvShippedEqual: EqualFunction = ajvEqual.default;

/** Makes every ajv instance in this process generate calls to `jsonEqual`. Idempotent. */
export function useJsonEqualInAjv(): void {
  if ((ajvEqual.default as unknown) === jsonEqual) return;
  (jsonEqual as unknown as EqualFunction).code = ajvEqual.default.code;
  ajvEqual.default = jsonEqual as unknown as EqualFunction;
}
