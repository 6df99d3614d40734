/**
 * The promise of the generated validators, checked on their text: they run
 * anywhere JavaScript runs (browsers, Deno, Bun, edge workers, Node 20+)
 * without ajv. Generation fails if an emitted file breaks it.
 *
 * The text is read as code: string literals (the schema's enums, constants,
 * patterns) and comments are masked first (./code-literals.ts), so an enum
 * value `"import"` or a pattern `eval\(` is no import and no eval.
 */
import { maskLiterals } from "./code-literals.js";

/**
 * Each a name of the global scope, so never right after a `.`: `data.Buffer`
 * and `data.process.length` read a property the schema names (ajv writes
 * `data.name` for a property whose name is an identifier).
 */
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /(?<![.\w$])require\s*\(/,
    "require( (CommonJS; ajv runtime modules must be replaced by the runtime contract's helpers)",
  ],
  [/(?<![.\w$])eval\s*\(/, "eval( (blocked by CSP, not standalone)"],
  [/\bnew\s+Function\b|(?<![.\w$])Function\s*\(/, "new Function (blocked by CSP, compiles at run time)"],
  [/(?<![.\w$])import\s*\(/, "dynamic import("],
  [/(?<![.\w$])(?:process\.|Buffer\b|__dirname\b)/, "a Node-only global"],
];

/** On masked code: the specifier's quotes stay, its characters are filler, read back from the code by index (`d`). */
const IMPORT_SPECIFIER =
  /(?<![.\w$])(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|(?<![.\w$])import\s*["']([^"']+)["']/dg;

/**
 * Module specifiers a generated file may import: its own folder (the public
 * modules, the shared level modules in internal/), the runtime contract
 * (`runtime`: the specifiers it is imported by from validators/ and from
 * validators/internal/), and `../types.js` for declarations.
 */
export function isAllowedSpecifier(
  specifier: string,
  kind: "js" | "dts",
  ...runtime: ReadonlyArray<string | undefined>
): boolean {
  // What validatorFile (./names.ts) can produce: lower case, digits, `-` and `_`.
  if (/^\.\/(?:internal\/)?[a-z0-9_-]+(?:\.all-errors|\.receive)?\.js$/.test(specifier) || runtime.includes(specifier))
    return true;
  return kind === "dts" && specifier === "../types.js";
}

/** Problems that make `code` not portable; empty when it is fine. */
export function portabilityProblems(
  code: string,
  kind: "js" | "dts",
  ...runtime: ReadonlyArray<string | undefined>
): string[] {
  const masked = maskLiterals(code);
  const problems = FORBIDDEN.filter(([re]) => re.test(masked)).map(([, what]) => `contains ${what}`);
  for (const m of masked.matchAll(IMPORT_SPECIFIER)) {
    const span = m.indices![1] ?? m.indices![2];
    const specifier = span === undefined ? "" : code.slice(span[0], span[1]);
    if (!isAllowedSpecifier(specifier, kind, ...runtime))
      problems.push(
        `imports "${specifier}" (only files of generated/validators/ and the runtime contract may be imported)`,
      );
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
    throw new NotPortableError(
      `Generated ${path} is not standalone: ${problems.join("; ")}. Fix generator/emit/validators/.`,
    );
  }
}
