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
import { formatPointer, formatRefFragment, parseRefFragment, type Pointer } from "../json-pointer.js";
import { mappingRef } from "../refs.js";
import { RewriteHistory } from "./history.js";
import { readSchema30, type SchemaNotes } from "./schema.js";
import { visitSchemas } from "./walk.js";

/** What the 3.0 reading did that its author may want to know (warnings of `gen`). */
export interface OpenApi30Notes {
  /** The version the document states (`3.0.3`). */
  readonly version: string;
  /** Pointers of the `$ref` siblings dropped, as 3.0 ignores them (where they would be in the rewritten document: its `where` finds them as written). */
  readonly droppedRefSiblings: readonly string[];
  /** Pointers of the `pattern`s left out: no ECMAScript regular expressions (likewise). */
  readonly droppedPatterns: readonly string[];
  /** Pointers of the `schema: null`s of media types and parameters, read as no schema (as written: nothing moves there). */
  readonly nullSchemas: readonly string[];
  /** Pointers of the operations' empty `responses: {}`, read as no `responses` (3.1 lets an operation leave them out). */
  readonly emptyResponses: readonly string[];
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
  const notes: SchemaNotes = { droppedRefSiblings: [], droppedPatterns: [], deepRefs: [], mappings: [] };
  const nullSchemas: string[] = [];
  visitSchemas(
    document,
    ({ path, schema, media }) => history.record(path, readSchema30(schema, path, media, notes)),
    (path) => nullSchemas.push(formatPointer(path)),
  );
  if (!history.empty) followMoves(notes, history);
  const emptyResponses = dropEmptyResponses(document);
  document.openapi = READ_AS;
  return {
    bundled: bundled.rewritten(history),
    notes: {
      version,
      droppedRefSiblings: notes.droppedRefSiblings.map((pointer) => formatPointer(history.rewritten(pointer))),
      droppedPatterns: notes.droppedPatterns.map((pointer) => formatPointer(history.rewritten(pointer))),
      nullSchemas,
      emptyResponses,
    },
  };
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * An operation's `responses: {}` (seen in the wild; 3.0 asks for at least
 * one response, openapi-typescript reads it as none): removed, as if not
 * written, which OpenAPI 3.1 allows. Returns their pointers (nothing moves).
 */
function dropEmptyResponses(document: Record<string, unknown>): string[] {
  const dropped: string[] = [];
  for (const root of ["paths", "webhooks"]) {
    const items = document[root];
    if (typeof items !== "object" || items === null) continue;
    for (const [key, item] of Object.entries(items as Record<string, unknown>)) {
      if (typeof item !== "object" || item === null) continue;
      for (const method of METHODS) {
        const operation = (item as Record<string, unknown>)[method] as Record<string, unknown> | undefined;
        const responses = operation?.responses;
        if (
          typeof responses !== "object" ||
          responses === null ||
          Array.isArray(responses) ||
          Object.keys(responses).length > 0
        )
          continue;
        dropped.push(formatPointer([root, key, method, "responses"]));
        delete operation!.responses;
      }
    }
  }
  return dropped;
}

/** Points each `$ref` and discriminator mapping written into a schema that moved at where it is now. */
function followMoves({ deepRefs, mappings }: SchemaNotes, history: RewriteHistory): void {
  const follow = (ref: string): string | undefined => {
    const segments = parseRefFragment(ref);
    // `#/components/schemas/Name`, the usual ref, cannot have moved: schemas move inside themselves.
    if (segments === undefined || segments.length <= 3) return undefined;
    const now = history.rewritten(segments);
    return sameSegments(now, segments) ? undefined : formatRefFragment(now);
  };
  for (const holder of deepRefs) {
    const moved = follow(holder.$ref as string);
    if (moved !== undefined) holder.$ref = moved;
  }
  for (const mapping of mappings) {
    for (const [tag, target] of Object.entries(mapping)) {
      const moved = typeof target === "string" ? follow(mappingRef(target)) : undefined;
      if (moved !== undefined) mapping[tag] = moved;
    }
  }
}

function sameSegments(a: Pointer, b: Pointer): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
