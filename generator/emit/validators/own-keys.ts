/**
 * Rewrites of ajv's generated code so that a key of the data is only ever
 * looked up as an own key: `constructor`, `toString`, `__proto__`, ... are
 * ordinary property names in JSON (`JSON.parse` makes them own keys), never
 * the Object.prototype members of the same name.
 *
 * `ownKeyEvaluation` runs on the code of live ajv (the `code.process`
 * option, ./ajv.ts) and of the standalone modules (./level-module.ts), so
 * both judge the same way; `ownProtoKeys` only concerns standalone output,
 * where schema values become object literals.
 */
import { replaceInCode } from "./code-literals.js";

/**
 * ajv's `unevaluatedProperties` keeps the keys other keywords evaluated in a
 * map (`var props0 = {}`, `props0[key] = true`) and asks `!props0[key]`. On
 * an ordinary object `props0["constructor"]` is Object.prototype's function,
 * so an unevaluated `constructor` passed as evaluated, and
 * `props0["__proto__"] = true` was swallowed by the prototype setter. Maps
 * without a prototype, and asking for `true` itself, make the lookup own-key.
 *
 * `uniqueItems` on strings indexes the items the same way
 * (`indices0[item] = i`), so `["__proto__", "__proto__"]` passed as unique:
 * its map gets no prototype either.
 */
export function ownKeyEvaluation(code: string): string {
  // Code only: a schema string "props0 = {};" (an enum value) stays as it is (./code-literals.ts).
  if (!code.includes("props") && !code.includes("indices")) return code;
  let out = replaceInCode(code, /\b(indices\d+)\s*=\s*\{\}\s*;/g, "$1 = Object.create(null);");
  out = replaceInCode(out, /\b(props\d+)\s*=\s*\{\}\s*;/g, "$1 = Object.create(null);");
  out = replaceInCode(out, /\b(props\d+)\s*=\s*\1\s*\|\|\s*\{\}\s*;/g, "$1 = $1 || Object.create(null);");
  return replaceInCode(out, /!(props\d+)\[(key\d+)\]/g, "$1[$2] !== true");
}

/**
 * ajv's standalone output writes schema values (`const`, `enum`, the schema
 * constants) and `evaluated` maps as object literals, where a key
 * `"__proto__": v` sets the object's prototype instead of making a key, so
 * `const: {"__proto__": 1}` would compare against `{}`. A computed key
 * `["__proto__"]: v` makes an own key, as live ajv's schema object has. Only
 * object-literal keys match: the quoted name right after `{` or `,` and
 * before `:` (inside a string literal the quotes are escaped, and ajv
 * compares keys with `=== "__proto__"`).
 */
export function ownProtoKeys(code: string): string {
  return code.replace(/([{,]\s*)"__proto__"(\s*:)/g, '$1["__proto__"]$2');
}
