/**
 * OpenAPI 3.1 Schema Object fields that are annotations and that JSON Schema
 * 2020-12 does not define (OpenAPI 3.1 §4.8.24 "Fixed Fields": `example`,
 * `xml`, `externalDocs`). Registered so that ajv's strict mode accepts them.
 *
 * `discriminator` is not here: ajv implements it (option `discriminator`).
 * `deprecated`, `examples`, `readOnly`, `writeOnly` are in JSON Schema's
 * meta-data vocabulary, which ajv already knows.
 */
import type { KeywordDefinition } from "ajv/dist/2020.js";

export const openApiAnnotations: readonly KeywordDefinition[] = [
  { keyword: "example" },
  { keyword: "xml", schemaType: "object" },
  { keyword: "externalDocs", schemaType: "object" },
];
