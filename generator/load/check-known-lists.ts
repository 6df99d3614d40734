/**
 * Lists of a union's tags written out elsewhere must be the union's tags.
 * The event union follows the pattern of schema/CONVENTIONS.md:
 *
 *   AgentRunEvent:  if: { properties: { type: { enum: KNOWN } } }
 *                   then: { $ref: KnownAgentRunEvent }      (the union)
 *                   else: { $ref: UnknownAgentRunEvent }    (type: { not: { enum: KNOWN } })
 *
 * With `x-enum-from-mapping` both KNOWN lists are derived and agree by
 * construction; written by hand, a type added to the union but not to them
 * would make a malformed event of that type valid as an unknown one. So
 * each such list is compared with the union's mapping keys.
 */
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { tagsOf } from "./check-discriminators.js";
import { formatRefFragment, getAtPointer, isPlainObject, parseRefFragment, type Pointer } from "./json-pointer.js";
import { findDiscriminatedUnions, findKeyword, mappingRef } from "./refs.js";
import { ENUM_FROM_MAPPING } from "./enum-from-mapping.js";

export function checkKnownLists(bundled: BundledDocument): void {
  const unions = new Map<string, { path: Pointer; tagName: string; tags: string[] }>();
  for (const { path, union } of findDiscriminatedUnions(bundled.data)) {
    const { propertyName, mapping } = union.discriminator as Record<string, unknown>;
    if (typeof propertyName !== "string") continue;
    const tags = isPlainObject(mapping)
      ? Object.keys(mapping)
      : (union.oneOf as unknown[]).flatMap((branch) =>
          isPlainObject(branch) && typeof branch.$ref === "string"
            ? (tagsOf(bundled.data, mappingRef(branch.$ref), propertyName) ?? [])
            : [],
        );
    unions.set(formatRefFragment(path), { path, tagName: propertyName, tags });
  }
  const problems: SchemaProblem[] = [];
  const compare = (listAt: Pointer, list: unknown, union: { path: Pointer; tags: string[] }, what: string): void => {
    if (!Array.isArray(list)) return;
    const missing = union.tags.filter((tag) => !list.includes(tag));
    const extra = list.filter((value) => !union.tags.includes(value as string));
    if (missing.length === 0 && extra.length === 0) return;
    const unionRef = formatRefFragment(union.path);
    const parts = [
      ...(missing.length > 0 ? [`lacks ${missing.map((t) => JSON.stringify(t)).join(", ")}`] : []),
      ...(extra.length > 0
        ? [`has ${extra.map((t) => JSON.stringify(t)).join(", ")}, which the mapping does not`]
        : []),
    ];
    problems.push({
      ...bundled.where(listAt),
      message: `${what} ${JSON.stringify(formatRefFragment(listAt))} disagrees with the discriminator mapping of ${JSON.stringify(unionRef)}: it ${parts.join(" and ")}.`,
      fix: `Replace the list with \`${ENUM_FROM_MAPPING}: "${unionRef}"\`, which the generator expands to the mapping's keys (\`mantyx-wire keywords\`), so a new variant needs no second edit.`,
    });
  };
  for (const { path, holder } of findKeyword(bundled.data, "then")) {
    const then = holder.then;
    const union = isPlainObject(then) && typeof then.$ref === "string" ? unions.get(then.$ref) : undefined;
    if (!union) continue;
    const condition = getAtPointer(holder, ["if", "properties", union.tagName]);
    if (isPlainObject(condition))
      compare(
        [...path, "if", "properties", union.tagName, "enum"],
        condition.enum,
        union,
        "the `if` list of known tags",
      );
    const otherwise = holder.else;
    const openRef = isPlainObject(otherwise) && typeof otherwise.$ref === "string" ? otherwise.$ref : undefined;
    const openPath = openRef === undefined ? undefined : parseRefFragment(openRef);
    const excluded = openPath && getAtPointer(bundled.data, [...openPath, "properties", union.tagName, "not"]);
    if (isPlainObject(excluded))
      compare(
        [...openPath!, "properties", union.tagName, "not", "enum"],
        excluded.enum,
        union,
        "the open variant's list of excluded tags",
      );
  }
  if (problems.length > 0) {
    throw new SchemaLoadError(
      "disagreeing-lists",
      [problems[0]!, ...problems.slice(1)],
      "Make every list of known tags the union's mapping keys (or derive it with x-enum-from-mapping).",
    );
  }
}
