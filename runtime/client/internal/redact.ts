/**
 * Internal: the forms a credential can come back in, and their removal from
 * text and from errors (with their cause chains). A server or proxy may echo
 * the credential it received into a body, a header, a content type, an SSE
 * frame or a redirect, raw or encoded; none of that may reach an error
 * message, a stack, a warning, or a value a caller logs.
 */

/** Removes every form of the credentials from a text. */
export type Redact = (text: string) => string;

const REDACTED = "[redacted]";

/**
 * The base64 digits that encode exactly the bytes of `key` when it starts
 * `shift` bytes into a 3-byte group (0, 1, 2): the part of any base64 text
 * containing the key at that alignment, whatever surrounds it.
 */
function base64Core(key: string, shift: number): string {
  let b64: string;
  try {
    b64 = btoa("\0".repeat(shift) + key);
  } catch {
    return ""; // not a byte string (a header value never is not)
  }
  // Digit i holds bits 6i..6i+5; keep those that hold only the key's bits.
  return b64.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + key.length)) / 6));
}

/**
 * A credential as sent, and as JSON (other encoders' escapes too), URL encoding (both hex cases, `+` for
 * a space, and the form encoding of a query string) and base64 (standard and URL-safe, at each alignment) write it.
 * None for an empty one.
 */
export function secretForms(key: string): string[] {
  if (!key) return [];
  const url = encodeURIComponent(key);
  const plus = url.replace(/%20/g, "+");
  // A query string or form body (URLSearchParams) also escapes !'()~.
  const form = plus.replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const json = JSON.stringify(key).slice(1, -1);
  // Other JSON encoders' escapes: `\/` (PHP), `\u0026` for `<>&` (Go) and for non-ASCII (Python's ensure_ascii; a header value is Latin-1).
  const ascii = json.replace(/[<>&\x7f-\xff]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
  const forms = [
    key,
    json,
    json.replace(/\//g, "\\/"),
    ascii,
    ascii.replace(/\//g, "\\/"),
    url,
    url.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    plus,
    form,
  ];
  for (const shift of [0, 1, 2]) {
    const core = base64Core(key, shift);
    // A short core would match unrelated text; 8 digits are 6 bytes of the key.
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

/** A Redact for these forms (longest first: a form inside a longer one is not cut out of it first). */
export function redactor(forms: readonly string[]): Redact {
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return (text) => sorted.reduce((t, form) => (t.includes(form) ? t.split(form).join(REDACTED) : t), text);
}

/** A JSON value with every form of the credentials removed from its strings and keys (undefined stays undefined). */
export const scrub = <T>(value: T, hide: Redact): T =>
  value === undefined ? value : (JSON.parse(hide(JSON.stringify(value))) as T);

/** Everything of an error a log or `inspect` would show: name, message, stack, own fields. */
function visibleText(error: Error): string {
  let fields = "";
  try {
    fields = JSON.stringify({ ...error });
  } catch {
    fields = String(Object.values(error));
  }
  return `${error.name}\n${error.message}\n${error.stack}\n${fields}`;
}

/**
 * `error` when no form of the credential shows in it or its causes, else a
 * copy (same name, `code`, and a redacted message, stack and cause chain).
 * For errors the client did not build (fetch's, the runtime's), which it
 * passes on as a `cause`.
 */
export function redactError(error: unknown, hide: Redact, depth = 0): unknown {
  if (typeof error == "string") return hide(error);
  if (!(error instanceof Error) || depth > 8) return error;
  const cause = redactError(error.cause, hide, depth + 1);
  const text = visibleText(error);
  if (cause === error.cause && hide(text) === text) return error;
  const copy = new Error(hide(error.message), cause === undefined ? undefined : { cause });
  copy.name = error.name;
  copy.stack = hide(String(error.stack));
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) Object.assign(copy, { code: typeof code == "string" ? hide(code) : code });
  return copy;
}
