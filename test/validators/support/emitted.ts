/**
 * Runs the validators emitter into a temporary folder and imports the
 * result, and builds live ajv validators with the same options and keywords:
 * the two sides every differential test compares (model: ajv's
 * spec/ajv_standalone.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ErrorObject } from "ajv/dist/2020.js";
import { emitValidators } from "../../../generator/emit/validators.js";
import { addComponents, componentRef, createValidatorAjv } from "../../../generator/emit/validators/ajv.js";
import {
  allErrorsFile,
  allErrorsName,
  validatorFile,
  validatorName,
} from "../../../generator/emit/validators/names.js";
import type { EmittedFile, LoadedSchema } from "../../../generator/model.js";

export interface AnyValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export interface EmittedValidators {
  readonly dir: string;
  readonly files: readonly EmittedFile[];
  /** The emitted module's `validate<name>`, imported from disk. */
  get(name: string): Promise<AnyValidator>;
  /** The emitted all-errors build, `validate<name>AllErrors` (request bodies only). */
  getAllErrors(name: string): Promise<AnyValidator>;
}

/** The runtime contract as the emitted files import it from a temporary folder: this repository's source, by file URL. */
export const RUNTIME_URL = new URL("../../../runtime/codegen/v1.ts", import.meta.url).href;

export async function emitToTempDir(model: LoadedSchema): Promise<EmittedValidators> {
  const files = emitValidators({ ...model, runtime: RUNTIME_URL });
  const dir = mkdtempSync(join(tmpdir(), "wire-validators-"));
  // As in this package: .js files are ES modules.
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  const cache = new Map<string, AnyValidator>();
  const load = async (file: string, exportName: string): Promise<AnyValidator> => {
    let v = cache.get(file);
    if (!v) {
      const url = pathToFileURL(join(dir, "validators", `${file}.js`)).href;
      const mod = (await import(url)) as Record<string, AnyValidator>;
      v = mod[exportName];
      if (!v) throw new Error(`${url} does not export ${exportName}`);
      cache.set(file, v);
    }
    return v;
  };
  return {
    dir,
    files,
    get: (name) => load(validatorFile(name), validatorName(name)),
    getAllErrors: (name) => load(allErrorsFile(name), allErrorsName(name)),
  };
}

/** Live ajv (compiled at run time) with the emitter's options and keywords (`allErrors` for the all-errors builds). */
export function liveValidators(
  model: LoadedSchema,
  { allErrors = false }: { allErrors?: boolean } = {},
): (name: string) => AnyValidator {
  const ajv = createValidatorAjv(allErrors ? { allErrors } : {});
  addComponents(ajv, model.schemas);
  return (name) => {
    const v = ajv.getSchema(componentRef(name));
    if (!v) throw new Error(`no component ${name}`);
    return v as AnyValidator;
  };
}

/** Verdict and errors of one call, copied (validators reuse `errors`). */
export function run(v: AnyValidator, data: unknown): { valid: boolean; errors: ErrorObject[] | null } {
  const valid = v(data);
  return { valid, errors: v.errors ? structuredClone(v.errors) : null };
}
