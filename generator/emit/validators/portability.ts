/**
 * The promise of the generated validators, checked on their text: they run
 * anywhere JavaScript runs (browsers, Deno, Bun, edge workers, Node 20+)
 * without ajv. Generation fails if an emitted file breaks it.
 */

const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\brequire\s*\(/, "require( (CommonJS; ajv runtime modules must be replaced by the runtime contract's helpers)"],
  [/\beval\s*\(/, "eval( (blocked by CSP, not standalone)"],
  [/\bnew\s+Function\b|\bFunction\s*\(/, "new Function (blocked by CSP, compiles at run time)"],
  [/\bimport\s*\(/, "dynamic import("],
  [/\bprocess\.|\bBuffer\b|\b__dirname\b/, "a Node-only global"],
];

const IMPORT_SPECIFIER = /\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']/g;

/**
 * Module specifiers a generated file may import: its own folder (the public
 * modules, the shared level modules in internal/), the runtime contract
 * (`runtime`: the specifiers it is imported by from validators/ and from
 * validators/internal/), and `../types.js` for declarations.
 */
export function isAllowedSpecifier(specifier: string, kind: "js" | "dts", ...runtime: ReadonlyArray<string | undefined>): boolean {
  // What validatorFile (./names.ts) can produce: lower case, digits, `-` and `_`.
  if (/^\.\/(?:internal\/)?[a-z0-9_-]+(?:\.all-errors|\.receive)?\.js$/.test(specifier) || runtime.includes(specifier)) return true;
  return kind === "dts" && specifier === "../types.js";
}

/** Problems that make `code` not portable; empty when it is fine. */
export function portabilityProblems(code: string, kind: "js" | "dts", ...runtime: ReadonlyArray<string | undefined>): string[] {
  const problems = FORBIDDEN.filter(([re]) => re.test(code)).map(([, what]) => `contains ${what}`);
  for (const m of code.matchAll(IMPORT_SPECIFIER)) {
    const specifier = m[1] ?? m[2] ?? "";
    if (!isAllowedSpecifier(specifier, kind, ...runtime)) problems.push(`imports "${specifier}" (only files of generated/validators/ and the runtime contract may be imported)`);
  }
  return problems;
}

export class NotPortableError extends Error {
  override readonly name = "NotPortableError";
  readonly code = "not-portable";
}

/** Throws `NotPortableError` listing every problem of `code`. */
export function assertPortable(path: string, code: string, ...runtime: ReadonlyArray<string | undefined>): void {
  const kind = path.endsWith(".d.ts") ? "dts" : "js";
  const problems = portabilityProblems(code, kind, ...runtime);
  if (problems.length > 0) {
    throw new NotPortableError(`Generated ${path} is not standalone: ${problems.join("; ")}. Fix generator/emit/validators/.`);
  }
}
