/**
 * The tag values of each `oneOf` branch of an OpenAPI discriminated union,
 * as OpenAPI defines them (https://spec.openapis.org/oas/v3.1.0#discriminator-object):
 *   1. what the branch declares: `properties.<tag>.const`, or the strings of
 *      its `enum`, looking through `$ref` and `allOf`;
 *   2. else the `mapping` keys that name the branch;
 *   3. else, for a branch that is a component `$ref`, the component's name
 *      (OpenAPI's implicit mapping: `Cat` for `#/components/schemas/Cat`).
 * Documents written elsewhere often tag by 2 or 3 only (the OpenAPI
 * specification's own Pet/Cat/Dog example does), with `petType: string`
 * in every branch. The types and the validators both read the tags from
 * here, so they agree on which branch a tag value picks.
 */
import { getAtPointer, isPlainObject, parseRefFragment } from "../load/json-pointer.js";
import { mappingRef } from "../load/refs.js";

const COMPONENT_REF = "#/components/schemas/";

/** The values declared by `properties[property]` (`const`, or an `enum` of strings), through `$ref` and `allOf`. */
export function declaredTags(schema: unknown, property: string, document: unknown, depth = 0): string[] {
  if (!isPlainObject(schema) || depth > 8) return [];
  const own = isPlainObject(schema.properties) ? schema.properties[property] : undefined;
  if (isPlainObject(own)) {
    if (typeof own.const === "string") return [own.const];
    if (Array.isArray(own.enum) && own.enum.every((v) => typeof v === "string")) return own.enum as string[];
  }
  if (typeof schema.$ref === "string") {
    const segments = parseRefFragment(schema.$ref);
    const found = segments ? declaredTags(getAtPointer(document, segments), property, document, depth + 1) : [];
    if (found.length > 0) return found;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const found = declaredTags(part, property, document, depth + 1);
      if (found.length > 0) return found;
    }
  }
  return [];
}

/** How a branch got its tags: declared by the branch, named by the mapping, or implied by its component name. */
export type TagSource = "declared" | "mapping" | "implicit";

/**
 * The tags of one branch and where they come from; `tags` is empty for an
 * inline branch that declares none (no mapping can name an inline schema).
 */
export function branchTags(
  branch: unknown,
  property: string,
  mapping: Readonly<Record<string, unknown>>,
  document: unknown,
): { tags: string[]; source: TagSource } {
  const declared = declaredTags(branch, property, document);
  if (declared.length > 0) return { tags: declared, source: "declared" };
  const ref = isPlainObject(branch) && typeof branch.$ref === "string" ? branch.$ref : undefined;
  if (ref === undefined) return { tags: [], source: "declared" };
  const mapped = Object.entries(mapping)
    .filter(([, target]) => typeof target === "string" && mappingRef(target) === ref)
    .map(([tag]) => tag);
  if (mapped.length > 0) return { tags: mapped, source: "mapping" };
  if (ref.startsWith(COMPONENT_REF) && !ref.slice(COMPONENT_REF.length).includes("/")) {
    const segments = parseRefFragment(ref);
    const name = segments?.[2];
    if (name !== undefined) return { tags: [name], source: "implicit" };
  }
  return { tags: [], source: "declared" };
}
