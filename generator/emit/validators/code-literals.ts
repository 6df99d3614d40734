/**
 * The generated validators' code is scanned and rewritten as text (the
 * portability check, the own-key and compaction rewrites). Schema values
 * are in that text as string literals (an `enum` of `["import", "teams"]`
 * is `"import","teams"`, a `pattern` is `new RegExp("eval\\(")`), and a
 * scan that reads them as code sees an import of `","`, an `eval(` or a
 * rewrite target where there is none. Every scan and rewrite of code text
 * goes through these two functions, which see code only: the contents of
 * string literals and comments are masked.
 *
 * The code they read is ajv's and this generator's: string literals in
 * `"`, `'` or `` ` `` (no `${}` inside: neither writes one), comments, and
 * regular-expression literals only where ajv writes them (`key.replace(/~/g,
 * "~0")`, after a `(` or `,`; a schema's `pattern` is `new RegExp("...")`).
 */

/** What stands for each character of a literal's contents: matched by `.` and `[^;]`, never by `\w`, `\s`, a quote, a bracket or `;`. */
const FILLER = "\u0001";

/**
 * The index after the string literal opened at `start`: after its closing
 * quote, the first one not escaped (an odd run of backslashes before a quote
 * escapes it), or the end of `code` for a literal that is not closed.
 */
export function stringEnd(code: string, start: number): number {
  const close = closingQuote(code, start);
  return close === -1 ? code.length : close + 1;
}

/** The index of the quote that closes the literal opened at `start`, or -1. */
function closingQuote(code: string, start: number): number {
  const quote = code[start]!;
  for (let from = start + 1; ; ) {
    const at = code.indexOf(quote, from);
    if (at === -1) return -1;
    let backslashes = 0;
    while (at - backslashes - 1 > start && code.charCodeAt(at - backslashes - 1) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return at;
    from = at + 1;
  }
}

/** Where a string literal, a comment or a regular-expression literal may start. */
const LITERAL_START = /["'`/]/g;

/** Characters after which a `/` starts a regular-expression literal (ajv's `key.replace(/~/g, "~0")`), not a division. */
const BEFORE_REGEX = new Set([
  "",
  "(",
  ",",
  "=",
  ":",
  "[",
  "!",
  "&",
  "|",
  "?",
  "{",
  "}",
  ";",
  "+",
  "-",
  "*",
  "%",
  "<",
  ">",
  "~",
  "^",
]);

/** The last character before `at` that is not a blank, or "". */
function previousSignificant(code: string, at: number): string {
  let i = at - 1;
  while (i >= 0 && (code[i] === " " || code[i] === "\t" || code[i] === "\n" || code[i] === "\r")) i--;
  return i < 0 ? "" : code[i]!;
}

/** The index of the `/` that closes the regular-expression literal opened at `start` (a `/` in a class or escaped does not), or -1. */
function regexClose(code: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === "\\") i++;
    else if (c === "\n") return -1;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "/") return i;
  }
  return -1;
}

/**
 * `code` with the contents of every string literal, comment and
 * regular-expression literal replaced by a filler character, one for one:
 * the same length, so an index into the result is the same place in
 * `code`. The quotes, slashes and comment markers stay, so a match can
 * still tell a literal is there.
 */
export function maskLiterals(code: string): string {
  // The rewrites mask the same text again and again (a replaceInCode that matches nothing returns its input,
  // which the next one masks): the last result is kept. Comparing with the last text is a pointer check when it is
  // the same string, and a length check almost always when it is not.
  if (code === lastMasked.code) return lastMasked.masked;
  const masked = maskUncached(code);
  lastMasked = { code, masked };
  return masked;
}

let lastMasked = { code: "", masked: "" };

function maskUncached(code: string): string {
  let out = "";
  let copied = 0;
  const mask = (from: number, to: number): void => {
    out += code.slice(copied, from) + FILLER.repeat(Math.max(0, to - from));
    copied = to;
  };
  LITERAL_START.lastIndex = 0;
  for (let m = LITERAL_START.exec(code); m !== null; m = LITERAL_START.exec(code)) {
    const start = m.index;
    let end: number;
    if (m[0] !== "/") {
      const close = closingQuote(code, start);
      end = close === -1 ? code.length : close + 1;
      mask(start + 1, close === -1 ? code.length : close);
    } else if (code[start + 1] === "*") {
      const close = code.indexOf("*/", start + 2);
      end = close === -1 ? code.length : close + 2;
      mask(start + 2, close === -1 ? code.length : close);
    } else if (code[start + 1] === "/") {
      const newline = code.indexOf("\n", start + 2);
      end = newline === -1 ? code.length : newline;
      mask(start + 2, end);
    } else if (BEFORE_REGEX.has(previousSignificant(code, start))) {
      const close = regexClose(code, start);
      if (close === -1) {
        end = start + 1; // not a literal after all: a division
      } else {
        end = close + 1;
        mask(start + 1, close);
      }
    } else {
      end = start + 1; // a division
    }
    LITERAL_START.lastIndex = end;
  }
  return copied === 0 ? code : out + code.slice(copied);
}

/**
 * `code.replace(pattern, replacement)` where `pattern` matches code only:
 * it runs on `maskLiterals(code)`, so nothing inside a string literal or a
 * comment starts, ends or is part of a match unless the pattern spans the
 * whole literal (a `"..."` in the pattern matches a literal as a whole).
 * `replacement` may use `$1`… `$9` (taken from `code`, literals unmasked)
 * and `$$`; or it is a function of the groups (from `code`) and the whole
 * match (from `code`). `pattern` must be global (`g`); the `d` flag is added.
 */
export function replaceInCode(
  code: string,
  pattern: RegExp,
  replacement: string | ((group: (n: number) => string, whole: string) => string),
): string {
  if (!pattern.global) throw new Error("replaceInCode needs a global pattern");
  const masked = maskLiterals(code);
  const withIndices = new RegExp(pattern.source, pattern.flags.includes("d") ? pattern.flags : `${pattern.flags}d`);
  let out = "";
  let copied = 0;
  for (const m of masked.matchAll(withIndices)) {
    const indices = m.indices!;
    const group = (n: number): string => {
      const span = indices[n];
      return span === undefined ? "" : code.slice(span[0], span[1]);
    };
    const whole = code.slice(m.index, m.index + m[0].length);
    const replaced =
      typeof replacement === "function"
        ? replacement(group, whole)
        : replacement.replace(/\$(\$|[1-9])/g, (_, which: string) => (which === "$" ? "$" : group(Number(which))));
    out += code.slice(copied, m.index) + replaced;
    copied = m.index + m[0].length;
  }
  return copied === 0 ? code : out + code.slice(copied);
}
