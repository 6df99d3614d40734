/**
 * Keywords about a single value: `type`, `enum`/`const`, `x-known-values`,
 * numeric, length, count and byte limits, `pattern`, `multipleOf`,
 * `uniqueItems`.
 */
import { child, type KeywordRule } from "./context.js";
import { sameJson, setDifference } from "./json-values.js";
import { LIMITS } from "./keyword-catalogue.js";
import { effectiveTypes } from "./schema-shape.js";

/** Every value of a type in `inner` is of a type in `outer` (an integer is a number). */
function typesWithin(inner: readonly string[], outer: readonly string[]): boolean {
  return inner.every((type) => outer.includes(type) || (type === "integer" && outer.includes("number")));
}

export const typeRule: KeywordRule = {
  keywords: ["type"],
  compare(context, old, next) {
    // Only where a side says `type` itself; its absence is read through const, enum and union branches.
    const before = effectiveTypes(old.schema, (schema) => context.derefOld({ schema, pointer: "" }).schema);
    const after = effectiveTypes(next.schema, (schema) => context.derefNew({ schema, pointer: "" }).schema);
    const pointer = child(next.schema.type === undefined ? old.pointer : next.pointer, "type");
    const values = { old: old.schema.type, new: next.schema.type };
    if (before === undefined && after === undefined) return;
    if (before === undefined) return context.report("type-narrowed", "narrow", pointer, values);
    if (after === undefined) return context.report("type-widened", "widen", pointer, values);
    const narrower = typesWithin(after, before);
    const wider = typesWithin(before, after);
    if (narrower && wider) return;
    if (narrower) context.report("type-narrowed", "narrow", pointer, values);
    else if (wider) context.report("type-widened", "widen", pointer, values);
    else context.report("type-changed", "change", pointer, values);
  },
};

/** `const: x` is `enum: [x]`; both say "one of these values". */
function allowedValues(schema: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const fromEnum = Array.isArray(schema.enum) ? schema.enum : undefined;
  const fromConst = Object.hasOwn(schema, "const") ? [schema.const] : undefined;
  if (fromEnum && fromConst) return fromEnum.filter((value) => sameJson(value, fromConst[0]));
  return fromEnum ?? fromConst;
}

export const enumRule: KeywordRule = {
  keywords: ["enum", "const"],
  compare(context, old, next) {
    const before = allowedValues(old.schema);
    const after = allowedValues(next.schema);
    const keyword = (schema: Readonly<Record<string, unknown>>): string =>
      Array.isArray(schema.enum) ? "enum" : "const";
    if (before === undefined && after === undefined) return;
    if (before === undefined)
      return context.report("enum-added", "narrow", child(next.pointer, keyword(next.schema)), { new: after });
    if (after === undefined)
      return context.report("enum-removed", "widen", child(old.pointer, keyword(old.schema)), { old: before });
    const { added, removed } = setDifference(before, after);
    const pointer = child(next.pointer, keyword(next.schema));
    // A removed value is a narrowing for what the server checks and a lost promise for what the client reads.
    if (removed.length > 0)
      context.report("enum-value-removed", context.side === "request" ? "narrow" : "removed", pointer, {
        old: before,
        new: after,
      });
    if (added.length > 0) context.report("enum-value-added", "widen", pointer, { old: before, new: after });
  },
};

/** `x-known-values` lists the values of an additive enumeration known today; any other value is valid (CONVENTIONS.md). */
export const knownValuesRule: KeywordRule = {
  keywords: ["x-known-values"],
  compare(context, old, next) {
    const before = Array.isArray(old.schema["x-known-values"]) ? old.schema["x-known-values"] : [];
    const after = Array.isArray(next.schema["x-known-values"]) ? next.schema["x-known-values"] : [];
    const { added, removed } = setDifference(before, after);
    const pointer = child(next.schema["x-known-values"] === undefined ? old.pointer : next.pointer, "x-known-values");
    if (added.length > 0) context.report("known-value-added", "additive", pointer, { old: before, new: after });
    if (removed.length > 0) context.report("known-value-removed", "info", pointer, { old: before, new: after });
  },
};

export const limitsRule: KeywordRule = {
  keywords: Object.keys(LIMITS),
  compare(context, old, next) {
    for (const [keyword, bound] of Object.entries(LIMITS)) {
      const before = old.schema[keyword];
      const after = next.schema[keyword];
      if (before === undefined && after === undefined) continue;
      const pointer = child(after === undefined ? old.pointer : next.pointer, keyword);
      const values = { old: before, new: after };
      if (before === undefined) context.report("limit-added", "narrow", pointer, values);
      else if (after === undefined) context.report("limit-removed", "widen", pointer, values);
      else if (typeof before !== "number" || typeof after !== "number") {
        if (!sameJson(before, after)) context.report("limit-changed", "change", pointer, values);
      } else if (before !== after) {
        const lower = after < before;
        const narrowed = bound === "upper" ? lower : !lower;
        context.report(narrowed ? "limit-narrowed" : "limit-widened", narrowed ? "narrow" : "widen", pointer, values);
      }
    }
  },
};

/**
 * A pattern added narrows, a pattern dropped widens. Whether one regular
 * expression accepts a subset of another is not decided here: a changed
 * pattern is a change to review, breaking on the side that validates it.
 */
export const patternRule: KeywordRule = {
  keywords: ["pattern"],
  compare(context, old, next) {
    const before = old.schema.pattern;
    const after = next.schema.pattern;
    const pointer = child(after === undefined ? old.pointer : next.pointer, "pattern");
    if (before === undefined) context.report("pattern-added", "narrow", pointer, { new: after });
    else if (after === undefined) context.report("pattern-removed", "widen", pointer, { old: before });
    else if (before !== after) context.report("pattern-changed", "change", pointer, { old: before, new: after });
  },
};

export const multipleOfRule: KeywordRule = {
  keywords: ["multipleOf"],
  compare(context, old, next) {
    const before = old.schema.multipleOf;
    const after = next.schema.multipleOf;
    const pointer = child(after === undefined ? old.pointer : next.pointer, "multipleOf");
    if (before === undefined) context.report("limit-added", "narrow", pointer, { new: after });
    else if (after === undefined) context.report("limit-removed", "widen", pointer, { old: before });
    else if (typeof before === "number" && typeof after === "number" && before !== after) {
      // A multiple of `after` is always a multiple of `before` when `after` is a multiple of `before`.
      if (Number.isInteger(after / before))
        context.report("limit-narrowed", "narrow", pointer, { old: before, new: after });
      else if (Number.isInteger(before / after))
        context.report("limit-widened", "widen", pointer, { old: before, new: after });
      else context.report("limit-changed", "change", pointer, { old: before, new: after });
    }
  },
};

export const uniqueItemsRule: KeywordRule = {
  keywords: ["uniqueItems"],
  compare(context, old, next) {
    const before = old.schema.uniqueItems === true;
    const after = next.schema.uniqueItems === true;
    const pointer = child(next.schema.uniqueItems === undefined ? old.pointer : next.pointer, "uniqueItems");
    if (!before && after)
      context.report("unique-items-added", "narrow", pointer, { old: old.schema.uniqueItems, new: true });
    if (before && !after)
      context.report("unique-items-removed", "widen", pointer, { old: true, new: next.schema.uniqueItems });
  },
};
