/**
 * `not` (compared with the sets inverted) and `if`/`then`/`else`, including
 * the project's open union (CONVENTIONS.md, `AgentRunEvent`):
 *
 *   if: { properties: { type: { enum: [known tags] } } }
 *   then: a discriminated oneOf of the known variants
 *   else: the fallback, whose `type` is `not: { enum: [known tags] }`
 *
 * The `if` list and the fallback's `not` only mirror the known tags, so they
 * are not compared on their own: the union is compared variant by variant
 * (a removed event type breaks readers, a new one is additive: the
 * protocol delivers unknown types), and the fallback is compared without
 * its mirror.
 */
import {
  child,
  isPlainObject,
  type DiffContext,
  type KeywordRule,
  type ObjectNode,
  type SchemaNode,
} from "./context.js";
import { sameJson, setDifference } from "./json-values.js";
import { tagOf } from "./compare-unions.js";

function sub(node: ObjectNode, keyword: string): SchemaNode {
  return { schema: node.schema[keyword] ?? true, pointer: child(node.pointer, keyword) };
}

function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  const { added, removed } = setDifference(a, b);
  return added.length === 0 && removed.length === 0;
}

/** The tag property of an open union at `node`, or undefined when `node` is not one. */
function openUnionTag(context: DiffContext, node: ObjectNode, document: "old" | "new"): string | undefined {
  const deref = (child: SchemaNode): SchemaNode =>
    document === "old" ? context.derefOld(child) : context.derefNew(child);
  const known = deref(sub(node, "then")).schema;
  const fallback = deref(sub(node, "else")).schema;
  const condition = deref(sub(node, "if")).schema;
  if (!isPlainObject(known) || !Array.isArray(known.oneOf) || !isPlainObject(known.discriminator)) return undefined;
  const tag = known.discriminator.propertyName;
  if (typeof tag !== "string" || !isPlainObject(fallback) || !isPlainObject(condition)) return undefined;
  const listed =
    isPlainObject(condition.properties) && isPlainObject(condition.properties[tag])
      ? condition.properties[tag].enum
      : undefined;
  const fallbackTag = isPlainObject(fallback.properties)
    ? deref({ schema: fallback.properties[tag], pointer: "" }).schema
    : undefined;
  const excluded = isPlainObject(fallbackTag) && isPlainObject(fallbackTag.not) ? fallbackTag.not.enum : undefined;
  if (!Array.isArray(listed) || !Array.isArray(excluded) || !sameSet(listed, excluded)) return undefined;
  const tags = known.oneOf.map((branch, index) =>
    tagOf(context, { schema: branch, pointer: child(node.pointer, "then", "oneOf", String(index)) }, tag, document),
  );
  return sameSet(listed, tags) ? tag : undefined;
}

export const conditionalRule: KeywordRule = {
  keywords: ["if", "then", "else"],
  compare(context, old, next) {
    const oldTag = openUnionTag(context, old, "old");
    if (oldTag !== undefined && oldTag === openUnionTag(context, next, "new")) {
      context.compare(context, sub(old, "then"), sub(next, "then"), { openUnion: true });
      context.compare(context, sub(old, "else"), sub(next, "else"), { ignoreNotOf: oldTag });
      return;
    }
    const before = old.schema.if;
    const after = next.schema.if;
    // Without `if`, `then` and `else` are ignored by JSON Schema.
    if (before === undefined && after === undefined) return;
    if (before === undefined) return context.report("condition-added", "narrow", child(next.pointer, "if"));
    if (after === undefined) return context.report("condition-removed", "widen", child(old.pointer, "if"));
    if (!sameJson(before, after))
      context.report("condition-changed", "change", child(next.pointer, "if"), { old: before, new: after });
    for (const keyword of ["then", "else"]) {
      if (old.schema[keyword] !== undefined || next.schema[keyword] !== undefined)
        context.compare(context, sub(old, keyword), sub(next, keyword));
    }
  },
};

export const notRule: KeywordRule = {
  keywords: ["not"],
  compare(context, old, next, hints) {
    if (hints.ignoreNot === true) return;
    const before = old.schema.not;
    const after = next.schema.not;
    if (before === undefined) return context.report("not-added", "narrow", child(next.pointer, "not"));
    if (after === undefined) return context.report("not-removed", "widen", child(old.pointer, "not"));
    context.compare(context.with({ inverted: !context.inverted }), sub(old, "not"), sub(next, "not"));
  },
};
