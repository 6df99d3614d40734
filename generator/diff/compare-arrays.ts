/** Array keywords: `items`, `prefixItems`, `contains`. (Counts are limits: compare-scalars.ts.) */
import { child, type KeywordRule, type ObjectNode, type SchemaNode } from "./context.js";

function items(node: ObjectNode): SchemaNode {
  return { schema: node.schema.items ?? true, pointer: child(node.pointer, "items") };
}

export const itemsRule: KeywordRule = {
  keywords: ["items"],
  compare(context, old, next) {
    context.compare(context, items(old), items(next));
  },
};

/** Position by position; past the end of one side's tuple, its `items` governs the position. */
export const prefixItemsRule: KeywordRule = {
  keywords: ["prefixItems"],
  compare(context, old, next) {
    const before = Array.isArray(old.schema.prefixItems) ? old.schema.prefixItems : [];
    const after = Array.isArray(next.schema.prefixItems) ? next.schema.prefixItems : [];
    for (let index = 0; index < Math.max(before.length, after.length); index++) {
      const oldNode =
        index < before.length
          ? { schema: before[index], pointer: child(old.pointer, "prefixItems", String(index)) }
          : items(old);
      const newNode =
        index < after.length
          ? { schema: after[index], pointer: child(next.pointer, "prefixItems", String(index)) }
          : items(next);
      context.compare(context, oldNode, newNode);
    }
  },
};

export const containsRule: KeywordRule = {
  keywords: ["contains"],
  compare(context, old, next) {
    const before = old.schema.contains;
    const after = next.schema.contains;
    if (before === undefined) return context.report("contains-added", "narrow", child(next.pointer, "contains"));
    if (after === undefined) return context.report("contains-removed", "widen", child(old.pointer, "contains"));
    context.compare(
      context,
      { schema: before, pointer: child(old.pointer, "contains") },
      { schema: after, pointer: child(next.pointer, "contains") },
    );
  },
};
