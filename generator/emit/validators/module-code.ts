/**
 * One component's validator as a self-contained ES module: ajv's standalone
 * code for that component (its function and every function it calls), with
 * ajv's runtime `require`s replaced by imports from the runtime contract, unused
 * schema constants dropped, wrapped so bundlers can drop it, and formatted.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { componentRef } from "./ajv.js";
import { formatModuleSync } from "./format.js";
import { ownKeyEvaluation, ownProtoKeys } from "./own-keys.js";
import { validatorName } from "./names.js";
import { RUNTIME_EXPORTS } from "./runtime.js";

/** The module text (without header) for component `name`, already added to `ajv`. */
export function componentModuleCode(ajv: Ajv2020, name: string, runtime = RUNTIME_PLACEHOLDER): string {
  return formatModuleSync(componentModuleSource(ajv, name, undefined, runtime));
}

/**
 * The module before formatting: `componentModuleCode` is `formatModuleSync`
 * of this (./format.ts). `exportName` defaults to `validate<Name>`.
 */
export function componentModuleSource(ajv: Ajv2020, name: string, exportName = validatorName(name), runtime = RUNTIME_PLACEHOLDER): string {
  let code = standalone.default(ajv, { [exportName]: componentRef(name) });
  code = code.replace(/^"use strict";/, ""); // ES modules are strict
  code = ownProtoKeys(ownKeyEvaluation(code));

  const exportLine = new RegExp(`export const ${exportName} = (validate\\d+);`);
  const exported = exportLine.exec(code);
  if (!exported?.[1]) throw new Error(`ajv standalone output for ${name} has no "export const ${exportName} = validateN;"`);
  const fn = exported[1];
  code = code.replace(exportLine, "");

  const { body, imports } = replaceRuntimeRequires(code, name, runtime);
  return (
    `${imports}\n` +
    // A module of bare statements such as `validate12.evaluated = {...}` or
    // `new RegExp(...)` counts as having side effects, and bundlers keep it
    // even when nothing imports its export (e.g. via index.js). A pure IIFE
    // lets them drop it whole.
    `export const ${exportName} = /* @__PURE__ */ (() => {\n${removeUnusedSchemaConstants(body)}\n` +
    `${fn}.errors = null;\nreturn ${fn};\n})();\n`
  );
}

/** The specifier used when none is given (tests of the module code alone). */
export const RUNTIME_PLACEHOLDER = "@mantyx/wire-types/codegen/v1";

const REQUIRE = /const (\w+) = require\("([^"]+)"\)\.(\w+);/g;

/** Replaces each `const funcN = require("ajv/dist/runtime/x").y;` with an import from the runtime contract (`runtime`). */
function replaceRuntimeRequires(code: string, name: string, runtime: string): { body: string; imports: string } {
  const specifiers: string[] = [];
  const body = code.replace(REQUIRE, (_whole, local: string, module: string, member: string) => {
    const replacement = RUNTIME_EXPORTS[`${module}.${member}`];
    if (replacement === undefined) {
      throw new Error(
        `The validator of ${name} needs require("${module}").${member}, which the runtime contract does not provide. ` +
          `Add it to runtime/validation/helpers.ts, runtime/codegen/v1.ts and RUNTIME_EXPORTS in generator/emit/validators/runtime.ts.`,
      );
    }
    specifiers.push(`${replacement} as ${local}`);
    return "";
  });
  specifiers.sort();
  const imports = specifiers.length > 0 ? `import { ${specifiers.join(", ")} } from ${JSON.stringify(runtime)};` : "";
  return { body, imports };
}

/**
 * ajv's standalone output declares `const schemaN = {...the schema...};` for
 * every compiled function, used only when a keyword reads the schema at run
 * time (e.g. a long enum). Unused ones would ship the whole schema text.
 * The values are JSON (ajv's `stringify`), so a bracket scan finds their end.
 */
export function removeUnusedSchemaConstants(code: string): string {
  // Occurrences of every `schemaN` name, counted in one pass (a declaration is one).
  const uses = new Map<string, number>();
  for (const [name] of code.matchAll(/\bschema\d+\b/g)) uses.set(name, (uses.get(name) ?? 0) + 1);
  const declaration = /const (schema\d+) = /g;
  const kept: string[] = [];
  let from = 0;
  for (let m = declaration.exec(code); m !== null; m = declaration.exec(code)) {
    const constName = m[1] as string;
    if ((uses.get(constName) ?? 0) > 1 || m.index < from) continue;
    const end = jsonValueEnd(code, m.index + m[0].length);
    if (code[end] !== ";") throw new Error(`Unexpected ajv output after ${constName}: ${code.slice(end, end + 20)}`);
    kept.push(code.slice(from, m.index));
    from = end + 1;
  }
  kept.push(code.slice(from));
  return kept.join("");
}

/** Index just past the JSON value starting at `start`. */
function jsonValueEnd(code: string, start: number): number {
  let depth = 0;
  let i = start;
  do {
    const c = code[i];
    if (c === undefined) throw new Error("Unterminated JSON value in ajv output");
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "[") {
      depth++;
    } else if (c === "}" || c === "]") {
      depth--;
    } else if (depth === 0) {
      // A scalar at top level (true/false/number): runs up to the `;`.
      while (code[i + 1] !== undefined && code[i + 1] !== ";") i++;
    }
    i++;
  } while (depth > 0);
  return i;
}
