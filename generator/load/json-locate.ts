/**
 * The offset of the value at a JSON pointer in a JSON text (or of its
 * key), found by scanning the text and skipping every value off the path,
 * without building a syntax tree. A `.json` schema used to be parsed a
 * second time by the `yaml` package for the position of its first problem
 * or warning: 5 s of a 13 MB document (GitHub's REST description). Like
 * the `yaml` lookup it replaces, a pointer that goes past what exists gives
 * the deepest existing value (and the key of the last segment found).
 * Only for text JSON.parse has accepted.
 */

/** Offsets of the value found and of its key (undefined for the root or an array item). */
export interface JsonSpot {
  readonly value: number;
  readonly key: number | undefined;
}

export function locateInJson(text: string, pointer: readonly string[]): JsonSpot {
  let at = skipBlank(text, 0);
  let key: number | undefined;
  for (const segment of pointer) {
    const found = text[at] === "{" ? member(text, at, segment) : text[at] === "[" ? item(text, at, segment) : undefined;
    if (found === undefined) break;
    at = found.value;
    key = found.key;
  }
  return { value: at, key };
}

function member(text: string, open: number, name: string): JsonSpot | undefined {
  let at = skipBlank(text, open + 1);
  while (text[at] === '"') {
    const keyStart = at;
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    at = skipBlank(text, skipBlank(text, keyEnd) + 1); // past the colon
    if (key === name) return { value: at, key: keyStart };
    at = skipBlank(text, skipValue(text, at));
    if (text[at] !== ",") return undefined;
    at = skipBlank(text, at + 1);
  }
  return undefined;
}

function item(text: string, open: number, segment: string): JsonSpot | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
  const index = Number(segment);
  let at = skipBlank(text, open + 1);
  if (text[at] === "]") return undefined;
  for (let i = 0; ; i++) {
    if (i === index) return { value: at, key: undefined };
    at = skipBlank(text, skipValue(text, at));
    if (text[at] !== ",") return undefined;
    at = skipBlank(text, at + 1);
  }
}

/** The characters a container's skip stops at: strings and brackets. */
const STRUCTURE = /["{}[\]]/g;

/** The offset just past the value starting at `at` (native searches, not a loop per character: a scan may cross megabytes). */
function skipValue(text: string, at: number): number {
  const c = text[at];
  if (c === '"') return skipString(text, at);
  if (c !== "{" && c !== "[") {
    while (at < text.length && !",}] \t\r\n".includes(text[at]!)) at++;
    return at;
  }
  let depth = 0;
  STRUCTURE.lastIndex = at;
  for (let match = STRUCTURE.exec(text); match !== null; match = STRUCTURE.exec(text)) {
    const ch = match[0];
    if (ch === '"') STRUCTURE.lastIndex = skipString(text, match.index);
    else if (ch === "{" || ch === "[") depth++;
    else if (--depth === 0) return match.index + 1;
  }
  return text.length;
}

/** The offset just past the string whose opening quote is at `at`. */
function skipString(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return text.length;
}

function skipBlank(text: string, at: number): number {
  while (at < text.length && (text[at] === " " || text[at] === "\n" || text[at] === "\r" || text[at] === "\t")) at++;
  return at;
}
