/**
 * Emitter "validators": ahead-of-time validators for every component schema,
 * in generated/validators/. ajv compiles at generation time only; what is
 * emitted is plain JavaScript that imports nothing but its own folder and
 * the runtime's codegen contract.
 *
 * Layout (tree-shakable; see bench/validators.ts for the sizes):
 *   validators/<kebab-name>.js + .d.ts   one module per component, exporting
 *                                        `validate<Name>`; self-contained (it
 *                                        carries the functions it calls)
 *   validators/<kebab-name>.all-errors.js + .d.ts
 *                                        for each request-body component
 *                                        only: `validate<Name>AllErrors`, the
 *                                        same checks built with ajv
 *                                        `allErrors`, so a client can list
 *                                        every problem of a rejected body
 *   validators/<kebab-name>.receive.js + .d.ts
 *                                        for each component a client reads
 *                                        (2xx JSON response bodies, the SSE
 *                                        item schema) only:
 *                                        `validate<Name>Receive`, the
 *                                        receive level of the same schema
 *                                        (./validators/receive-level.ts):
 *                                        the shape the type promises, not
 *                                        the strict-only rules
 *   validators/index.js + .d.ts          explicit named re-exports
 * The helpers replacing ajv's runtime modules (and `ValidationIssue`) are
 * the runtime's, imported through its codegen contract (./runtime-import.ts).
 * Importing one validator, directly or through index.js, bundles only that
 * validator and the runtime helpers it uses.
 *
 * Why per-component modules (esbuild bundle + minify + gzip, this schema):
 * ajv's multi-export output as one ES module is not tree-shakable (its
 * top-level `validateN.evaluated = ...` and `new RegExp(...)` count as side
 * effects), so any single validator costs ~39 KB gz, and all ~40 KB gz.
 * Per component: ToolBudget 0.6 KB, ToolRef 3.7 KB, RunCreateRequest
 * 8.9 KB gz; all 104 ~102 KB gz, because each module carries its own copy of
 * the functions it shares with others. The bar is "one validator alone".
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { EmitError } from "../errors.js";
import { formatPointer } from "../load/json-pointer.js";
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { addComponents, createValidatorAjv, componentRef } from "./validators/ajv.js";
import { componentDeclarations, indexDeclarations, indexModule } from "./validators/declarations.js";
import { header } from "../header.js";
import { formatModuleSync } from "./validators/format.js";
import { componentModuleSource } from "./validators/module-code.js";
import { allErrorsFile, allErrorsName, receiveFile, receiveName, validatorFile, validatorName } from "./validators/names.js";
import { receivedComponents } from "./validators/received-components.js";
import { requestBodyComponents } from "./validators/request-bodies.js";
import { assertPortable } from "./validators/portability.js";
import { runtimeImport } from "./runtime-import.js";

const DIR = "validators";

export const validatorsEmitter: Emitter = {
  name: "validators",
  emit: emitValidators,
};

/** The validator files (each module formatted by esbuild's `transformSync`). */
export function emitValidators(model: LoadedSchema): EmittedFile[] {
  const { modules, finish } = validatorSources(model, formatModuleSync);
  return finish(modules);
}

/**
 * `format` of every component's module text (sorted by name), and `finish`,
 * which takes them formatted and returns all files, each checked by
 * `assertPortable`.
 */
function validatorSources<T>(model: LoadedSchema, format: (code: string) => T): { modules: T[]; finish: (formatted: readonly string[]) => EmittedFile[] } {
  const names = Object.keys(model.schemas).sort();
  const bodies = requestBodyComponents(model.document);
  const received = receivedComponents(model.document);
  checkFileNames(names, bodies, received);

  const ajv = compileAll(createValidatorAjv(), model, names);
  const ajvAll = compileAll(createValidatorAjv({ allErrors: true }), model, bodies);
  // Not inlining `$ref`s: each referenced component is one function, called
  // where it is used, instead of a copy per use (AgentRunEvent's receive
  // build: 7.5 -> 6.6 kB min+gzip). The receive build is what a client bundles.
  const ajvReceive = compileAll(createValidatorAjv({ inlineRefs: false }), model, received, "receive");
  const runtime = runtimeImport(model, `${DIR}/index.js`);
  const modules = [
    ...names.map((name) => format(componentModuleSource(ajv, name, undefined, runtime))),
    ...bodies.map((name) => format(componentModuleSource(ajvAll, name, allErrorsName(name), runtime))),
    ...received.map((name) => format(componentModuleSource(ajvReceive, name, receiveName(name), runtime))),
  ];

  const finish = (formatted: readonly string[]): EmittedFile[] => {
    const top = header(model, "//");
    const files: EmittedFile[] = [];
    names.forEach((name, i) => {
      const base = `${DIR}/${validatorFile(name)}`;
      files.push({ path: `${base}.js`, contents: top + formatted[i]! });
      files.push({ path: `${base}.d.ts`, contents: top + componentDeclarations(name, { runtime }) });
    });
    bodies.forEach((name, i) => {
      const base = `${DIR}/${allErrorsFile(name)}`;
      files.push({ path: `${base}.js`, contents: top + formatted[names.length + i]! });
      files.push({ path: `${base}.d.ts`, contents: top + componentDeclarations(name, { allErrors: true, runtime }) });
    });
    received.forEach((name, i) => {
      const base = `${DIR}/${receiveFile(name)}`;
      files.push({ path: `${base}.js`, contents: top + formatted[names.length + bodies.length + i]! });
      files.push({ path: `${base}.d.ts`, contents: top + componentDeclarations(name, { receive: true, runtime }) });
    });
    files.push({ path: `${DIR}/index.js`, contents: top + indexModule(names, bodies, received) });
    files.push({ path: `${DIR}/index.d.ts`, contents: top + indexDeclarations(names, bodies, runtime, received) });

    for (const file of files) assertPortable(file.path, file.contents, runtime);
    return files;
  };
  return { modules, finish };
}

/**
 * `ajv` with the components added and `names` compiled, in sorted order:
 * ajv numbers functions and constants in compile order, so a fixed order
 * makes the output byte-deterministic.
 */
function compileAll(ajv: Ajv2020, model: LoadedSchema, names: readonly string[], level: "strict" | "receive" = "strict"): Ajv2020 {
  addComponents(ajv, model.schemas, { level });
  for (const name of names) {
    try {
      ajv.getSchema(componentRef(name));
    } catch (e) {
      if (e instanceof EmitError) throw e; // the receive-level rule's own error
      // ajv (strict mode) refuses the schema, e.g. a `prefixItems` tuple without `minItems`, or a
      // discriminated `oneOf` branch (a `false` one too) without the tag: a schema problem, not a bug.
      // ajv's own path is relative to the component compiled, or to one it references.
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `ajv cannot compile ${level === "receive" ? "the receive-level validator" : "a validator"} for #/components/schemas/${name} (or a schema it references): ${(e as Error).message}`,
        "Change the schema so ajv compiles it in strict mode (the message says what it refused); schema/CONVENTIONS.md lists the supported keywords.",
        `/components/schemas/${name}`,
      );
    }
  }
  return ajv;
}

/**
 * Every validator gets its own export and file name. File names are
 * compared case-insensitively: `ABTest` and `AbTest` (both `ab-test.js`)
 * would overwrite each other on macOS and Windows file systems.
 */
function checkFileNames(names: readonly string[], bodies: readonly string[], received: readonly string[]): void {
  const at = (name: string): string => formatPointer(["components", "schemas", name]);
  const collision = (message: string, first: string, second: string | undefined): EmitError =>
    new EmitError(
      "name-collision",
      "validators",
      message,
      "Rename one of the components (the naming rule: schema/CONVENTIONS.md, \"Names\").",
      at(first),
      second === undefined ? [] : [at(second)],
    );
  const exports = new Map(names.map((name) => [validatorName(name), name]));
  for (const name of bodies) {
    const other = exports.get(allErrorsName(name));
    if (other !== undefined) {
      throw collision(`component ${JSON.stringify(name)}'s all-errors validator ${allErrorsName(name)} has the name of component ${JSON.stringify(other)}'s validator.`, name, other);
    }
  }
  for (const name of received) {
    const other = exports.get(receiveName(name));
    if (other !== undefined) {
      throw collision(`component ${JSON.stringify(name)}'s receive-level validator ${receiveName(name)} has the name of component ${JSON.stringify(other)}'s validator.`, name, other);
    }
  }
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = validatorFile(name);
    const other = seen.get(file.toLowerCase());
    if (other !== undefined) {
      throw collision(`components ${JSON.stringify(other)} and ${JSON.stringify(name)} would both be written to validators/${file}.js (file names are compared ignoring case).`, other, name);
    }
    if (file === "index") throw collision(`component ${JSON.stringify(name)} would overwrite validators/${file}.js, a file of the generator's own.`, name, undefined);
    seen.set(file.toLowerCase(), name);
  }
}
