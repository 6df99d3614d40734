/**
 * JSON pointers (RFC 6901) as segment arrays, plus the `#/...` URI-fragment
 * form `$ref` uses (percent-encoded, RFC 3986 section 3.5).
 */

export type Pointer = readonly string[];

export function formatPointer(segments: Pointer): string {
  return segments.map((segment) => `/${segment.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** Parse `/a/b~1c` (no leading `#`). Throws on a pointer that does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) throw new Error(`JSON pointer must start with "/": ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"));
}

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
export function getAtPointer(root: unknown, segments: Pointer): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isPlainObject(node)) {
      if (!Object.hasOwn(node, segment)) return undefined;
      node = node[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

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
