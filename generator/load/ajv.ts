/**
 * The loader's one ajv instance, created on first use. Compiling the OAS 3.1
 * meta-schema also compiles the JSON Schema 2020-12 meta-schema, which the
 * component check needs too; one instance compiles both once.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

let instance: Ajv2020 | undefined;

export function loaderAjv(): Ajv2020 {
  instance ??= createLoaderAjv();
  return instance;
}

/** A new instance with the loader's options; `source`: keeping the code, for ajv standalone (generator/scripts/prebuilt-assets.ts). */
export function createLoaderAjv({ source = false }: { source?: boolean } = {}): Ajv2020 {
  // Not strict: the meta-schemas are official texts, not ours to restyle.
  // `format` is an annotation here, as in CONVENTIONS.md. `verbose` puts the
  // failing schema on each error, which the messages use. The code
  // optimizer costs more (~0.1 s per run) than it saves on one document.
  return new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateFormats: false,
    code: { optimize: false, ...(source && { source: true }) },
  });
}
