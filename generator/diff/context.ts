/**
 * The state one comparison walks with: both documents, the side of the wire,
 * the findings so far, and the pairs already compared (so recursive schemas
 * terminate and a component reached from two operations is reported once per
 * side).
 */
import { formatPointer, getAtPointer, isPlainObject, parsePointer, parseRefFragment } from "../load/json-pointer.js";
import type { Change, Effect, Side } from "./change.js";
import { classify } from "./classify.js";
import { isAnnotationKeyword } from "./keyword-catalogue.js";

/** A schema (object or boolean) and where it sits in its document. */
export interface SchemaNode {
  readonly schema: unknown;
  readonly pointer: string;
}

/** An object schema, after `$ref`s are followed and booleans turned into objects. */
export interface ObjectNode {
  readonly schema: Readonly<Record<string, unknown>>;
  readonly pointer: string;
}

/**
 * What the parent knows about a subschema that its own keywords do not say.
 * - `openUnion`: this discriminated `oneOf` is the known half of an open union
 *   (an `if`/`else` passes other tags through), so a new variant is additive;
 * - `ignoreNotOf`: in this object, the `not` of that property mirrors the
 *   known tags of an open union and is compared as part of it, not alone.
 * - `ignoreNot`: this node's own `not` is such a mirror.
 */
export interface CompareHints {
  readonly openUnion?: boolean;
  readonly ignoreNotOf?: string;
  readonly ignoreNot?: boolean;
}

export type Compare = (context: DiffContext, old: SchemaNode, next: SchemaNode, hints?: CompareHints) => void;

export interface Finding extends Change {
  /** Whether the finding sits under an odd number of `not`s (for tests and review). */
  readonly inverted: boolean;
}

/** The findings of one diff, deduplicated by direction, kind and pointer (the first route that reached it names it). */
export class Findings {
  private readonly byKey = new Map<string, Finding>();

  add(finding: Finding): void {
    const key = `${finding.direction}\u0000${finding.kind}\u0000${finding.pointer}`;
    if (!this.byKey.has(key)) this.byKey.set(key, finding);
  }

  list(): Finding[] {
    return [...this.byKey.values()];
  }
}

export class DiffContext {
  constructor(
    readonly oldDocument: unknown,
    readonly newDocument: unknown,
    readonly side: Side,
    readonly via: string,
    readonly inverted: boolean,
    readonly findings: Findings,
    private readonly visited: Set<string>,
    readonly compare: Compare,
  ) {}

  /** The same walk on another side of the wire or from another route. */
  with(changes: { side?: Side; via?: string; inverted?: boolean }): DiffContext {
    return new DiffContext(
      this.oldDocument,
      this.newDocument,
      changes.side ?? this.side,
      changes.via ?? this.via,
      changes.inverted ?? this.inverted,
      this.findings,
      this.visited,
      this.compare,
    );
  }

  /** True the first time this pair is seen in this situation; later visits skip it. */
  firstVisit(old: SchemaNode, next: SchemaNode, hints: CompareHints): boolean {
    const key = [
      this.side,
      this.inverted,
      old.pointer,
      next.pointer,
      hints.openUnion === true,
      hints.ignoreNotOf ?? "",
      hints.ignoreNot === true,
    ].join("\u0000");
    if (this.visited.has(key)) return false;
    this.visited.add(key);
    return true;
  }

  report(kind: string, effect: Effect, pointer: string, values: { old?: unknown; new?: unknown } = {}): void {
    const finding: Finding = {
      direction: classify(effect, this.side, this.inverted),
      kind,
      pointer,
      ...(values.old === undefined ? {} : { old: values.old }),
      ...(values.new === undefined ? {} : { new: values.new }),
      via: this.via,
      inverted: this.inverted,
    };
    this.findings.add(finding);
  }

  /** Follow `$ref`s in the old document. */
  derefOld(node: SchemaNode): SchemaNode {
    return deref(this.oldDocument, node);
  }

  derefNew(node: SchemaNode): SchemaNode {
    return deref(this.newDocument, node);
  }
}

/** `pointer` + `/segment`, escaped. */
export function child(pointer: string, ...segments: string[]): string {
  return pointer + formatPointer(segments);
}

/**
 * Follow a `$ref` whose siblings are annotations only (3.1 allows a
 * `description` beside it) to its target, repeatedly. A `$ref` beside
 * assertions is left as it is: the composition rules compare it as
 * `allOf: [target, siblings]` (compare-unions.ts). A `$ref` that resolves
 * to nothing is an error (the loader refuses such documents first).
 */
export function deref(document: unknown, node: SchemaNode): SchemaNode {
  let current = node;
  const seen = new Set<string>();
  while (
    isPlainObject(current.schema) &&
    typeof current.schema.$ref === "string" &&
    refSiblingsAreAnnotations(current.schema)
  ) {
    const segments = parseRefFragment(current.schema.$ref);
    // The loader has checked every internal $ref resolves; a ref loop of pure refs has no schema at all.
    if (segments === undefined || seen.has(current.schema.$ref)) break;
    seen.add(current.schema.$ref);
    const target = getAtPointer(document, segments);
    if (target === undefined)
      throw new Error(
        `diff: the $ref ${JSON.stringify(current.schema.$ref)} at ${current.pointer} resolves to nothing; load documents with loadSchema, which checks every $ref`,
      );
    current = { schema: target, pointer: formatPointer(segments) };
  }
  return current;
}

export function refSiblingsAreAnnotations(schema: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(schema).every((key) => key === "$ref" || isAnnotationKeyword(key));
}

/** The pointer a `$ref` names, for matching branches that point at the same component. */
export function refTarget(schema: unknown): string | undefined {
  if (!isPlainObject(schema) || typeof schema.$ref !== "string") return undefined;
  const segments = parseRefFragment(schema.$ref);
  return segments === undefined ? undefined : formatPointer(segments);
}

export { isPlainObject, parsePointer };

/** The comparison of one group of keywords; it runs when either schema has one of them. */
export interface KeywordRule {
  readonly keywords: readonly string[];
  compare(context: DiffContext, old: ObjectNode, next: ObjectNode, hints: CompareHints): void;
}
