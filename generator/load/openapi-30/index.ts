/**
 * OpenAPI 3.0.0–3.0.4, read as written: the one step that gives each 3.0
 * idiom its OpenAPI 3.1 meaning, right after bundling and before anything
 * else reads the document. From then on the document is a 3.1 document
 * (`openapi: 3.1.0`), and every check and artefact is the one 3.1 gets:
 * the OAS 3.1 meta-schema checks its structure (what 3.0 and 3.1 share;
 * the schema keywords that differ are rewritten by then), types,
 * validators, the client, event streams, the mock and `diff` read it as
 * they read 3.1. What each schema idiom becomes: ./schema.ts.
 *
 * Positions survive: the rewrite records what moved (./history.ts), and
 * the document's `where` leads a pointer back to the line the author wrote.
 * A `$ref` into a schema that moved follows it.
 *
 * 3.0 has no `itemSchema`: a `text/event-stream` answer gets typed events
 * from `x-item-schema` where the document has one, plain string events
 * otherwise (as in 3.1).
 */
import type { BundledDocument } from "../bundle.js";
import { formatPointer, formatRefFragment, isPlainObject, parseRefFragment, type Pointer } from "../json-pointer.js";
import { findDiscriminatorMappings, findRefs } from "../refs.js";
import { RewriteHistory } from "./history.js";
import { readSchema30, type SchemaNotes } from "./schema.js";
import { visitSchemas } from "./walk.js";

/** What the 3.0 reading did that its author may want to know (warnings of `gen`). */
export interface OpenApi30Notes {
  /** The version the document states (`3.0.3`). */
  readonly version: string;
  /** Pointers (into the document as written) of the `$ref` siblings dropped, as 3.0 ignores them. */
  readonly droppedRefSiblings: readonly string[];
}

/** The version the 3.0 document becomes. */
export const READ_AS = "3.1.0";

/**
 * Rewrites the bundled 3.0 document in place as OpenAPI 3.1; returns the
 * document whose positions lead back to the text as written, and the notes.
 */
export function readOpenApi30(bundled: BundledDocument): { bundled: BundledDocument; notes: OpenApi30Notes } {
  const document = bundled.data as Record<string, unknown>;
  const version = String(document.openapi);
  const history = new RewriteHistory();
  const notes: SchemaNotes = { droppedRefSiblings: [] };
  visitSchemas(document, ({ path, schema, media }) => history.record(path, readSchema30(schema, path, media, notes)));
  if (!history.empty) followMoves(document, history);
  document.openapi = READ_AS;
  return {
    bundled: bundled.rewritten(history),
    notes: { version, droppedRefSiblings: notes.droppedRefSiblings.map(formatPointer) },
  };
}

/** Points each `$ref` and discriminator mapping written into a schema that moved at where it is now. */
function followMoves(document: Record<string, unknown>, history: RewriteHistory): void {
  const follow = (ref: string): string | undefined => {
    const segments = parseRefFragment(ref);
    // `#/components/schemas/Name`, the usual ref, cannot have moved: schemas move inside themselves.
    if (segments === undefined || segments.length <= 3) return undefined;
    const now = history.rewritten(segments);
    return sameSegments(now, segments) ? undefined : formatRefFragment(now);
  };
  for (const site of findRefs(document)) {
    const moved = follow(site.ref);
    if (moved !== undefined) site.holder.$ref = moved;
  }
  for (const { path, ref } of findDiscriminatorMappings(document)) {
    const moved = follow(ref);
    if (moved === undefined) continue;
    const mapping = getMapping(document, path);
    if (mapping !== undefined) mapping[path[path.length - 1]!] = moved;
  }
}

function sameSegments(a: Pointer, b: Pointer): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function getMapping(document: unknown, path: Pointer): Record<string, unknown> | undefined {
  let node: unknown = document;
  for (const segment of path.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : isPlainObject(node) ? node[segment] : undefined;
  return isPlainObject(node) ? node : undefined;
}
