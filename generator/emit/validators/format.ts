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
const WHITESPACE = /\s/;
const WORD_CHAR = /[\w$]/;

/** `code` with one statement per line and its blocks indented. */
export function formatModuleSync(code: string): string {
  const out: string[] = [];
  /** For each open `{`: whether it opened a block (true) or an object literal (false). */
  const braces: boolean[] = [];
  let depth = 0;
  let parens = 0;
  let line = "";
  // What a `{` needs to know of the line before it, kept as the line grows:
  // reading the line itself at each `{` (an object literal keeps all its
  // `{`s on one line) made formatting a large schema's validators quadratic.
  /** The last two characters of the line, its trailing blanks left out. */
  let tail = "";
  /** The identifier the line ends with (before its trailing blanks), or "". */
  let word = "";
  /** Whether blanks follow the line's last other character. */
  let blank = false;
  const append = (text: string): void => {
    line += text;
    for (const ch of text.length > 2 ? text.slice(-2) : text) {
      if (WHITESPACE.test(ch)) {
        if (tail !== "") blank = true;
        continue;
      }
      const continues = !blank && tail !== "";
      word = WORD_CHAR.test(ch) && text.length <= 2 ? (continues && WORD_CHAR.test(tail[tail.length - 1]!) ? word + ch : ch) : "";
      tail = ((continues ? tail : blank ? " " : "") + ch).slice(-2);
      blank = false;
    }
  };
  const flush = (): void => {
    const text = line.trim();
    if (text !== "") out.push(INDENT.repeat(depth) + text);
    line = "";
    tail = "";
    word = "";
    blank = false;
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === "\\" ? 2 : 1;
      append(code.slice(i, j + 1));
      i = j;
    } else if (c === "\n") {
      flush();
    } else if (c === "(" || c === "[") {
      parens++;
      append(c);
    } else if (c === ")" || c === "]") {
      parens--;
      append(c);
    } else if (c === "{") {
      const block = tail.endsWith(")") || tail === "=>" || BLOCK_WORDS.has(word);
      braces.push(block);
      if (block) {
        line = `${line.trimEnd()} {`;
        flush();
        depth++;
      } else {
        append(c);
      }
    } else if (c === "}") {
      const block = braces.pop() ?? false;
      if (!block) {
        append(c);
        continue;
      }
      flush();
      depth--;
      append("}");
      const rest = code.slice(i + 1, i + 12).trimStart();
      if (CONTINUATIONS.test(rest)) append(" ");
      else if (!/^[);,.]/.test(rest)) flush();
    } else if (c === ";" && parens === 0 && (braces.length === 0 || braces[braces.length - 1])) {
      append(c);
      flush();
    } else if (c === " " && line === "") {
      // no leading blanks: the indentation is the printer's
    } else {
      append(c);
    }
  }
  flush();
  return `${out.join("\n")}\n`.replace(/[^\x00-\x7f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
