/**
 * What generator/scripts/build.mjs compiles once, at build time, for the
 * published bundle to load instead of compiling at every run (../prebuilt.ts):
 * - the meta-schema validators (../load/meta-validators.ts), the vendor
 *   keywords' value validators (../load/validate-schemas.ts) and the case
 *   format's (../emit/fixtures/case-format-check.ts), as ajv standalone code
 *   from the very instances the sources compile them with;
 * - the client templates (../templates.ts), precompiled by Handlebars with
 *   the options the sources compile them with.
 * Each file is CommonJS (what ajv's standalone code and Handlebars'
 * precompiled specs are written as), loaded by `require`.
 * `tsx generator/scripts/prebuilt-assets.ts <dir>` writes them into <dir>.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Handlebars from "handlebars";
import standalone from "ajv/dist/standalone/index.js";
import { caseFormatAjv, CASE_FORMAT_VALIDATORS_FILE } from "../emit/fixtures/case-format-check.js";
import { CASE_FORMAT_REFS } from "../emit/fixtures/format-doc.js";
import { createLoaderAjv } from "../load/ajv.js";
import { compileMetaValidator, META_SCHEMAS, metaValidatorFile } from "../load/meta-validators.js";
import { addVendorValueSchemas, VENDOR_VALUES_FILE } from "../load/validate-schemas.js";
import { PRECOMPILED_TEMPLATES_FILE, TEMPLATE_FILES, TEMPLATE_OPTIONS, templateSource } from "../templates.js";

// ajv's standalone module is CommonJS with `exports.default` (read through the default import, as test/validators/shared-code.test.ts does).
const standaloneCode = standalone.default;

export interface PrebuiltFile {
  /** Relative to the prebuilt folder. */
  readonly path: string;
  readonly contents: string;
}

export function prebuiltAssets(): PrebuiltFile[] {
  const files: PrebuiltFile[] = [];
  for (const which of META_SCHEMAS) {
    const loader = createLoaderAjv({ source: true });
    files.push({
      path: metaValidatorFile(which),
      contents: standaloneCode(loader, compileMetaValidator(which, loader)),
    });
  }
  const vendorValues = createLoaderAjv({ source: true });
  files.push({ path: VENDOR_VALUES_FILE, contents: standaloneCode(vendorValues, addVendorValueSchemas(vendorValues)) });
  const caseFormat = caseFormatAjv({ source: true });
  files.push({
    path: CASE_FORMAT_VALIDATORS_FILE,
    contents: standaloneCode(caseFormat, Object.fromEntries(CASE_FORMAT_REFS.map((ref) => [ref, ref]))),
  });
  const specs = TEMPLATE_FILES.map(
    (file) => `  ${JSON.stringify(file)}: ${Handlebars.precompile(templateSource(file), TEMPLATE_OPTIONS)}`,
  );
  files.push({
    path: PRECOMPILED_TEMPLATES_FILE,
    contents: `"use strict";\nmodule.exports = {\n${specs.join(",\n")}\n};\n`,
  });
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (dir === undefined) throw new Error("usage: tsx generator/scripts/prebuilt-assets.ts <dir>");
  mkdirSync(dir, { recursive: true });
  for (const file of prebuiltAssets()) writeFileSync(join(dir, file.path), file.contents);
}
