/**
 * After bundling every `$ref` is internal; each must point at something.
 * Discriminator mapping values are checked the same way.
 */
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { formatRefFragment, getAtPointer, isPlainObject, parseRefFragment, resolvedDepth } from "./json-pointer.js";
import { findDiscriminatorMappings, findRefs } from "./refs.js";
import { closest } from "./suggest.js";

export function checkRefs(bundled: BundledDocument): void {
  const problems: SchemaProblem[] = [];
  const sites = [
    ...(bundled.refSites ?? findRefs(bundled.data)).map((site) => ({
      ref: site.ref,
      at: [...site.path, "$ref"],
      kind: "$ref",
    })),
    ...findDiscriminatorMappings(bundled.data).map((site) => ({
      ref: site.ref,
      at: [...site.path],
      kind: "discriminator mapping",
    })),
  ];
  for (const site of sites) {
    const segments = parseRefFragment(site.ref);
    if (!segments) {
      problems.push({
        ...bundled.where(site.at),
        message: `${site.kind} ${JSON.stringify(site.ref)} is not an internal JSON pointer.`,
        fix: 'Use a JSON pointer into this document, e.g. "#/components/schemas/Name" (anchors and $id-relative refs are not supported).',
      });
      continue;
    }
    if (getAtPointer(bundled.data, segments) !== undefined) continue;
    const depth = resolvedDepth(bundled.data, segments);
    const parentSegments = segments.slice(0, depth);
    const parent = getAtPointer(bundled.data, parentSegments);
    const missing = segments[depth] ?? "";
    const suggestion = isPlainObject(parent) ? closest(missing, Object.keys(parent)) : undefined;
    const parentText = depth === 0 ? "the document" : JSON.stringify(formatRefFragment(parentSegments));
    const didYouMean =
      suggestion === undefined
        ? ""
        : ` Did you mean ${JSON.stringify(formatRefFragment([...parentSegments, suggestion, ...segments.slice(depth + 1)]))}?`;
    problems.push({
      ...bundled.where(site.at),
      message: `${site.kind} ${JSON.stringify(site.ref)} does not resolve: ${parentText} has no ${JSON.stringify(missing)}.`,
      fix: `Point it at an existing entry or add ${JSON.stringify(missing)} under ${parentText}.${didYouMean}`,
    });
  }
  if (problems.length > 0) {
    throw new SchemaLoadError(
      "dangling-ref",
      [problems[0]!, ...problems.slice(1)],
      "Point each $ref at an existing location.",
    );
  }
}
