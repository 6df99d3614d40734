/**
 * Finding every `$ref` in an OpenAPI document without mistaking data for a
 * reference: values under `const`, `enum`, `default`, `example(s)` and an
 * Example Object's `value` are instances, and a property *named* `$ref` or
 * `enum` under `properties` is a name, not a keyword.
 */
import { isPlainObject, type Pointer } from "./json-pointer.js";

export interface RefSite {
  /** Pointer to the object that holds `$ref`. */
  readonly path: Pointer;
  /** The object that holds `$ref` (mutable: the bundler rewrites it). */
  readonly holder: Record<string, unknown>;
  readonly ref: string;
}

/** Keywords whose value is instance data, never a schema or a reference. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "example"]);

/**
 * Keywords whose value is a map from names (property names, status codes,
 * component names, media types, ...) to objects. The keys of such a map are
 * never keywords themselves.
 */
const NAME_MAP_KEYWORDS = new Set([
  // JSON Schema
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  // OpenAPI
  "paths",
  "webhooks",
  "schemas",
  "responses",
  "parameters",
  "requestBodies",
  "headers",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "content",
  "encoding",
  "variables",
]);

/** Every `$ref` (string-valued) in document order. */
export function findRefs(root: unknown): RefSite[] {
  const sites: RefSite[] = [];
  visitKeywordObjects(root, (node, path) => {
    if (typeof node.$ref === "string") sites.push({ path: [...path], holder: node, ref: node.$ref });
  });
  return sites;
}

/** The `$ref` a discriminator mapping value means: a ref as written, or a bare component name. */
export function mappingRef(target: string): string {
  return target.includes("#") || target.includes("/") ? target : `#/components/schemas/${target}`;
}

/**
 * Discriminator mappings are references too (`mapping: { a: "#/components/schemas/A" }`,
 * or a bare component name). Yields the pointer of each mapping value and the ref it means.
 */
export function findDiscriminatorMappings(root: unknown): { path: Pointer; ref: string }[] {
  const found: { path: Pointer; ref: string }[] = [];
  visitKeywordObjects(root, (node, path) => {
    const mapping = isPlainObject(node.discriminator) ? node.discriminator.mapping : undefined;
    if (!isPlainObject(mapping)) return;
    for (const [tag, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const ref = mappingRef(target);
      found.push({ path: [...path, "discriminator", "mapping", tag], ref });
    }
  });
  return found;
}

/** Every schema or OpenAPI object (never instance data) that has `keyword` as a key, in document order. */
export function findKeyword(root: unknown, keyword: string): { path: Pointer; holder: Record<string, unknown> }[] {
  const found: { path: Pointer; holder: Record<string, unknown> }[] = [];
  visitKeywordObjects(root, (node, path) => {
    if (Object.hasOwn(node, keyword)) found.push({ path: [...path], holder: node });
  });
  return found;
}

/** Every object with a `discriminator` beside a `oneOf` (a discriminated union), in document order. */
export function findDiscriminatedUnions(root: unknown): { path: Pointer; union: Record<string, unknown> }[] {
  const found: { path: Pointer; union: Record<string, unknown> }[] = [];
  visitKeywordObjects(root, (node, path) => {
    if (isPlainObject(node.discriminator) && Array.isArray(node.oneOf)) found.push({ path: [...path], union: node });
  });
  return found;
}

/**
 * What the keys of the object being walked are: keywords; names mapping to
 * keyword objects; names mapping to Example Objects; an Example Object's fields.
 */
type Context = "keywords" | "names" | "example-names" | "example";
/** `path` is shared and changes as the walk goes on: copy it to keep it. */
type Visitor = (node: Record<string, unknown>, path: Pointer) => void;

/** Calls `visit` on every object whose keys are keywords (schemas, OpenAPI objects), never on instance data. */
function visitKeywordObjects(root: unknown, visit: Visitor): void {
  walk(root, [], "keywords", visit);
}

/**
 * The walk behind every finder: on a large document (GitHub's, 13 MB) the
 * loader makes it about ten times, so it makes no closure and no entry
 * array per node (which cost over half of the loading), only the keys.
 */
function walk(node: unknown, path: string[], context: Context, visit: Visitor): void {
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      path.push(String(index));
      walk(node[index], path, "keywords", visit);
      path.pop();
    }
    return;
  }
  if (!isPlainObject(node)) return;
  if (context === "names" || context === "example-names") {
    const next: Context = context === "names" ? "keywords" : "example";
    for (const name of Object.keys(node)) {
      path.push(name);
      walk(node[name], path, next, visit);
      path.pop();
    }
    return;
  }
  visit(node, path);
  if (context === "example") return; // An Example Object: only its own `$ref` can be a reference.
  for (const key of Object.keys(node)) {
    if (key === "$ref" || DATA_KEYWORDS.has(key)) continue;
    const value = node[key];
    if (key === "examples") {
      // Schema `examples` is an array of instances; OpenAPI `examples` maps names to Example Objects.
      if (!isPlainObject(value)) continue;
      path.push(key);
      walk(value, path, "example-names", visit);
      path.pop();
      continue;
    }
    path.push(key);
    walk(value, path, NAME_MAP_KEYWORDS.has(key) && isPlainObject(value) ? "names" : "keywords", visit);
    path.pop();
  }
}
