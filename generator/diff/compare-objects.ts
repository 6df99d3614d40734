/**
 * Object keywords: `properties`, `required`, `additionalProperties`,
 * `propertyNames`, `patternProperties`, `dependentSchemas`, `dependentRequired`.
 *
 * A property one document declares and the other does not is governed, in
 * the other, by its `additionalProperties` (absent = any value). The issue's
 * rules on top of that: a new optional field is additive (strictly it
 * narrows an open object, but nobody sent a field that did not exist); a
 * field removed from what the client reads breaks readers; a field removed
 * from a request that stays open passes through unchecked (info), from one
 * that is closed it is now refused.
 */
import {
  child,
  isPlainObject,
  type CompareHints,
  type DiffContext,
  type KeywordRule,
  type ObjectNode,
  type SchemaNode,
} from "./context.js";
import { stringList, summarize } from "./json-values.js";

function propertiesOf(node: ObjectNode): Readonly<Record<string, unknown>> {
  return isPlainObject(node.schema.properties) ? node.schema.properties : {};
}

function property(node: ObjectNode, name: string): SchemaNode {
  return { schema: propertiesOf(node)[name], pointer: child(node.pointer, "properties", name) };
}

function additional(node: ObjectNode): SchemaNode {
  const schema = Object.hasOwn(node.schema, "additionalProperties") ? node.schema.additionalProperties : true;
  return { schema, pointer: child(node.pointer, "additionalProperties") };
}

type Openness = "closed" | "open" | "schema";

/** What an object says about a key it does not declare: refused, any value, or a schema. */
function openness(context: DiffContext, node: SchemaNode, document: "old" | "new"): Openness {
  const resolved = document === "old" ? context.derefOld(node) : context.derefNew(node);
  if (resolved.schema === false) return "closed";
  if (resolved.schema === true) return "open";
  if (
    isPlainObject(resolved.schema) &&
    Object.keys(resolved.schema).every((key) => key === "description" || key === "title")
  )
    return "open";
  return "schema";
}

function isFalse(context: DiffContext, node: SchemaNode, document: "old" | "new"): boolean {
  return (document === "old" ? context.derefOld(node) : context.derefNew(node)).schema === false;
}

function hintsFor(name: string, hints: CompareHints): CompareHints {
  return hints.ignoreNotOf === name ? { ignoreNot: true } : {};
}

export const objectRule: KeywordRule = {
  keywords: ["properties", "required", "additionalProperties"],
  compare(context, old, next, hints) {
    const before = propertiesOf(old);
    const after = propertiesOf(next);
    const requiredBefore = stringList(old.schema.required) ?? [];
    const requiredAfter = stringList(next.schema.required) ?? [];
    const oldAdditional = additional(old);
    const newAdditional = additional(next);
    const oldOpenness = openness(context, oldAdditional, "old");
    const newOpenness = openness(context, newAdditional, "new");
    /** Names whose required-ness a property finding already reports. */
    const requiredCovered = new Set<string>();

    for (const name of Object.keys(before)) {
      if (Object.hasOwn(after, name)) {
        context.compare(context, property(old, name), property(next, name), hintsFor(name, hints));
        continue;
      }
      const removed = property(old, name);
      if (isFalse(context, removed, "old") || (context.side === "request" && newOpenness === "schema")) {
        // Forbidden before, or now governed by a schema: compare with what governs the key now.
        context.compare(context, removed, newAdditional);
      } else if (context.side !== "request") {
        context.report("property-removed", "removed", removed.pointer, { old: summarize(removed.schema) });
        requiredCovered.add(name);
      } else {
        context.report("property-removed", newOpenness === "closed" ? "narrow" : "info", removed.pointer, {
          old: summarize(removed.schema),
        });
      }
    }

    for (const name of Object.keys(after)) {
      if (Object.hasOwn(before, name)) continue;
      const added = property(next, name);
      const newlyRequired = requiredAfter.includes(name) && !requiredBefore.includes(name);
      if (isFalse(context, added, "new") || oldOpenness === "schema") {
        context.compare(context, oldAdditional, added);
      } else if (oldOpenness === "closed") {
        context.report("property-added", "widen", added.pointer, { new: summarize(added.schema) });
      } else if (newlyRequired && context.side === "request") {
        context.report("required-property-added", "narrow", added.pointer, { new: summarize(added.schema) });
        requiredCovered.add(name);
      } else {
        // In what the client reads, a new field is new information, required or not.
        context.report("property-added", "additive", added.pointer, { new: summarize(added.schema) });
        if (newlyRequired) requiredCovered.add(name);
      }
    }

    requiredAfter.forEach((name, index) => {
      if (!requiredBefore.includes(name) && !requiredCovered.has(name)) {
        context.report("required-added", "narrow", child(next.pointer, "required", String(index)), { new: name });
      }
    });
    requiredBefore.forEach((name, index) => {
      if (!requiredAfter.includes(name) && !requiredCovered.has(name)) {
        context.report("required-removed", "widen", child(old.pointer, "required", String(index)), { old: name });
      }
    });

    if (Object.hasOwn(old.schema, "additionalProperties") || Object.hasOwn(next.schema, "additionalProperties")) {
      context.compare(context, oldAdditional, newAdditional);
    }
  },
};

export const propertyNamesRule: KeywordRule = {
  keywords: ["propertyNames"],
  compare(context, old, next) {
    const node = (object: ObjectNode): SchemaNode => ({
      schema: object.schema.propertyNames ?? true,
      pointer: child(object.pointer, "propertyNames"),
    });
    context.compare(context, node(old), node(next));
  },
};

/**
 * Keyed subschemas (`patternProperties`, `dependentSchemas`): same key is
 * compared, a new key adds a constraint, a dropped key removes one.
 */
function keyedSchemasRule(keyword: string, addedKind: string, removedKind: string): KeywordRule {
  return {
    keywords: [keyword],
    compare(context, old, next) {
      const before = isPlainObject(old.schema[keyword]) ? old.schema[keyword] : {};
      const after = isPlainObject(next.schema[keyword]) ? next.schema[keyword] : {};
      for (const key of Object.keys(before)) {
        const oldNode = { schema: before[key], pointer: child(old.pointer, keyword, key) };
        if (Object.hasOwn(after, key))
          context.compare(context, oldNode, { schema: after[key], pointer: child(next.pointer, keyword, key) });
        else context.report(removedKind, "widen", oldNode.pointer);
      }
      for (const key of Object.keys(after)) {
        if (!Object.hasOwn(before, key)) context.report(addedKind, "narrow", child(next.pointer, keyword, key));
      }
    },
  };
}

export const patternPropertiesRule = keyedSchemasRule(
  "patternProperties",
  "pattern-property-added",
  "pattern-property-removed",
);
export const dependentSchemasRule = keyedSchemasRule(
  "dependentSchemas",
  "dependent-schema-added",
  "dependent-schema-removed",
);

/** `dependentRequired`: each listed name is one more condition (when the key is present, the name must be too). */
export const dependentRequiredRule: KeywordRule = {
  keywords: ["dependentRequired"],
  compare(context, old, next) {
    const keyword = "dependentRequired";
    const before = isPlainObject(old.schema[keyword]) ? old.schema[keyword] : {};
    const after = isPlainObject(next.schema[keyword]) ? next.schema[keyword] : {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const oldNames = stringList(before[key]) ?? [];
      const newNames = stringList(after[key]) ?? [];
      newNames.forEach((name, index) => {
        if (!oldNames.includes(name))
          context.report("dependent-required-added", "narrow", child(next.pointer, keyword, key, String(index)), {
            new: name,
          });
      });
      oldNames.forEach((name, index) => {
        if (!newNames.includes(name))
          context.report("dependent-required-removed", "widen", child(old.pointer, keyword, key, String(index)), {
            old: name,
          });
      });
    }
  },
};
