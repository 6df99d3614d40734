/**
 * The components a set of components reaches: themselves, each component a
 * `$ref` in them names (`#/components/schemas/A`, or a place inside it), each
 * a `discriminator.mapping` entry names, and so on, also through schemas
 * elsewhere in the document that they read (`#/components/parameters/p/schema`).
 *
 * Why: the receive level is compiled for the components a client reads
 * (./received-components.ts), and only what they reach is ever compiled;
 * deriving and preparing the receive level of the others (./levels.ts) was
 * three quarters of that work on GitHub's REST description (449 of its 969
 * components are reached, a fifth of their JSON).
 */
import { getAtPointer, isPlainObject, parseRefFragment } from "../../load/json-pointer.js";
import { visit } from "./prepare.js";

/** Keys by which a schema is found other than by a JSON pointer from the document's root: any component may be reached then. */
export const NOT_BY_POINTER: ReadonlySet<string> = new Set([
  "$id",
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveRef",
  "$recursiveAnchor",
]);

/**
 * The names of the components `roots` reach, sorted; undefined where that
 * cannot be told from JSON pointers alone (a `$ref` not of the form `#/...`,
 * or a key of `NOT_BY_POINTER` in what is reached), so the caller takes
 * every component.
 */
export function reachableComponents(
  document: unknown,
  schemas: Readonly<Record<string, unknown>>,
  roots: readonly string[],
): string[] | undefined {
  const reached = new Set<string>();
  const followed = new Set<string>();
  const pending: unknown[] = [];
  let byPointer = true;
  const component = (name: string): void => {
    if (reached.has(name) || !Object.hasOwn(schemas, name)) return;
    reached.add(name);
    pending.push(schemas[name]);
  };
  const follow = (ref: string): void => {
    const path = parseRefFragment(ref);
    // Not a pointer, or one to a place holding every component (`#`, `#/components`): any may be reached.
    if (path === undefined || ["components", "schemas"].slice(0, path.length).join("/") === path.join("/")) {
      byPointer = false;
      return;
    }
    if (path[0] === "components" && path[1] === "schemas") component(path[2]!);
    else if (!followed.has(ref)) {
      followed.add(ref);
      pending.push(getAtPointer(document, path));
    }
  };
  // Schemas only (./prepare.ts `visit`): a `$ref` in an example is data, a property named `$id` a name.
  const walk = (value: unknown): void =>
    visit(value, "", (node) => {
      for (const key of Object.keys(node)) if (NOT_BY_POINTER.has(key)) byPointer = false;
      if (typeof node.$ref === "string") follow(node.$ref);
      const mapping = isPlainObject(node.discriminator) ? node.discriminator.mapping : undefined;
      if (isPlainObject(mapping))
        // An entry is a `$ref` or, by OpenAPI's rule, a component's bare name.
        for (const target of Object.values(mapping)) {
          if (typeof target !== "string") continue;
          if (target.startsWith("#")) follow(target);
          else component(target);
        }
    });
  for (const name of roots) component(name);
  while (pending.length > 0 && byPointer) walk(pending.pop());
  return byPointer ? [...reached].sort() : undefined;
}
