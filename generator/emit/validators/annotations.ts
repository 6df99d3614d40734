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
 *
 * A keyword the generator does not know at all (neither JSON Schema's nor
 * OpenAPI's nor a vendor keyword of generator/keywords, and no misspelling
 * of one, which the loader refuses) is an annotation too, as JSON Schema
 * says unknown keywords are: dropped here, and reported by `gen`
 * (`unknownKeywords`).
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { annotationKeywords } from "../../keywords/index.js";
import { escapePointerSegment } from "../../load/json-pointer.js";
import { isKnownKeyword } from "../../load/validate-schemas.js";

/**
 * Keywords that assert nothing under the validators' options
 * (./ajv.ts: `validateFormats: false`, no `useDefaults`): JSON Schema's
 * meta-data and content vocabularies, `format`, `$comment`, OpenAPI's
 * annotation fields, and the vendor keywords registered as annotations.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "$comment",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "format",
  // OpenAPI 3.0's; the loader has added its `null` to the `type` (../../load/nullable.ts).
  "nullable",
  ...annotationKeywords.flatMap((def) => [def.keyword].flat()),
]);

/** Keywords whose value is one subschema. */
const SUBSCHEMA = [
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
];
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP = ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"];

/** `schemas` (already a private copy) with every annotation removed, in place; returns it. */
export function dropAnnotations(schemas: Record<string, SchemaObject>): Record<string, SchemaObject> {
  for (const name of Object.keys(schemas)) {
    eachSchema(schemas[name], "", (node) => {
      for (const key of Object.keys(node)) if (ANNOTATION_KEYWORDS.has(key) || !isKnownKeyword(key)) delete node[key];
    });
  }
  return schemas;
}

/**
 * Each keyword of the component schemas that the generator does not know
 * and that is no `x-` extension (those are `unknownVendorKeywords`'s), with
 * the pointer of its first use, in component order.
 */
export function unknownKeywords(schemas: Readonly<Record<string, SchemaObject>>): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of Object.keys(schemas).sort()) {
    eachSchema(schemas[name], `/components/schemas/${escapePointerSegment(name)}`, (node, at) => {
      for (const key of Object.keys(node))
        if (!key.startsWith("x-") && !isKnownKeyword(key) && !found.has(key))
          found.set(key, `${at}/${escapePointerSegment(key)}`);
    });
  }
  return found;
}

/**
 * Where `definitions` (drafts 4 to 7's name of `$defs`, read as `$defs`:
 * ../../load/validate-schemas.ts) is first used in the component schemas, if it is.
 */
export function firstDefinitions(schemas: Readonly<Record<string, SchemaObject>>): string | undefined {
  for (const name of Object.keys(schemas).sort()) {
    let found: string | undefined;
    eachSchema(schemas[name], `/components/schemas/${escapePointerSegment(name)}`, (node, at) => {
      if (found === undefined && Object.hasOwn(node, "definitions")) found = `${at}/definitions`;
    });
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What a keyword of an earlier JSON Schema draft meant there, for the
 * warning `gen` gives when it meets one (it asserts nothing in 2020-12):
 * each says what is no longer checked, or how the reading differs, and the
 * 2020-12 spelling. `value` is the keyword's value at its first use.
 */
export function earlierDraftNote(keyword: string, value: unknown): string | undefined {
  switch (keyword) {
    case "dependencies":
      return "`dependencies` (drafts 4 to 7) is no 2020-12 keyword: read as an annotation, what it required is not checked. Write `dependentRequired` (for lists of names) or `dependentSchemas` (for schemas)";
    case "additionalItems":
      return "`additionalItems` (drafts 4 to 2019-09) is no 2020-12 keyword: read as an annotation, it checks nothing. 2020-12 writes a tuple as `prefixItems` and the items past it as `items`";
    case "id": {
      const relative = typeof value === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(value);
      return relative
        ? `\`id\` is draft-04's \`$id\`; 2020-12 ignores it. In draft-04 its relative URI ${JSON.stringify(value)} was the base the \`$ref\`s below it resolved against; here they resolve against the document, so a relative \`$ref\` there may name another schema than its author meant. Write \`$id\` (or remove it)`
        : "`id` is draft-04's `$id`; 2020-12 reads it as an annotation. Write `$id` (or remove it)";
    }
    default:
      return undefined;
  }
}

/** Calls `f` on `schema` and on each of its subschemas (JSON Schema 2020-12's positions only), parents first. */
function eachSchema(schema: unknown, at: string, f: (node: Record<string, unknown>, at: string) => void): void {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return; // `true`/`false` schemas
  const node = schema as Record<string, unknown>;
  f(node, at);
  for (const key of SUBSCHEMA) eachSchema(node[key], `${at}/${key}`, f);
  for (const key of SUBSCHEMA_LIST) {
    const list = node[key];
    if (Array.isArray(list)) {
      list.forEach((sub, i) => {
        eachSchema(sub, `${at}/${key}/${i}`, f);
      });
    }
  }
  for (const key of SUBSCHEMA_MAP) {
    const map = node[key];
    if (map !== null && typeof map === "object")
      for (const [name, sub] of Object.entries(map)) eachSchema(sub, `${at}/${key}/${escapePointerSegment(name)}`, f);
  }
}
