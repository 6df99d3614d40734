/**
 * What the 3.0 reading moved, so that nothing after it loses its way: every
 * error and warning still names the line the author wrote (pointers into
 * the rewritten document lead back to the original ones), and a `$ref`
 * written into a schema that moved (`#/components/schemas/A/allOf/0`)
 * follows it.
 *
 * Each rewritten schema records one group of pairs `[now, before]`:
 * `now` is a place in the rewritten schema, `before` the place it had
 * (`/examples/0` was `/example`; `/anyOf/0/properties` was `/properties`).
 * Schemas are rewritten children first, so a group's own path is the
 * schema's path in the document as written: a pointer is led back by
 * applying the groups of its ancestors from the outermost in, and a written
 * pointer forward from the innermost out. Lookups go by path, so the cost is
 * the pointer's length, not the number of rewritten schemas.
 */
import type { PointerHistory } from "../bundle.js";
import type { Pointer } from "../json-pointer.js";

/** `[now, before]`, both relative to the schema; `aliasOnly`: lead back, never forward (a place that was not a value, such as an added `{ type: "null" }`). */
export interface Pair {
  readonly now: Pointer;
  readonly before: Pointer;
  readonly aliasOnly?: boolean;
}

const keyOf = (path: Pointer): string => JSON.stringify(path);

const startsWith = (pointer: Pointer, prefix: Pointer, at: number): boolean => {
  if (pointer.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (pointer[at + i] !== prefix[i]) return false;
  return true;
};

/** The longest pair whose `side` starts `pointer` after `at` segments, applied; undefined when none does. */
function apply(pairs: readonly Pair[], pointer: Pointer, at: number, side: "now" | "before"): Pointer | undefined {
  let best: Pair | undefined;
  for (const pair of pairs) {
    if (side === "before" && pair.aliasOnly) continue;
    if (startsWith(pointer, pair[side], at) && (best === undefined || pair[side].length > best[side].length))
      best = pair;
  }
  if (best === undefined) return undefined;
  const other = side === "now" ? best.before : best.now;
  return [...pointer.slice(0, at), ...other, ...pointer.slice(at + best[side].length)];
}

export class RewriteHistory implements PointerHistory {
  private readonly groups = new Map<string, Pair[]>();

  get empty(): boolean {
    return this.groups.size === 0;
  }

  /** Records what the schema at `path` (as written) moved. */
  record(path: Pointer, pairs: readonly Pair[]): void {
    if (pairs.length === 0) return; // the usual case: nothing moved

    const key = keyOf(path);
    const group = this.groups.get(key);
    if (group === undefined) this.groups.set(key, [...pairs]);
    else group.push(...pairs);
  }

  /** Where a pointer into the rewritten document was in the document as written. */
  original(pointer: Pointer): Pointer {
    let current = pointer;
    for (let length = 0; length < current.length; length++) {
      const pairs = this.groups.get(keyOf(current.slice(0, length)));
      if (pairs !== undefined) current = apply(pairs, current, length, "now") ?? current;
    }
    return current;
  }

  /** Where a pointer into the document as written leads in the rewritten one. */
  rewritten(pointer: Pointer): Pointer {
    let current = pointer;
    for (let length = current.length - 1; length >= 0; length--) {
      const pairs = this.groups.get(keyOf(current.slice(0, length)));
      if (pairs !== undefined) current = apply(pairs, current, length, "before") ?? current;
    }
    return current;
  }
}
