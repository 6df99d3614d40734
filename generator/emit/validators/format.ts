/**
 * Formatting of the validator modules: ajv writes each function on one
 * line; this breaks the line after each statement and block brace and
 * indents blocks, so the committed code reads (and diffs) statement by
 * statement. Only whitespace outside string literals is added, so the code
 * means what ajv wrote. Non-ASCII characters (in strings: patterns,
 * constants, messages) are written as `\u` escapes, so the files are ASCII.
 *
 * A small printer of its own rather than esbuild's: esbuild in `gen` cost a
 * service process and a worker thread per run, for three calls. It knows the
 * shape of ajv's output (no regular-expression or template literals, no
 * comments but `/* @__PURE__ *\/`), not JavaScript at large.
 */

const INDENT = "  ";
/** Words after which `{` opens a block rather than an object literal. */
const BLOCK_WORDS = new Set(["else", "try", "finally", "do"]);
/** Words that continue a statement after a block's `}`. */
const CONTINUATIONS = /^(?:else|catch|finally|while)\b/;

/** `code` with one statement per line and its blocks indented. */
export function formatModuleSync(code: string): string {
  const out: string[] = [];
  /** For each open `{`: whether it opened a block (true) or an object literal (false). */
  const braces: boolean[] = [];
  let depth = 0;
  let parens = 0;
  let line = "";
  const flush = (): void => {
    const text = line.trim();
    if (text !== "") out.push(INDENT.repeat(depth) + text);
    line = "";
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      line += code.slice(i, j + 1);
      i = j;
    } else if (c === "\n") {
      flush();
    } else if (c === "(" || c === "[") {
      parens++;
      line += c;
    } else if (c === ")" || c === "]") {
      parens--;
      line += c;
    } else if (c === "{") {
      const before = line.trimEnd();
      const word = /([\w$]+)$/.exec(before)?.[1];
      const block = before.endsWith(")") || before.endsWith("=>") || (word !== undefined && BLOCK_WORDS.has(word));
      braces.push(block);
      if (block) {
        line = `${before} {`;
        flush();
        depth++;
      } else {
        line += c;
      }
    } else if (c === "}") {
      const block = braces.pop() ?? false;
      if (!block) {
        line += c;
        continue;
      }
      flush();
      depth--;
      line = "}";
      const rest = code.slice(i + 1, i + 12).trimStart();
      if (CONTINUATIONS.test(rest)) line += " ";
      else if (!/^[);,.]/.test(rest)) flush();
    } else if (c === ";" && parens === 0 && (braces.length === 0 || braces[braces.length - 1])) {
      line += c;
      flush();
    } else if (c === " " && line === "") {
      // no leading blanks: the indentation is the printer's
    } else {
      line += c;
    }
  }
  flush();
  return `${out.join("\n")}\n`.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
