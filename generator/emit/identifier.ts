/** A JavaScript identifier (ASCII): what a component name, an operationId or a property key must be to be written bare in generated code. */
export const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The reserved words of strict code (the ECMAScript ones and the strict-mode
 * ones): no binding and no type may be named by them. A property or method
 * may still be.
 */
export const RESERVED_WORDS: readonly string[] = [
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "enum",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
];

/**
 * Words no binding (a `const`, a function parameter) may be named in a
 * module, which is strict code: the reserved words, `await` (reserved in
 * modules), and `arguments` / `eval` (which strict code cannot bind).
 */
export const RESERVED_BINDINGS: ReadonlySet<string> = new Set([...RESERVED_WORDS, "await", "arguments", "eval"]);

/**
 * `name` as a binding that is neither a reserved word nor one of `taken`
 * (names the scope already has): `_` appended until it is free
 * (`class` -> `class_`, `delete` -> `delete_`).
 */
export function bindingName(name: string, taken: ReadonlySet<string> = new Set()): string {
  let binding = name;
  while (RESERVED_BINDINGS.has(binding) || taken.has(binding)) binding = `${binding}_`;
  return binding;
}
