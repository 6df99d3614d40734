/**
 * Composition: `oneOf`/`anyOf` (with OpenAPI's `discriminator`), `allOf`,
 * and a `$ref` that has assertions beside it (compared as one more `allOf`
 * branch, which is what it means in 2020-12).
 *
 * A discriminated union is matched variant by variant on the tag value
 * (the mapping key, or the branch's `const`), so reordering branches or
 * renaming components is not a change, and a removed or new tag is
 * reported as such. A new variant of an open union (the known half of an
 * `if`/`else` that passes other tags through: the event stream) is
 * additive; of a closed one it widens.
 */
import {
  child,
  isPlainObject,
  refSiblingsAreAnnotations,
  refTarget,
  type CompareHints,
  type DiffContext,
  type KeywordRule,
  type ObjectNode,
  type SchemaNode,
} from "./context.js";
import { matchBranches } from "./branch-matching.js";

function branches(node: ObjectNode, keyword: string): SchemaNode[] | undefined {
  const list = node.schema[keyword];
  if (!Array.isArray(list)) return undefined;
  return list.map((schema, index) => ({ schema, pointer: child(node.pointer, keyword, String(index)) }));
}

function discriminatorProperty(node: ObjectNode): string | undefined {
  const discriminator = node.schema.discriminator;
  return isPlainObject(discriminator) && typeof discriminator.propertyName === "string"
    ? discriminator.propertyName
    : undefined;
}

/** The tag value of one variant: its `properties[tag]` `const` (or one-value `enum`). */
export function tagOf(
  context: DiffContext,
  branch: SchemaNode,
  property: string,
  document: "old" | "new",
): string | undefined {
  const deref = (node: SchemaNode): SchemaNode =>
    document === "old" ? context.derefOld(node) : context.derefNew(node);
  const resolved = deref(branch);
  if (!isPlainObject(resolved.schema) || !isPlainObject(resolved.schema.properties)) return undefined;
  const tag = deref({ schema: resolved.schema.properties[property], pointer: "" }).schema;
  if (!isPlainObject(tag)) return undefined;
  if (typeof tag.const === "string") return tag.const;
  if (Array.isArray(tag.enum) && tag.enum.length === 1 && typeof tag.enum[0] === "string") return tag.enum[0];
  return undefined;
}

/** Tag value -> variant, from the mapping first, then each branch's constant; undefined if a branch has no tag. */
function variantsByTag(
  context: DiffContext,
  node: ObjectNode,
  list: readonly SchemaNode[],
  property: string,
  document: "old" | "new",
): Map<string, SchemaNode> | undefined {
  const mapping =
    isPlainObject(node.schema.discriminator) && isPlainObject(node.schema.discriminator.mapping)
      ? node.schema.discriminator.mapping
      : {};
  const tagByTarget = new Map<string, string>();
  for (const [tag, ref] of Object.entries(mapping)) {
    if (typeof ref === "string") tagByTarget.set(refTarget({ $ref: ref }) ?? ref, tag);
  }
  const variants = new Map<string, SchemaNode>();
  for (const branch of list) {
    const target = refTarget(branch.schema);
    const tag =
      (target === undefined ? undefined : tagByTarget.get(target)) ?? tagOf(context, branch, property, document);
    if (tag === undefined) return undefined;
    variants.set(tag, branch);
  }
  return variants;
}

function compareVariants(
  context: DiffContext,
  old: Map<string, SchemaNode>,
  next: Map<string, SchemaNode>,
  open: boolean,
): void {
  for (const [tag, variant] of old) {
    const counterpart = next.get(tag);
    if (counterpart !== undefined) context.compare(context, variant, counterpart);
    else
      context.report("variant-removed", context.side === "request" ? "narrow" : "removed", variant.pointer, {
        old: tag,
      });
  }
  for (const [tag, variant] of next) {
    // An open union delivers a tag it does not know as its fallback variant: a new tag is additive.
    if (!old.has(tag)) context.report("variant-added", open ? "additive" : "widen", variant.pointer, { new: tag });
  }
}

function compareBranchLists(
  context: DiffContext,
  old: readonly SchemaNode[],
  next: readonly SchemaNode[],
  kinds: { added: string; removed: string; addedEffect: "narrow" | "widen" },
): void {
  const match = matchBranches(context, old, next);
  for (const [oldBranch, newBranch] of match.pairs) context.compare(context, oldBranch, newBranch);
  const removedEffect = kinds.addedEffect === "narrow" ? "widen" : "narrow";
  for (const branch of match.added) context.report(kinds.added, kinds.addedEffect, branch.pointer);
  for (const branch of match.removed) context.report(kinds.removed, removedEffect, branch.pointer);
}

function compareAlternatives(
  context: DiffContext,
  old: ObjectNode,
  next: ObjectNode,
  keyword: "oneOf" | "anyOf",
  hints: CompareHints,
): void {
  const before = branches(old, keyword)!;
  const after = branches(next, keyword)!;
  const oldTag = discriminatorProperty(old);
  const newTag = discriminatorProperty(next);
  if (oldTag !== newTag && oldTag !== undefined && newTag !== undefined) {
    context.report("discriminator-changed", "change", child(next.pointer, "discriminator", "propertyName"), {
      old: oldTag,
      new: newTag,
    });
  }
  const tag = newTag ?? oldTag;
  if (tag !== undefined && oldTag === newTag) {
    const oldVariants = variantsByTag(context, old, before, tag, "old");
    const newVariants = variantsByTag(context, next, after, tag, "new");
    if (oldVariants !== undefined && newVariants !== undefined) {
      compareVariants(context, oldVariants, newVariants, hints.openUnion === true);
      return;
    }
  }
  compareBranchLists(context, before, after, {
    added: "branch-added",
    removed: "branch-removed",
    addedEffect: "widen",
  });
}

export const alternativesRule: KeywordRule = {
  keywords: ["oneOf", "anyOf", "discriminator"],
  compare(context, old, next, hints) {
    const has = (node: ObjectNode, keyword: string): boolean => Array.isArray(node.schema[keyword]);
    // oneOf <-> anyOf over the same branches: anyOf also accepts a value more than one branch matches.
    for (const [from, to, kind, effect] of [
      ["oneOf", "anyOf", "one-of-became-any-of", "widen"],
      ["anyOf", "oneOf", "any-of-became-one-of", "narrow"],
    ] as const) {
      if (has(old, from) && !has(old, to) && has(next, to) && !has(next, from)) {
        context.report(kind, effect, child(next.pointer, to));
        compareBranchLists(context, branches(old, from)!, branches(next, to)!, {
          added: "branch-added",
          removed: "branch-removed",
          addedEffect: "widen",
        });
        return;
      }
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      if (has(old, keyword) && has(next, keyword)) compareAlternatives(context, old, next, keyword, hints);
      else if (has(next, keyword))
        context.report(`${keyword === "oneOf" ? "one-of" : "any-of"}-added`, "narrow", child(next.pointer, keyword));
      else if (has(old, keyword))
        context.report(`${keyword === "oneOf" ? "one-of" : "any-of"}-removed`, "widen", child(old.pointer, keyword));
    }
  },
};

/** `allOf` branches, plus a `$ref` that the walk did not follow because assertions sit beside it. */
function conjuncts(node: ObjectNode): SchemaNode[] {
  const list = branches(node, "allOf") ?? [];
  // A `$ref` alone has been followed already (context.ts `deref`); only one beside assertions is still here.
  if (typeof node.schema.$ref === "string" && !refSiblingsAreAnnotations(node.schema))
    list.push({ schema: { $ref: node.schema.$ref }, pointer: child(node.pointer, "$ref") });
  return list;
}

export const allOfRule: KeywordRule = {
  keywords: ["allOf", "$ref"],
  compare(context, old, next) {
    compareBranchLists(context, conjuncts(old), conjuncts(next), {
      added: "all-of-branch-added",
      removed: "all-of-branch-removed",
      addedEffect: "narrow",
    });
  },
};
