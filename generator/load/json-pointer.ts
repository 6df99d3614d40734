/**
 * JSON pointers (RFC 6901) as segment arrays, plus the `#/...` URI-fragment
 * form `$ref` uses (percent-encoded, RFC 3986 section 3.5). The pointer
 * itself (escaping, parsing, reading a value) is the runtime's
 * (runtime/json-pointer.ts), which generated code reads values with too:
 * one implementation, reached through the runtime contract.
 */
import {
  escapePointerSegment,
  formatPointer,
  parsePointer,
  unescapePointerSegment,
  valueAtPointer,
  type Pointer,
} from "@mantyx/wire-types/codegen/v1";

export { escapePointerSegment, formatPointer, parsePointer, unescapePointerSegment, type Pointer };

/** Parse the fragment of an internal `$ref` (`#/components/schemas/Foo`). Returns undefined if not a pointer fragment. */
export function parseRefFragment(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  return parsePointer(fragment);
}

/** `#/a/b` for a ref: pointer-escaped and with the characters a URI fragment cannot hold percent-encoded. */
export function formatRefFragment(segments: Pointer): string {
  return `#${formatPointer(segments).replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?]/g, (c) => encodeURIComponent(c))}`;
}

/** The value at `segments` in a parsed JSON value, or `undefined` when a segment is missing. */
export const getAtPointer: (root: unknown, segments: Pointer) => unknown = valueAtPointer;

/** How far a pointer resolves: the number of leading segments that exist. */
export function resolvedDepth(root: unknown, segments: Pointer): number {
  for (let depth = 0; depth < segments.length; depth++) {
    if (getAtPointer(root, segments.slice(0, depth + 1)) === undefined) return depth;
  }
  return segments.length;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
