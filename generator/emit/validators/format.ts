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
 *
 * It reads the code a run at a time (the text up to the next quote, bracket,
 * brace, `;` or line break) rather than a
 * character at a time: the three modules are about a megabyte, and looking
 * at every character cost a twentieth of `gen`.
 */

import { stringEnd } from "./code-literals.js";

const INDENT = "  ";
/**
 * Blocks deeper than this are indented no further. ajv's first-error code
 * nests one block per property it checks, so an object of a hundred
 * properties inline (GitHub's webhook payloads: up to 170 blocks deep) made
 * a module of mostly spaces (46 of its 71 MB); past this depth a reader
 * gains nothing from more. The MANTYX schema's validators stay well above
 * it (21 at most).
 */
const MAX_INDENT_DEPTH = 32;
/** Words after which `{` opens a block rather than an object literal. */
const BLOCK_WORDS = new Set(["else", "try", "finally", "do"]);
/** The longest of BLOCK_WORDS: a longer word is none of them. */
const LONGEST_BLOCK_WORD = 7;
/** Words that continue a statement after a block's `}`. */
const CONTINUATIONS = /^(?:else|catch|finally|while)\b/;
/** The characters the printer acts on (by code); everything between them is copied as it is. */
const SPECIAL: readonly boolean[] = Array.from({ length: 0x80 }, (_, code) =>
  `"'\n()[]{};`.includes(String.fromCharCode(code)),
);
const WHITESPACE = /\s/;

const CODE_GT = 0x3e;
const CODE_EQ = 0x3d;
const CODE_CLOSE_PAREN = 0x29;

function isWordCode(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
}

/** `/\s/` for one character, the common ASCII ones without a regular expression. */
function isBlankAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && WHITESPACE.test(text[i]!);
}

/** `code` with one statement per line and its blocks indented. */
export function formatModuleSync(code: string): string {
  const out: string[] = [];
  /** For each open `{`: whether it opened a block (true) or an object literal (false). */
  const braces: boolean[] = [];
  let depth = 0;
  let parens = 0;
  let line = "";
  // What a `{` needs to know of the line before it, kept as the line grows
  // (reading the line itself at each `{` made a large schema's validators
  // quadratic): the line's last non-blank character, the one just before it
  // when no blank separates them, and the identifier the line ends with.
  /** The last non-blank character's code, or -1 on an empty line. */
  let last = -1;
  /** The character right before `last` when no blank separates them, or -1. */
  let before = -1;
  /** The identifier that ends at `last` when it is short enough to be a block word, else "". */
  let word = "";
  /** Whether blanks follow `last`. */
  let blank = false;

  /** Appends code that is no string literal, keeping `last`, `before`, `word` and `blank`. */
  const appendCode = (text: string): void => {
    line += text;
    let k = text.length - 1;
    while (k >= 0 && isBlankAt(text, k)) k--;
    if (k < 0) {
      if (last !== -1 && text.length > 0) blank = true;
      return;
    }
    const c = text.charCodeAt(k);
    if (k > 0 && !isBlankAt(text, k - 1)) before = text.charCodeAt(k - 1);
    else if (k === 0 && !blank && last !== -1) before = last;
    else before = -1;
    if (isWordCode(c)) {
      let s = k;
      while (s > 0 && isWordCode(text.charCodeAt(s - 1))) s--;
      // A word never continues across appends: what precedes a run of code is a quote, bracket, brace or `;`.
      word = k - s < LONGEST_BLOCK_WORD ? text.slice(s, k + 1) : "";
    } else word = "";
    last = c;
    blank = k < text.length - 1;
  };
  /** Appends a string literal: it ends the line's identifier, and its closing quote is the last character. */
  const appendString = (text: string): void => {
    line += text;
    last = text.charCodeAt(text.length - 1);
    before = -1;
    word = "";
    blank = false;
  };
  const flush = (): void => {
    const text = line.trim();
    if (text !== "") out.push(INDENT.repeat(Math.min(depth, MAX_INDENT_DEPTH)) + text);
    line = "";
    last = -1;
    before = -1;
    word = "";
    blank = false;
  };
  /** Copies `code.slice(from, to)`, none of it special; blanks that would start a line are the printer's to write. */
  const copy = (from: number, to: number): void => {
    if (line === "") while (from < to && code.charCodeAt(from) === 0x20) from++;
    if (from < to) appendCode(code.slice(from, to));
  };

  let run = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c >= 0x80 || !SPECIAL[c]) continue;
    copy(run, i);
    if (c === 0x22 || c === 0x27) {
      const end = stringEnd(code, i);
      appendString(code.slice(i, end));
      i = end - 1;
    } else if (c === 0x0a) {
      flush();
    } else if (c === 0x28 || c === 0x5b) {
      parens++;
      appendCode(code[i]!);
    } else if (c === 0x29 || c === 0x5d) {
      parens--;
      appendCode(code[i]!);
    } else if (c === 0x7b) {
      const block = last === CODE_CLOSE_PAREN || (last === CODE_GT && before === CODE_EQ) || BLOCK_WORDS.has(word);
      braces.push(block);
      if (block) {
        line = `${line.trimEnd()} {`;
        flush();
        depth++;
      } else {
        appendCode("{");
      }
    } else if (c === 0x7d) {
      const block = braces.pop() ?? false;
      if (!block) {
        appendCode("}");
      } else {
        flush();
        depth--;
        appendCode("}");
        const rest = code.slice(i + 1, i + 12).trimStart();
        if (CONTINUATIONS.test(rest)) appendCode(" ");
        else if (!/^[);,.]/.test(rest)) flush();
      }
    } else if (parens === 0 && (braces.length === 0 || braces[braces.length - 1])) {
      // `;` ending a statement
      appendCode(";");
      flush();
    } else {
      appendCode(";");
    }
    run = i + 1;
  }
  copy(run, code.length);
  flush();
  return `${out.join("\n")}\n`.replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
