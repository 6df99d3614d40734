/**
 * The recursive schema comparison: follow `$ref`s, compare each group of
 * keywords with its rule, and every keyword no rule claims as opaque JSON
 * (a difference there is a change to review, never ignored; a vendor
 * keyword the generated validators enforce is an assertion, so adding one
 * narrows and dropping one widens: keyword-catalogue.ts).
 *
 * Booleans: `true` is `{}`, `false` accepts nothing (JSON Schema 2020-12
 * §4.3.2).
 */
import { child, isPlainObject, type Compare, type KeywordRule, type ObjectNode, type SchemaNode } from "./context.js";
import { containsRule, itemsRule, prefixItemsRule } from "./compare-arrays.js";
import { conditionalRule, notRule } from "./compare-conditionals.js";
import {
  dependentRequiredRule,
  dependentSchemasRule,
  objectRule,
  patternPropertiesRule,
  propertyNamesRule,
} from "./compare-objects.js";
import {
  enumRule,
  knownValuesRule,
  limitsRule,
  multipleOfRule,
  patternRule,
  typeRule,
  uniqueItemsRule,
} from "./compare-scalars.js";
import { allOfRule, alternativesRule } from "./compare-unions.js";
import { base64TotalRule, greaterThanRule, lastNonSystemRoleRule } from "./compare-vendor.js";
import { sameJson, summarize } from "./json-values.js";
import { isIgnoredKeyword, isInfoKeyword, isVendorAssertion } from "./keyword-catalogue.js";

const RULES: readonly KeywordRule[] = [
  typeRule,
  enumRule,
  knownValuesRule,
  limitsRule,
  multipleOfRule,
  patternRule,
  uniqueItemsRule,
  objectRule,
  propertyNamesRule,
  patternPropertiesRule,
  dependentSchemasRule,
  dependentRequiredRule,
  itemsRule,
  prefixItemsRule,
  containsRule,
  alternativesRule,
  allOfRule,
  conditionalRule,
  notRule,
  base64TotalRule,
  greaterThanRule,
  lastNonSystemRoleRule,
];

const CLAIMED = new Set(RULES.flatMap((rule) => rule.keywords));

function asObject(node: SchemaNode): ObjectNode {
  // `true` and a non-object (which the loader's schema check refuses) constrain nothing.
  return { schema: isPlainObject(node.schema) ? node.schema : {}, pointer: node.pointer };
}

export const compareSchema: Compare = (context, oldNode, newNode, hints = {}) => {
  const old = context.derefOld(oldNode);
  const next = context.derefNew(newNode);
  if (!context.firstVisit(old, next, hints)) return;
  if (old.schema === false || next.schema === false) {
    if (old.schema === false && next.schema !== false)
      context.report("schema-allowed", "widen", next.pointer, { old: false, new: summarize(next.schema) });
    if (next.schema === false && old.schema !== false)
      context.report("schema-forbidden", "narrow", next.pointer, { old: summarize(old.schema), new: false });
    return;
  }
  const a = asObject(old);
  const b = asObject(next);
  const present = (keyword: string): boolean => Object.hasOwn(a.schema, keyword) || Object.hasOwn(b.schema, keyword);
  for (const rule of RULES) {
    if (rule.keywords.some(present)) rule.compare(context, a, b, hints);
  }
  const keywords = [...new Set([...Object.keys(a.schema), ...Object.keys(b.schema)])].filter(
    (keyword) => !CLAIMED.has(keyword) && !isIgnoredKeyword(keyword),
  );
  for (const keyword of keywords) {
    const before = a.schema[keyword];
    const after = b.schema[keyword];
    if (sameJson(before, after)) continue;
    const pointer = child(after === undefined ? a.pointer : b.pointer, keyword);
    const values = { old: summarize(before), new: summarize(after) };
    if (isInfoKeyword(keyword)) context.report(`${keyword}-changed`, "info", pointer, values);
    else if (isVendorAssertion(keyword) && before === undefined)
      context.report("constraint-added", "narrow", pointer, values);
    else if (isVendorAssertion(keyword) && after === undefined)
      context.report("constraint-removed", "widen", pointer, values);
    else if (before === undefined) context.report("keyword-added", "change", pointer, values);
    else if (after === undefined) context.report("keyword-removed", "change", pointer, values);
    else context.report("keyword-changed", "change", pointer, values);
  }
};
