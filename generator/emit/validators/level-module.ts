/**
 * One validation level's shared module (validators/internal/<level>.js):
 * every function ajv compiled for that level, each once, as its own
 * top-level declaration that a bundler can drop, exported under the public
 * name of each component validator that starts there.
 *
 * Why not ajv's own standalone output: it writes the functions of all
 * exports as one run of statements (`validateN.evaluated = ...`,
 * `new RegExp(...)`) that bundlers must keep, so a program importing one
 * validator bundled all of them. Here each function carries what it needs
 * in a pure IIFE and each constant is a pure expression, so esbuild, rollup
 * and webpack keep only the functions a program reaches, and a component
 * referenced by twenty others is in the bundle once.
 *
 * The units come from ajv's `SourceCode` (the `code.source` option): each
 * compiled function's text and the scope values it uses (schema fragments,
 * regular expressions, helper functions, the functions it calls). ajv's
 * helpers (`require("ajv/dist/runtime/...")`) become imports of the
 * runtime contract (./runtime.ts).
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { replaceInCode } from "./code-literals.js";
import { dropStaticEvaluated, dropUnreadContext, shortenErrorPushes, type FunctionCode } from "./compact.js";
import { ownKeyEvaluation, ownProtoKeys } from "./own-keys.js";
import { RUNTIME_EXPORTS } from "./runtime.js";

/** What ajv's `SourceCode` and `ValueScopeName` carry (ajv/dist/types, ajv/dist/compile/codegen/scope), read structurally. */
interface ScopeName {
  readonly prefix: string;
  readonly str: string;
  readonly value?: { readonly ref?: unknown; readonly code?: { toString(): string } };
}
interface Source {
  readonly validateName: ScopeName;
  readonly validateCode: string;
  readonly scopeValues: Readonly<Record<string, ReadonlySet<ScopeName> | undefined>>;
  readonly evaluated?: { toString(): string };
}
interface CompiledFunction {
  readonly source?: Source;
}

/** `const funcN = require("ajv/dist/runtime/x").y` in ajv's value code. */
const REQUIRE = /^require\("([^"]+)"\)\.(\w+)$/;

/**
 * The module (unformatted, without header) that defines every function the
 * `exports` (public export name -> ajv key, already compiled in `ajv`)
 * reach, and exports each under its public name, as its top-level
 * statements in order (the text is their lines): the import, the
 * constants, the functions, the export. A run of them is formatted alone
 * as it is in the whole (./format.ts), so the level thread can format a
 * module in parts on two threads at once.
 */
export function levelModuleStatements(ajv: Ajv2020, exports: ReadonlyMap<string, string>, runtime: string): string[] {
  const values: string[] = [];
  const functions: FunctionCode[] = [];
  // Last: a wrapper reads its function when the module runs, and that function may be declared after it.
  const wrappers: string[] = [];
  const wrapped = new Set<string>();
  const imports: string[] = [];
  const done = new Set<string>();

  const value = (name: ScopeName): void => {
    if (done.has(name.str)) return;
    done.add(name.str);
    const code = name.value?.code?.toString();
    if (code === undefined) throw new Error(`ajv scope value ${name.str} has no code`);
    const required = REQUIRE.exec(code);
    if (required) {
      const replacement = RUNTIME_EXPORTS[`${required[1]}.${required[2]}`];
      if (replacement === undefined) {
        throw new Error(
          `A validator needs require("${required[1]}").${required[2]}, which the runtime contract does not provide. ` +
            `Add it to runtime/validation/helpers.ts, runtime/codegen/v1.ts and RUNTIME_EXPORTS in generator/emit/validators/runtime.ts.`,
        );
      }
      imports.push(`${replacement} as ${name.str}`);
      return;
    }
    // `new RegExp(...)` and a member read such as `Object.prototype.hasOwnProperty`
    // are not known to be pure; the annotation lets a bundler drop an unused one.
    const pure = /^new RegExp\(/.test(code)
      ? `/* @__PURE__ */ ${code}`
      : /^[\w$.]+$/.test(code)
        ? `/* @__PURE__ */ (() => ${code})()`
        : code;
    values.push(`const ${name.str} = ${ownProtoKeys(pure)};`);
  };

  const fn = (source: Source): void => {
    const self = source.validateName.str;
    if (done.has(self)) return;
    done.add(self);
    for (const [prefix, names] of Object.entries(source.scopeValues)) {
      for (const name of names ?? []) {
        if (prefix === "validate") {
          const called = (name.value?.ref as CompiledFunction | undefined)?.source;
          if (called === undefined) throw new Error(`ajv function ${name.str} has no source (code.source option)`);
          fn(called);
        } else if (prefix === "root" || prefix === "wrapper") {
          // `{ validate: validateN }`, through which ajv calls a function whose compiling has started (recursion).
          const env = name.value?.ref as { validate?: CompiledFunction; validateName?: { str: string } } | undefined;
          if (env?.validate?.source === undefined || env.validateName === undefined)
            throw new Error(`ajv ${prefix} ${name.str} has no compiled function`);
          fn(env.validate.source);
          wrapped.add(env.validateName.str);
          if (!done.has(name.str)) {
            done.add(name.str);
            wrappers.push(`const ${name.str} = { validate: ${env.validateName.str} };`);
          }
        } else if (
          new RegExp(`\\b${name.str}\\b`).test(source.validateCode) ||
          source.evaluated?.toString().includes(name.str)
        ) {
          // ajv lists the function's own schema among its values even when the code never reads it.
          value(name);
        }
      }
    }
    functions.push({
      name: self,
      code: ownProtoKeys(ownKeyEvaluation(source.validateCode)),
      evaluated: source.evaluated?.toString(),
    });
  };

  const exported: string[] = [];
  for (const [exportName, key] of [...exports].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const compiled = ajv.getSchema(key) as CompiledFunction | undefined;
    if (compiled?.source === undefined) throw new Error(`ajv has no compiled function with source for ${key}`);
    fn(compiled.source);
    exported.push(`${compiled.source.validateName.str} as ${exportName}`);
  }

  dropUnreadContext(functions);
  dropStaticEvaluated(functions, wrapped);
  shortenErrorPushes(functions);
  // A named function expression: its self-references (`validateN.errors = ...`, many per function)
  // become one short local name when minified, the same in every function, which gzip rewards.
  // A bare `validateN.evaluated = ...` statement would keep the function in every bundle: an IIFE.
  // Two schemas can compile to the same code (two components with one receive-level shape):
  // the second is the first function under another name.
  const byCode = new Map<string, string>();
  const declarations = functions.map(({ name, code, evaluated }) => {
    // The function's own name in its code only: two functions whose strings differ are never one.
    const key = `${replaceInCode(code, new RegExp(`\\b${name}\\b`, "g"), "validateSelf")}\n${evaluated ?? ""}`;
    const same = byCode.get(key);
    if (same !== undefined) return `const ${name} = ${same};`;
    byCode.set(key, name);
    return evaluated === undefined
      ? `const ${name} = ${code};`
      : `const ${name} = /* @__PURE__ */ (() => {\n${code}\n${name}.evaluated = ${ownProtoKeys(evaluated)};\nreturn ${name};\n})();`;
  });
  imports.sort();
  return [
    ...(imports.length > 0 ? [`import { ${imports.join(", ")} } from ${JSON.stringify(runtime)};`] : []),
    ...values,
    ...declarations,
    ...wrappers,
    `export { ${exported.join(", ")} };`,
  ];
}
