/**
 * `x-enum-from-mapping: "#/components/schemas/Union"` (schema/CONVENTIONS.md):
 * stands where an `enum` would, and means "the keys of that union's
 * `discriminator.mapping`, in mapping order". The loader replaces it by
 * that plain `enum`, in place (same key position), before the model is
 * built, so every artefact (types, validators, openapi.json, the fixture
 * suite's schema.json) sees ordinary JSON Schema, and adding a variant to
 * the union (a `oneOf` branch and its mapping entry) updates every list of
 * known tags, e.g. the event types `UnknownAgentRunEvent` must not have.
 */
import { SchemaLoadError } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { getAtPointer, isPlainObject, parseRefFragment } from "./json-pointer.js";
import { findKeyword } from "./refs.js";

export const ENUM_FROM_MAPPING = "x-enum-from-mapping";

const FIX = `Give ${ENUM_FROM_MAPPING} the pointer of a oneOf union with a discriminator.mapping, e.g. "#/components/schemas/KnownAgentRunEvent".`;

export function resolveEnumsFromMapping(bundled: BundledDocument): void {
  for (const { path, holder } of findKeyword(bundled.data, ENUM_FROM_MAPPING)) {
    const at = [...path, ENUM_FROM_MAPPING];
    const fail = (code: "invalid-json-schema" | "dangling-ref", message: string, fix = FIX): never => {
      throw new SchemaLoadError(code, [{ ...bundled.where(at), message: `${ENUM_FROM_MAPPING}: ${message}` }], fix);
    };
    const ref = holder[ENUM_FROM_MAPPING];
    if (typeof ref !== "string")
      fail("invalid-json-schema", `the value is ${JSON.stringify(ref)}, not a pointer string.`);
    const segments = parseRefFragment(ref as string);
    if (!segments) fail("invalid-json-schema", `${JSON.stringify(ref)} is not a pointer into this document ("#/...").`);
    const union = getAtPointer(bundled.data, segments!);
    if (union === undefined)
      fail(
        "dangling-ref",
        `${JSON.stringify(ref)} does not resolve.`,
        "Point it at an existing union (a JSON pointer such as #/components/schemas/Name).",
      );
    const discriminator = isPlainObject(union) ? union.discriminator : undefined;
    const mapping = isPlainObject(discriminator) ? discriminator.mapping : undefined;
    if (
      !isPlainObject(union) ||
      !Array.isArray(union.oneOf) ||
      !isPlainObject(mapping) ||
      Object.keys(mapping).length === 0
    ) {
      fail("invalid-json-schema", `${JSON.stringify(ref)} is not a oneOf with a non-empty discriminator.mapping.`);
    }
    if (Object.hasOwn(holder, "enum")) {
      fail(
        "invalid-json-schema",
        "stands beside an `enum`; the derived list would replace it.",
        `Remove the hand-written \`enum\` and keep ${ENUM_FROM_MAPPING} (or the other way round).`,
      );
    }
    replaceKey(holder, ENUM_FROM_MAPPING, "enum", Object.keys(mapping as Record<string, unknown>));
  }
}

/** Replaces `from` by `to: value` at the same position among `object`'s keys (output is in author order). */
function replaceKey(object: Record<string, unknown>, from: string, to: string, value: unknown): void {
  const entries = Object.entries(object).map(([key, v]): [string, unknown] => (key === from ? [to, value] : [key, v]));
  for (const key of Object.keys(object)) delete object[key];
  for (const [key, v] of entries)
    Object.defineProperty(object, key, { value: v, writable: true, enumerable: true, configurable: true });
}
