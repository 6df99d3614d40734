/**
 * OpenAPI `discriminator` unions (https://spec.openapis.org/oas/v3.1.0#discriminator-object):
 * the tag values of each branch, for the `<UNION>_<TAGS>` constant arrays.
 */
import { EmitError } from "../../errors.js";
import { formatPointer, getAtPointer, isPlainObject, parseRefFragment } from "../../load/json-pointer.js";

export interface DiscriminatedUnion {
  /** The tag property, e.g. `type`. */
  readonly property: string;
  /** Tag values in branch order (a branch may have several), without duplicates. */
  readonly tags: readonly string[];
}

/** The tags of a `oneOf` + `discriminator` schema; undefined for any other schema. */
export function discriminatedUnion(schema: unknown, document: unknown, at: readonly string[]): DiscriminatedUnion | undefined {
  if (!isPlainObject(schema) || !Array.isArray(schema.oneOf) || !isPlainObject(schema.discriminator)) return undefined;
  const property = schema.discriminator.propertyName;
  if (typeof property !== "string") return undefined;
  const mapping = isPlainObject(schema.discriminator.mapping) ? schema.discriminator.mapping : {};
  const tags: string[] = [];
  schema.oneOf.forEach((branch, index) => {
    let found = tagValues(branch, property, document, 0);
    if (found.length === 0 && isPlainObject(branch) && typeof branch.$ref === "string") {
      const ref = branch.$ref;
      found = Object.entries(mapping)
        .filter(([, target]) => target === ref || `#/components/schemas/${String(target)}` === ref)
        .map(([tag]) => tag);
    }
    if (found.length === 0) {
      throw new EmitError(
        "unsupported-schema",
        "types",
        `discriminated union branch ${index} has no value for its tag ${JSON.stringify(property)}.`,
        `Give the branch \`properties: { ${property}: { const: ... } }\` (schema/CONVENTIONS.md), or list it in discriminator.mapping.`,
        formatPointer([...at, "oneOf", String(index)]),
      );
    }
    for (const tag of found) if (!tags.includes(tag)) tags.push(tag);
  });
  return { property, tags };
}

/** The `const` (or `enum` of strings) of `properties[property]`, looking through `$ref` and `allOf`. */
function tagValues(schema: unknown, property: string, document: unknown, depth: number): string[] {
  if (!isPlainObject(schema) || depth > 8) return [];
  const own = isPlainObject(schema.properties) ? schema.properties[property] : undefined;
  if (isPlainObject(own)) {
    if (typeof own.const === "string") return [own.const];
    if (Array.isArray(own.enum) && own.enum.every((v) => typeof v === "string")) return own.enum as string[];
  }
  if (typeof schema.$ref === "string") {
    const segments = parseRefFragment(schema.$ref);
    const found = segments ? tagValues(getAtPointer(document, segments), property, document, depth + 1) : [];
    if (found.length > 0) return found;
  }
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const found = tagValues(part, property, document, depth + 1);
      if (found.length > 0) return found;
    }
  }
  return [];
}
