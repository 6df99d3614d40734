/** The `.d.ts` text beside each generated validator module. */
import { typeName } from "../types/names.js";
import { allErrorsFile, allErrorsName, validatorFile, validatorName } from "./names.js";

const FIRST_ERROR = `Stops at the first failing keyword. After the call, \`{fn}.errors\` is
 * \`null\` if \`data\` is valid, else the issues found (see ValidationIssue).`;

const ALL_ERRORS = `Collects every failing keyword (ajv \`allErrors\`): slower than
 * \`{fast}\`, which stops at the first; meant for listing every
 * problem of a rejected request body. After the call, \`{fn}.errors\` is
 * \`null\` if \`data\` is valid, else all the issues found (see ValidationIssue).`;

/** Declarations of component `name`'s validator module (`allErrors`: of its all-errors build). */
export function componentDeclarations(name: string, { allErrors = false, runtime = "@mantyx/wire-types/codegen/v1" }: { allErrors?: boolean; runtime?: string } = {}): string {
  const fn = allErrors ? allErrorsName(name) : validatorName(name);
  const behaviour = (allErrors ? ALL_ERRORS : FIRST_ERROR).replaceAll("{fn}", fn).replaceAll("{fast}", validatorName(name));
  const type = typeName(name);
  // The component name as a pointer, in a comment: `*/` in a name must not end it.
  const pointer = `#/components/schemas/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`.replace(/\*\//g, "*\\/");
  return `import type { ${type} } from "../types.js";
import type { ValidationIssue } from ${JSON.stringify(runtime)};

/**
 * Checks \`data\` against \`${pointer}\` of schema/openapi.yaml,
 * vendor keywords (x-max-utf8-bytes, ...) included. A type guard: \`true\`
 * narrows \`data\` to \`${type}\`.
 *
 * ${behaviour}
 */
export declare function ${fn}(data: unknown): data is ${type};
export declare namespace ${fn} {
  /** \`null\` after a valid call; after an invalid one, what failed (see ValidationIssue). */
  let errors: ValidationIssue[] | null;
}
`;
}

/** Declarations of index.js: every validator by name, and the public types. */
export function indexDeclarations(names: readonly string[], allErrors: readonly string[], runtime = "@mantyx/wire-types/codegen/v1"): string {
  return `${exportLines(names, allErrors)}export type { ValidationIssue, Validator } from ${JSON.stringify(runtime)};\n`;
}

/** index.js: explicit named re-exports (no \`export *\`), one line per validator. */
export function indexModule(names: readonly string[], allErrors: readonly string[]): string {
  return exportLines(names, allErrors);
}

function exportLines(names: readonly string[], allErrors: readonly string[]): string {
  const lines = names.map((n) => `export { ${validatorName(n)} } from "./${validatorFile(n)}.js";`);
  for (const n of allErrors) lines.push(`export { ${allErrorsName(n)} } from "./${allErrorsFile(n)}.js";`);
  return `${lines.join("\n")}\n`;
}
