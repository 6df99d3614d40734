/** The `.d.ts` text beside each generated validator module. */
import { escapePointerSegment } from "../../load/json-pointer.js";
import type { ComponentNames } from "../component-names.js";

const FIRST_ERROR = `Stops at the first failing keyword. After the call, \`{fn}.errors\` is
 * \`null\` if \`data\` is valid, else the issues found (see ValidationIssue).`;

const ALL_ERRORS = `Collects every failing keyword (ajv \`allErrors\`): slower than
 * \`{fast}\`, which stops at the first; meant for listing every
 * problem of a rejected request body. After the call, \`{fn}.errors\` is
 * \`null\` if \`data\` is valid, else all the issues found (see ValidationIssue).`;

const STRICT_LEVEL = `vendor keywords (x-max-utf8-bytes, ...) included: the strict level.`;

const RECEIVE_LEVEL = `at the receive level (schema/CONVENTIONS.md, "Two validation levels"):
 * the shape the type promises (required fields and their types,
 * discriminators), not the strict-only rules (closed lists, formats,
 * limits, cross-field rules), so a message a newer server extends is accepted.
 * What a client applies to what it reads; {strict} checks everything.`;

/**
 * Declarations of component `name`'s validator module (`allErrors`: of its
 * all-errors build; `receive`: of its receive-level build).
 */
export function componentDeclarations(
  names: ComponentNames,
  name: string,
  {
    allErrors = false,
    receive = false,
    runtime = "@mantyx/wire-types/codegen/v1",
  }: { allErrors?: boolean; receive?: boolean; runtime?: string } = {},
): string {
  const fn = allErrors ? names.allErrorsName(name) : receive ? names.receiveName(name) : names.validatorName(name);
  const behaviour = (allErrors ? ALL_ERRORS : FIRST_ERROR)
    .replaceAll("{fn}", fn)
    .replaceAll("{fast}", names.validatorName(name));
  const level = receive ? RECEIVE_LEVEL.replace("{strict}", `\`${names.validatorName(name)}\``) : STRICT_LEVEL;
  const type = names.type(name);
  // The component name as a pointer, in a comment: `*/` in a name must not end it.
  const pointer = `#/components/schemas/${escapePointerSegment(name)}`.replace(/\*\//g, "*\\/");
  return `import type { ${type} } from "../types.js";
import type { ValidationIssue } from ${JSON.stringify(runtime)};

/**
 * Checks \`data\` against \`${pointer}\` of schema/openapi.yaml,
 * ${level} A type guard: \`true\`
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
export function indexDeclarations(
  naming: ComponentNames,
  names: readonly string[],
  allErrors: readonly string[],
  runtime = "@mantyx/wire-types/codegen/v1",
  receive: readonly string[] = [],
): string {
  return `${exportLines(naming, names, allErrors, receive)}export type { ValidationIssue, Validator } from ${JSON.stringify(runtime)};
`;
}

/** index.js: explicit named re-exports (no \`export *\`), one line per validator. */
export function indexModule(
  naming: ComponentNames,
  names: readonly string[],
  allErrors: readonly string[],
  receive: readonly string[] = [],
): string {
  return exportLines(naming, names, allErrors, receive);
}

function exportLines(
  naming: ComponentNames,
  names: readonly string[],
  allErrors: readonly string[],
  receive: readonly string[],
): string {
  const lines = names.map((n) => `export { ${naming.validatorName(n)} } from "./${naming.validatorFile(n)}.js";`);
  for (const n of allErrors)
    lines.push(`export { ${naming.allErrorsName(n)} } from "./${naming.allErrorsFile(n)}.js";`);
  for (const n of receive) lines.push(`export { ${naming.receiveName(n)} } from "./${naming.receiveFile(n)}.js";`);
  return `${lines.join("\n")}\n`;
}
