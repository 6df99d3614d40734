/** Value comparisons the rules share: JSON equality, and lists compared as sets. */
import { canonicalJson } from "../load/canonical-json.js";

export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The values of `next` not in `old`, and of `old` not in `next`, each in its list's order (JSON equality). */
export function setDifference(
  old: readonly unknown[],
  next: readonly unknown[],
): { added: unknown[]; removed: unknown[] } {
  const oldKeys = new Set(old.map((value) => canonicalJson(value)));
  const newKeys = new Set(next.map((value) => canonicalJson(value)));
  return {
    added: next.filter((value) => !oldKeys.has(canonicalJson(value))),
    removed: old.filter((value) => !newKeys.has(canonicalJson(value))),
  };
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
}

/** Longest canonical JSON a finding carries as its old/new value; larger schemas are named, not copied. */
const MAX_SHOWN_JSON = 120;

/** A value as a finding shows it: itself when small, else its `$ref` or a placeholder. */
export function summarize(value: unknown): unknown {
  if (canonicalJson(value).length <= MAX_SHOWN_JSON) return value;
  if (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { $ref?: unknown }).$ref === "string"
  ) {
    return { $ref: (value as { $ref: string }).$ref };
  }
  return Array.isArray(value) ? `[${value.length} items]` : "{…}";
}
