/** The `.d.ts` text beside each generated validator module. */
import { kebabCase, validatorName } from "./names.js";

/** Declarations of component `name`'s validator module. */
export function componentDeclarations(name: string): string {
  const fn = validatorName(name);
  return `import type { ${name} } from "../types.js";
import type { ValidationIssue } from "./runtime.js";

/**
 * Checks \`data\` against \`#/components/schemas/${name}\` of schema/openapi.yaml,
 * vendor keywords (x-max-utf8-bytes, ...) included. A type guard: \`true\`
 * narrows \`data\` to \`${name}\`.
 *
 * Stops at the first failing keyword. After the call, \`${fn}.errors\` is
 * \`null\` if \`data\` is valid, else the issues found (see ValidationIssue).
 */
export declare function ${fn}(data: unknown): data is ${name};
export declare namespace ${fn} {
  /** \`null\` after a valid call; after an invalid one, what failed (see ValidationIssue). */
  let errors: ValidationIssue[] | null;
}
`;
}

/** Declarations of index.js: every validator by name, and the public types. */
export function indexDeclarations(names: readonly string[]): string {
  const lines = names.map((n) => `export { ${validatorName(n)} } from "./${kebabCase(n)}.js";`);
  return `${lines.join("\n")}\nexport type { ValidationIssue, Validator } from "./runtime.js";\n`;
}

/** index.js: explicit named re-exports (no \`export *\`), one line per validator. */
export function indexModule(names: readonly string[]): string {
  return `${names.map((n) => `export { ${validatorName(n)} } from "./${kebabCase(n)}.js";`).join("\n")}\n`;
}
