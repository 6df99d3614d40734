/**
 * OpenAPI `discriminator` unions (https://spec.openapis.org/oas/v3.1.0#discriminator-object):
 * the tag values of each branch, for the `<UNION>_<TAGS>` constant arrays.
 */
import { EmitError } from "../../errors.js";
import { formatPointer, isPlainObject } from "../../load/json-pointer.js";
import { branchTags } from "../discriminator-tags.js";

export interface DiscriminatedUnion {
  /** The tag property, e.g. `type`. */
  readonly property: string;
  /** Tag values in branch order (a branch may have several), without duplicates. */
  readonly tags: readonly string[];
}

/** The tags of a `oneOf` + `discriminator` schema; undefined for any other schema. */
export function discriminatedUnion(
  schema: unknown,
  document: unknown,
  at: readonly string[],
): DiscriminatedUnion | undefined {
  if (!isPlainObject(schema) || !Array.isArray(schema.oneOf) || !isPlainObject(schema.discriminator)) return undefined;
  const property = schema.discriminator.propertyName;
  if (typeof property !== "string") return undefined;
  const mapping = isPlainObject(schema.discriminator.mapping) ? schema.discriminator.mapping : {};
  const tags: string[] = [];
  schema.oneOf.forEach((branch, index) => {
    const found = branchTags(branch, property, mapping, document).tags;
    if (found.length === 0) {
      throw new EmitError(
        "unsupported-schema",
        "types",
        `discriminated union branch ${index} has no value for its tag ${JSON.stringify(property)}.`,
        `Give the branch \`properties: { ${property}: { const: ... } }\` (\`mantyx-wire keywords\`), or make it a \`$ref\` to a component (listed in discriminator.mapping, or tagged by its name).`,
        formatPointer([...at, "oneOf", String(index)]),
      );
    }
    for (const tag of found) if (!tags.includes(tag)) tags.push(tag);
  });
  return { property, tags };
}
