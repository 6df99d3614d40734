/**
 * JSON pointers (RFC 6901), once for the whole package: the generator reads
 * and writes them (through `@mantyx/wire-types/codegen/v1`), the tool
 * registry's JSON Schema checker names places by them, and generated code
 * reads values by them (generated/transcript.ts: codegen/v1 revision 10).
 * A pointer is held as its segments, unescaped; `/a/b~1c` is its text.
 */

/** A pointer's segments, unescaped (`["a", "b/c"]` for `/a/b~1c`). */
export type Pointer = readonly string[];

/** One segment as a pointer writes it: `~` as `~0`, `/` as `~1`. */
export const escapePointerSegment = (segment: string | number): string =>
  String(segment).replace(/~/g, "~0").replace(/\//g, "~1");

/** One segment of a pointer's text as the key it names: `~1` as `/`, then `~0` as `~`. */
export const unescapePointerSegment = (segment: string): string => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** The pointer's text: `""` for the root, else `/` before each escaped segment. */
export function formatPointer(segments: readonly (string | number)[]): string {
  return segments.map((segment) => `/${escapePointerSegment(segment)}`).join("");
}

/** The segments of `/a/b~1c` (no leading `#`); `""` is the root. Throws on a pointer that does not start with `/`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (pointer[0] != "/") throw new Error(`JSON pointer must start with "/": ${JSON.stringify(pointer)}`);
  return pointer.slice(1).split("/").map(unescapePointerSegment);
}

/**
 * The value at `segments` in a parsed JSON value, or `undefined` where a
 * segment is missing: an array's member by its index (digits, no leading
 * zero), an object's by an own key; nothing below a primitive.
 */
export function valueAtPointer(root: unknown, segments: Pointer): unknown {
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node != "object") return undefined;
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else {
      if (!Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
  }
  return node;
}
