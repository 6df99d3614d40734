/**
 * The deep equality live ajv uses for `const`, `enum` and `uniqueItems`,
 * made the generated validators' own: `deepEqual` of
 * runtime/validation/helpers.ts, the one implementation both sides call.
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
import ajvEqualImport from "ajv/dist/runtime/equal.js";
import { deepEqual } from "@mantyx/wire-types/codegen/v1";

interface EqualFunction {
  (a: unknown, b: unknown): boolean;
  code: string;
}

/** Structural equality of two JSON values (the runtime's `deepEqual`), as a function of its own, to carry ajv's `code`. */
export const jsonEqual = (a: unknown, b: unknown): boolean => deepEqual(a, b);

/**
 * The CommonJS exports object ajv's keywords `require`, not an ES-module view
 * of it. A default import of a CommonJS module is its `module.exports` in
 * Node and in the published bundle (esbuild's Node interop), where ajv is
 * bundled and only this import reaches the copy ajv itself uses; where an
 * import gives the function instead (vitest's interop), ajv is Node's, and
 * `require` reaches the same exports object.
 */
const imported = ajvEqualImport as unknown as EqualFunction | { default: EqualFunction };
const ajvEqual =
  typeof imported === "function"
    ? (createRequire(import.meta.url)("ajv/dist/runtime/equal") as { default: EqualFunction })
    : imported;

/** ajv's own equality (fast-deep-equal), as loaded: for tests that compare against it. */
export const ajvShippedEqual: EqualFunction = ajvEqual.default;

/** Makes every ajv instance in this process generate calls to `jsonEqual`. Idempotent. */
export function useJsonEqualInAjv(): void {
  if ((ajvEqual.default as unknown) === jsonEqual) return;
  (jsonEqual as unknown as EqualFunction).code = ajvEqual.default.code;
  ajvEqual.default = jsonEqual as unknown as EqualFunction;
}
