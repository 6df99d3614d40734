/**
 * A discriminated union (`oneOf` + `discriminator` with a `mapping`) states
 * its tags twice: each branch's `properties.<tag>.const` (what ajv
 * dispatches on) and the mapping (what OpenAPI tools and the derived lists,
 * `x-enum-from-mapping`, read). They must say the same: every mapping value
 * is a `oneOf` branch whose tag is that key, and every branch is mapped
 * under its tag, or left out of the mapping when it declares no tag (OpenAPI's
 * implicit mapping tags it by its component name). Runs after checkRefs, so
 * every mapping value resolves.
 */
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { getAtPointer, isPlainObject, parseRefFragment, type Pointer } from "./json-pointer.js";
import { findDiscriminatedUnions, mappingRef } from "./refs.js";

export function checkDiscriminators(bundled: BundledDocument): void {
  const problems: SchemaProblem[] = [];
  for (const { path, union } of findDiscriminatedUnions(bundled.data)) {
    const discriminator = union.discriminator as Record<string, unknown>;
    const tagName = discriminator.propertyName;
    const mapping = discriminator.mapping;
    // A malformed discriminator is the OAS meta-schema's to report, later.
    if (typeof tagName !== "string" || !isPlainObject(mapping)) continue;
    const branches = (union.oneOf as unknown[]).map((branch) =>
      isPlainObject(branch) && typeof branch.$ref === "string" ? branch.$ref : undefined,
    );
    const report = (at: Pointer, message: string, fix: string): void =>
      void problems.push({ ...bundled.where(at), message, fix });
    const mappedBranches = new Set<string>();
    for (const [tag, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const at = [...path, "discriminator", "mapping", tag];
      const ref = mappingRef(target);
      mappedBranches.add(ref);
      if (!branches.includes(ref)) {
        report(
          at,
          `discriminator mapping ${JSON.stringify(tag)} -> ${JSON.stringify(ref)} is not one of the oneOf branches.`,
          `Add \`- $ref: "${ref}"\` to the oneOf, or map ${JSON.stringify(tag)} to one of its branches.`,
        );
        continue;
      }
      const tags = tagsOf(bundled.data, ref, tagName);
      if (tags === undefined) continue; // no tag at all: the validators emitter names the branch (ajv refuses it)
      if (!tags.includes(tag)) {
        report(
          at,
          `discriminator mapping ${JSON.stringify(tag)} -> ${JSON.stringify(ref)}, but that schema's ${JSON.stringify(tagName)} is ${tags.map((t) => JSON.stringify(t)).join(" or ")}.`,
          `Map ${JSON.stringify(tag)} to the branch whose properties.${tagName}.const is ${JSON.stringify(tag)}, or fix that const.`,
        );
      }
    }
    branches.forEach((ref, i) => {
      if (ref === undefined || mappedBranches.has(ref)) return;
      // An unmapped branch that declares no tag is tagged by its component
      // name (OpenAPI's implicit mapping); so is one whose tag is that name.
      const tags = tagsOf(bundled.data, ref, tagName);
      if (tags === undefined || tags.includes(ref.slice(ref.lastIndexOf("/") + 1))) return;
      const example = tags[0] ?? "<tag>";
      report(
        [...path, "oneOf", String(i)],
        `oneOf branch ${JSON.stringify(ref)} is missing from the discriminator mapping${tags.length > 0 ? ` (its ${JSON.stringify(tagName)} is ${JSON.stringify(example)})` : ""}.`,
        `Add \`${example}: "${ref}"\` to discriminator.mapping: the mapping lists every branch (the known-type lists are derived from it).`,
      );
    });
  }
  if (problems.length > 0) {
    throw new SchemaLoadError(
      "bad-discriminator",
      [problems[0]!, ...problems.slice(1)],
      "Make discriminator.mapping and the oneOf branches' tag consts agree.",
    );
  }
}

/** The tag values a branch declares (`const`, or the strings of an `enum`), or undefined when it declares none. */
export function tagsOf(document: unknown, ref: string, tagName: string): string[] | undefined {
  const segments = parseRefFragment(ref);
  const branch = segments && getAtPointer(document, segments);
  const properties = isPlainObject(branch) ? branch.properties : undefined;
  const tag = isPlainObject(properties) ? properties[tagName] : undefined;
  if (!isPlainObject(tag)) return undefined;
  if (typeof tag.const === "string") return [tag.const];
  if (Array.isArray(tag.enum)) return tag.enum.filter((value): value is string => typeof value === "string");
  return undefined;
}
