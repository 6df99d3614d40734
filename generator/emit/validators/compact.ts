/**
 * Two rewrites of ajv's generated functions that remove code which cannot
 * run or whose values nothing reads, so each validator ships less. Each is
 * exact or not applied: a rewrite whose pattern is not found as expected
 * leaves the code as ajv wrote it (bigger, never different).
 *
 * - The call context. ajv passes every called function
 *   `{instancePath, parentData, parentDataProperty, rootData, dynamicAnchors}`
 *   and each function destructures it; only `instancePath` is read unless a
 *   schema uses `$dynamicRef` or a keyword reads the parent. When no
 *   function of a module reads the other four, they are dropped from every
 *   signature and call.
 * - Static evaluation. Under `unevaluatedProperties` ajv gives each
 *   function an `evaluated` record, and a function whose record is static
 *   (`dynamicProps: false, dynamicItems: false`) still starts by testing
 *   those two flags. When no other function reads its record at run time,
 *   the prologue and the record go, and the function is a plain declaration.
 * - Error collection. With `allErrors`, ajv writes each issue as
 *   `const errN = {...}; if (vErrors === null) { vErrors = [errN]; } else {
 *   vErrors.push(errN); } errors++;`; `vErrors` is `null` or an array, so
 *   `(vErrors || (vErrors = [])).push({...}); errors++;` is the same, shorter
 *   in every one of the hundreds of places (the bodies a client checks).
 */

import { maskLiterals, replaceInCode } from "./code-literals.js";

/** One compiled function as ajv wrote it. */
export interface FunctionCode {
  readonly name: string;
  code: string;
  /** `validateN.evaluated`'s value, `undefined` once it is not needed. */
  evaluated: string | undefined;
}

const CONTEXT_PARAMETERS =
  /\{instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors=\{\}\}=\{\}/g;
const INSTANCE_PATH_ONLY = '{instancePath=""}={}';
/**
 * The context after `instancePath` at a call: ajv writes the parent as a
 * `dataN` name, its key as a literal or an index name, or passes its own
 * context on unchanged (a `$ref` beside other keywords, a union branch).
 */
const CONTEXT_ARGUMENTS =
  /,parentData(?::[\w$]+)?,parentDataProperty(?::(?:"(?:[^"\\]|\\.)*"|[\w$]+))?,rootData,dynamicAnchors\}/g;
const CONTEXT_NAMES = /\b(?:parentData|parentDataProperty|rootData|dynamicAnchors)\b/;

/** Drops the unread call context from every function of a module, or from none. */
export function dropUnreadContext(functions: readonly FunctionCode[]): void {
  // Code only, never a schema string that reads like it (./code-literals.ts).
  const rewritten = functions.map((f) =>
    replaceInCode(replaceInCode(f.code, CONTEXT_PARAMETERS, INSTANCE_PATH_ONLY), CONTEXT_ARGUMENTS, "}"),
  );
  if (rewritten.some((code) => CONTEXT_NAMES.test(maskLiterals(code)))) return; // some function reads it (or ajv wrote it otherwise)
  functions.forEach((f, i) => {
    f.code = rewritten[i]!;
  });
}

/**
 * Drops the prologue and the record of each function whose `evaluated` is
 * static and read by no other function (`others`: the module's other code,
 * including the `{ validate: validateN }` wrappers ajv reads records through).
 */
export function dropStaticEvaluated(functions: readonly FunctionCode[], wrapped: ReadonlySet<string>): void {
  for (const f of functions) {
    if (f.evaluated === undefined || wrapped.has(f.name)) continue;
    if (!/"dynamicProps":false/.test(f.evaluated) || !/"dynamicItems":false/.test(f.evaluated)) continue;
    const prologue = new RegExp(
      `const (evaluated\\d+) = ${f.name}\\.evaluated;if\\(\\1\\.dynamicProps\\)\\{\\1\\.props = undefined;\\}if\\(\\1\\.dynamicItems\\)\\{\\1\\.items = undefined;\\}`,
      "g",
    );
    const match = prologue.exec(maskLiterals(f.code));
    if (match === null) continue;
    const code = replaceInCode(f.code, prologue, "");
    if (new RegExp(`\\b${match[1]}\\b|\\b${f.name}\\.evaluated\\b`).test(code)) continue;
    const readElsewhere = new RegExp(`\\b${f.name}\\.evaluated\\b`);
    if (functions.some((other) => other !== f && readElsewhere.test(other.code))) continue;
    f.code = code;
    f.evaluated = undefined;
  }
}

/** ajv's all-errors collection of one issue (the object literal holds no `;` outside strings that ajv writes; any other shape is left alone). */
const ERROR_PUSH =
  /const (err\d+) = (\{[^;]*\});if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}errors\+\+;/g;

/** Rewrites every all-errors issue collection into its short form. */
export function shortenErrorPushes(functions: readonly FunctionCode[]): void {
  // A `;` inside the literal's strings: left as ajv wrote it, as before strings were told from code.
  for (const f of functions)
    f.code = replaceInCode(f.code, ERROR_PUSH, (group, whole) =>
      group(2).includes(";") ? whole : `(vErrors || (vErrors = [])).push(${group(2)});errors++;`,
    );
}
