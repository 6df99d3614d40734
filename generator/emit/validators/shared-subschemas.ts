/**
 * Inline subschemas that a document repeats, compiled once: each large
 * subschema written twice or more (the same JSON, key order included) is
 * moved to the document schema's `$defs` (`#/$defs/shared-N`), and every
 * place that wrote it gets `{ $ref: "#/$defs/shared-N" }` instead; an
 * inline copy of a whole component gets a `$ref` to that component.
 *
 * Why: ajv compiles (and the validators module prints) every inline copy
 * again, while a `$ref` is one function that each place calls (`inlineRefs:
 * false`, ./ajv.ts). Documents written by code repeat a lot: GitHub's REST
 * description writes a pull request's `base` and `head` repository inline in
 * 25 webhook payloads, a milestone in 29; half of its component schemas'
 * JSON is such copies. A `$ref` to a schema that means the same is the same
 * check (JSON Schema 2020-12: `$ref` is an applicator; ajv carries the
 * evaluated properties and items through it for `unevaluated*`).
 *
 * What changes: the `schemaPath` of an error reported inside a shared
 * subschema is relative to it (`#/properties/id/type`), as inside any
 * `$ref`'d schema, not to the component that wrote it inline.
 *
 * What is never moved (the check would mean something else elsewhere, or a
 * pointer would no longer find it):
 * - a subschema with `$id`, `$anchor`, `$dynamicAnchor`, `$dynamicRef`,
 *   `$recursiveRef`, `$recursiveAnchor` or `$schema`, or with a `$ref` that
 *   is not a pointer from the document's root (`#/...`), at any depth;
 * - anything below a subschema with `$id` (its `#/...` would resolve
 *   against that `$id`);
 * - a place that a `$ref` points at or into (`#/components/schemas/A/properties/b/...`);
 * - anything smaller than `SHARED_SUBSCHEMA_MIN_SIZE` (a call costs more
 *   than checking a few keywords inline), and component roots (already
 *   one function each; another component that is the same schema stays
 *   as written).
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { formatRefFragment, isPlainObject, parseRefFragment } from "../../load/json-pointer.js";
import { NOT_BY_POINTER } from "./reachable-components.js";

/** JSON characters (about) below which a repeated subschema stays inline. */
export const SHARED_SUBSCHEMA_MIN_SIZE = 200;

/** Where the shared subschemas go in the document schema ajv is given (./ajv.ts `addComponents`). */
export const SHARED_DEFS = "$defs";
const SHARED_PREFIX = "shared-";

/** Keywords whose value is one subschema. */
const ONE = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
  "contentSchema",
]);
/** Keywords whose value is an array of subschemas. */
const MANY = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to subschemas (`$defs` entries are walked, never moved: a `$ref` may name them). */
const NAMED = new Set(["properties", "patternProperties", "dependentSchemas"]);
/** Keywords whose value is data, never a schema. */
const DATA = new Set(["examples", "example", "default", "const", "enum", "x-known-values"]);
/** Keys that tie a subschema to where it stands: those by which a schema is found other than by pointer, and `$schema`. */
const PLACE_BOUND = new Set([...NOT_BY_POINTER, "$schema"]);

/** What is known of one distinct subschema (one JSON text). */
interface Shape {
  readonly size: number;
  /** Whether it may stand elsewhere (see the file's comment). */
  readonly movable: boolean;
  /** The distinct subschemas written directly in it, with how many times; `place`: at a place that may be moved. */
  readonly children: Map<number, { count: number; place: boolean }>;
  shared: boolean;
  /** How many times it is written once the larger repeats are shared. */
  copies: number;
}

export interface SharedSubschemas {
  /** The components, repeated subschemas replaced by `$ref`s (objects not changed are the same objects). */
  readonly components: Record<string, SchemaObject>;
  /** `shared-N` -> the subschema, for the document schema's `$defs`; empty when nothing repeats. */
  readonly shared: Record<string, unknown>;
}

/**
 * `components` (prepared, as ajv compiles them) with each repeated large
 * subschema moved to `shared`. `outside`: the other schemas ajv is given
 * (./prepare.ts `outsideRefTargets`), whose `$ref`s count as pointers into
 * the components too. Deterministic: the same input gives the same names.
 */
export function shareRepeatedSubschemas(
  components: Readonly<Record<string, SchemaObject>>,
  outside: unknown = {},
  minSize: number = SHARED_SUBSCHEMA_MIN_SIZE,
): SharedSubschemas {
  const names = Object.keys(components).sort();
  const shapes: Shape[] = [];
  const ids = new Map<string, number>();
  const idOf = new Map<object, number>();

  /** The id of the distinct subschema `node` (a schema object), its shape recorded the first time. */
  const schema = (node: Record<string, unknown>): number => {
    const children = new Map<number, { count: number; place: boolean }>();
    let movable = true;
    let size = 2;
    const parts: string[] = [];
    const child = (value: unknown, place: boolean): string => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        // A boolean schema, or something ajv will refuse: written as is.
        const text = JSON.stringify(value) ?? "null";
        size += text.length;
        return text;
      }
      const id = schema(value as Record<string, unknown>);
      const shape = shapes[id]!;
      size += shape.size;
      movable &&= shape.movable;
      const seen = children.get(id);
      if (seen === undefined) children.set(id, { count: 1, place });
      else {
        seen.count++;
        seen.place &&= place;
      }
      return `#${id}`;
    };
    for (const [key, value] of Object.entries(node)) {
      size += key.length + 3;
      let text: string;
      if (ONE.has(key) && typeof value === "object" && value !== null && !Array.isArray(value))
        text = child(value, true);
      else if (MANY.has(key) && Array.isArray(value)) text = `[${value.map((v) => child(v, true)).join(",")}]`;
      else if ((NAMED.has(key) || key === "$defs") && isPlainObject(value))
        text = `{${Object.entries(value)
          .map(([name, v]) => `${JSON.stringify(name)}:${child(v, key !== "$defs")}`)
          .join(",")}}`;
      else {
        text = JSON.stringify(value) ?? "null";
        size += text.length;
        if (!DATA.has(key) && !placeFree(value)) movable = false;
      }
      if (bindsToPlace(key, value)) movable = false;
      parts.push(`${JSON.stringify(key)}:${text}`);
    }
    const repr = `{${parts.join(",")}}`;
    let id = ids.get(repr);
    if (id === undefined) {
      id = shapes.length;
      ids.set(repr, id);
      shapes.push({ size, movable, children, shared: false, copies: 0 });
    }
    idOf.set(node, id);
    return id;
  };

  const roots = new Map<number, number>();
  /** The component (the first by name) that each distinct root is. */
  const componentOf = new Map<number, string>();
  for (const name of names) {
    const root = components[name];
    if (!isPlainObject(root)) continue;
    const id = schema(root);
    roots.set(id, (roots.get(id) ?? 0) + 1);
    if (!componentOf.has(id)) componentOf.set(id, name);
  }

  // Largest first: a subschema is shared when it would still be written twice once every larger repeat
  // around it is written once (a milestone inside a shared issue counts once for that issue).
  const parents = new Map<number, Array<[parent: number, count: number, place: boolean]>>();
  shapes.forEach((shape, parent) => {
    for (const [id, { count, place }] of shape.children) {
      let list = parents.get(id);
      if (list === undefined) parents.set(id, (list = []));
      list.push([parent, count, place]);
    }
  });
  const order = shapes.map((_, id) => id).sort((a, b) => shapes[b]!.size - shapes[a]!.size || a - b);
  for (const id of order) {
    const shape = shapes[id]!;
    let atPlaces = 0;
    let elsewhere = roots.get(id) ?? 0;
    for (const [parent, count, place] of parents.get(id) ?? []) {
      const p = shapes[parent]!;
      const written = count * (p.shared ? 1 : p.copies);
      if (place) atPlaces += written;
      else elsewhere += written;
    }
    // A copy of a component is one too many: the component is a function already.
    shape.shared = shape.movable && shape.size >= minSize && atPlaces >= (componentOf.has(id) ? 1 : 2);
    shape.copies = shape.shared ? 1 + elsewhere : atPlaces + elsewhere;
  }
  if (!shapes.some((s) => s.shared)) return { components: { ...components }, shared: {} };

  const pinned = pointedAt(components, outside);
  const shared: Record<string, unknown> = {};
  const sharedName = new Map<number, string>();
  const refTo = (node: Record<string, unknown>): { $ref: string } => {
    const id = idOf.get(node)!;
    const component = componentOf.get(id);
    if (component !== undefined) return { $ref: formatRefFragment(["components", "schemas", component]) };
    let name = sharedName.get(id);
    if (name === undefined) {
      name = `${SHARED_PREFIX}${sharedName.size}`;
      sharedName.set(id, name);
      shared[name] = null; // its place in the order, before the shared subschemas inside it
      shared[name] = rewrite(node, undefined);
    }
    return { $ref: `#/${SHARED_DEFS}/${name}` };
  };

  /** `node` with its repeated subschemas replaced; `path` (segments below components.schemas, each after a "/") where pointers may reach it, else undefined. */
  function rewrite(node: Record<string, unknown>, path: string | undefined): Record<string, unknown> {
    if ("$id" in node) return node;
    let out: Record<string, unknown> | undefined;
    const place = (value: unknown, at: string | undefined): unknown => {
      if (!isPlainObject(value)) return value;
      if (shapes[idOf.get(value)!]!.shared && (at === undefined || !pinned.has(at))) return refTo(value);
      return rewrite(value, at);
    };
    for (const key of Object.keys(node)) {
      const value = node[key];
      const below = path === undefined ? undefined : `${path}/${key}`;
      let next: unknown = value;
      if (ONE.has(key) && isPlainObject(value)) next = place(value, below);
      else if (MANY.has(key) && Array.isArray(value)) {
        const items = value.map((v, i) => place(v, below === undefined ? undefined : `${below}/${i}`));
        if (items.some((v, i) => v !== value[i])) next = items;
      } else if ((NAMED.has(key) || key === "$defs") && isPlainObject(value)) {
        let changed = false;
        const entries: Record<string, unknown> = {};
        for (const name of Object.keys(value)) {
          const v = value[name];
          const at = below === undefined ? undefined : `${below}/${name}`;
          entries[name] = key === "$defs" ? (isPlainObject(v) ? rewrite(v, at) : v) : place(v, at);
          changed ||= entries[name] !== v;
        }
        if (changed) next = entries;
      }
      if (next !== value) {
        out ??= { ...node };
        out[key] = next;
      }
    }
    return out ?? node;
  }

  const rewritten: Record<string, SchemaObject> = {};
  for (const name of names) {
    const root = components[name];
    rewritten[name] = (isPlainObject(root) ? rewrite(root, name) : root) as SchemaObject;
  }
  return { components: rewritten, shared };
}

/**
 * Every place below components.schemas (segments joined by "/") that a
 * `$ref` of the components or of `outside` points at or into: such a place
 * stays where it is (a pointer through a `$ref` does not resolve).
 */
function pointedAt(components: Readonly<Record<string, SchemaObject>>, outside: unknown): Set<string> {
  const pinned = new Set<string>();
  const refs = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) visit(v);
      return;
    }
    if (!isPlainObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string") {
        if (refs.has(v)) continue;
        refs.add(v);
        const segments = parseRefFragment(v);
        if (segments?.[0] === "components" && segments[1] === "schemas")
          for (let end = 3; end <= segments.length; end++) pinned.add(segments.slice(2, end).join("/"));
      } else if (!DATA.has(key)) visit(v);
    }
  };
  visit(components);
  visit(outside);
  return pinned;
}

/** Whether `value` (under a keyword the walk does not know) holds nothing that ties it to its place. */
function placeFree(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(placeFree);
  if (!isPlainObject(value)) return true;
  for (const [key, v] of Object.entries(value)) {
    if (bindsToPlace(key, v) || !placeFree(v)) return false;
  }
  return true;
}

/** Whether `key: value` ties the schema holding it to where it stands: a place-bound key, or a `$ref` not from the document's root. */
function bindsToPlace(key: string, value: unknown): boolean {
  return PLACE_BOUND.has(key) || (key === "$ref" && !(typeof value === "string" && value.startsWith("#/")));
}
