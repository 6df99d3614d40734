/**
 * The project's vendor assertions (schema/CONVENTIONS.md) that are not plain
 * limits: `x-max-base64-bytes-total`, `x-greater-than`,
 * `x-last-non-system-role`. (`x-max-utf8-bytes` and `x-max-json-bytes` are
 * upper limits, compare-scalars.ts; `x-known-values` is the additive-list
 * annotation, also there.) Any other `x-` keyword is compared as opaque JSON.
 */
import { child, isPlainObject, type KeywordRule } from "./context.js";
import { sameJson, setDifference } from "./json-values.js";

export const base64TotalRule: KeywordRule = {
  keywords: ["x-max-base64-bytes-total"],
  compare(context, old, next) {
    const keyword = "x-max-base64-bytes-total";
    const before = old.schema[keyword];
    const after = next.schema[keyword];
    const pointer = child(after === undefined ? old.pointer : next.pointer, keyword);
    if (before === undefined) return context.report("limit-added", "narrow", pointer, { new: after });
    if (after === undefined) return context.report("limit-removed", "widen", pointer, { old: before });
    if (
      !isPlainObject(before) ||
      !isPlainObject(after) ||
      !sameJson(before.path, after.path) ||
      typeof before.max !== "number" ||
      typeof after.max !== "number"
    ) {
      // Another set of strings is summed: neither a subset nor a superset in general.
      if (!sameJson(before, after)) context.report("limit-changed", "change", pointer, { old: before, new: after });
      return;
    }
    if (after.max < before.max)
      context.report("limit-narrowed", "narrow", child(pointer, "max"), { old: before.max, new: after.max });
    if (after.max > before.max)
      context.report("limit-widened", "widen", child(pointer, "max"), { old: before.max, new: after.max });
  },
};

/** A list of `{ property, than }` pairs, each an extra condition: a new pair narrows, a dropped one widens. */
export const greaterThanRule: KeywordRule = {
  keywords: ["x-greater-than"],
  compare(context, old, next) {
    const keyword = "x-greater-than";
    const before = Array.isArray(old.schema[keyword]) ? old.schema[keyword] : [];
    const after = Array.isArray(next.schema[keyword]) ? next.schema[keyword] : [];
    const { added, removed } = setDifference(before, after);
    for (const pair of added)
      context.report("constraint-added", "narrow", child(next.pointer, keyword, String(after.indexOf(pair))), {
        new: pair,
      });
    for (const pair of removed)
      context.report("constraint-removed", "widen", child(old.pointer, keyword, String(before.indexOf(pair))), {
        old: pair,
      });
  },
};

export const lastNonSystemRoleRule: KeywordRule = {
  keywords: ["x-last-non-system-role"],
  compare(context, old, next) {
    const keyword = "x-last-non-system-role";
    const before = old.schema[keyword];
    const after = next.schema[keyword];
    const pointer = child(after === undefined ? old.pointer : next.pointer, keyword);
    if (before === undefined) context.report("constraint-added", "narrow", pointer, { new: after });
    else if (after === undefined) context.report("constraint-removed", "widen", pointer, { old: before });
    else if (!sameJson(before, after))
      context.report("constraint-changed", "change", pointer, { old: before, new: after });
  },
};
