/**
 * What the validators never read, dropped from the schemas ajv compiles:
 * descriptions, titles, examples, defaults, the OpenAPI annotation fields
 * and the annotation-only vendor keywords (`x-known-values`, `x-terminal`,
 * ...). ajv's standalone output embeds a schema fragment wherever a keyword
 * reads its schema at run time (an `enum` error's `allowedValues`), and the
 * fragment carried its prose with it: RunCreateRequest's reasoning level
 * shipped a paragraph of documentation to every browser.
 *
 * Only annotations go; every keyword that asserts stays, at the same place,
 * so verdicts and errors (`instancePath`, `schemaPath`, `keyword`, `params`,
 * `message`) are those of the annotated schema. The walk follows JSON
 * Schema 2020-12's subschema positions only, so a *property* named
 * `description` or `default` is a property, not an annotation.
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { annotationKeywords } from "../../keywords/index.js";

/**
 * Keywords that assert nothing under the validators' options
 * (./ajv.ts: `validateFormats: false`, no `useDefaults`): JSON Schema's
 * meta-data and content vocabularies, `format`, `$comment`, OpenAPI's
 * annotation fields, and the vendor keywords registered as annotations.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "title", "description", "$comment", "examples", "example", "default", "deprecated", "readOnly", "writeOnly",
  "contentEncoding", "contentMediaType", "contentSchema", "format",
  ...annotationKeywords.flatMap((def) => [def.keyword].flat()),
]);

/** Keywords whose value is one subschema. */
const SUBSCHEMA = ["not", "if", "then", "else", "items", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames"];
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP = ["properties", "patternProperties", "dependentSchemas", "$defs"];

/** `schemas` (already a private copy) with every annotation removed, in place; returns it. */
export function dropAnnotations(schemas: Record<string, SchemaObject>): Record<string, SchemaObject> {
  for (const name of Object.keys(schemas)) strip(schemas[name]);
  return schemas;
}

function strip(schema: unknown): void {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return; // `true`/`false` schemas
  const node = schema as Record<string, unknown>;
  for (const key of Object.keys(node)) if (ANNOTATION_KEYWORDS.has(key)) delete node[key];
  for (const key of SUBSCHEMA) strip(node[key]);
  for (const key of SUBSCHEMA_LIST) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach(strip);
  }
  for (const key of SUBSCHEMA_MAP) {
    const map = node[key];
    if (map !== null && typeof map === "object") for (const sub of Object.values(map)) strip(sub);
  }
}
