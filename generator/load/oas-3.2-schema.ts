/**
 * Where the OpenAPI 3.2 meta-schema comes from: the
 * `@seriousme/openapi-schema-validator` package (a dependency) ships the
 * OAI's published 3.2 schema (`schemas/v3.2/schema.json`, "without Schema
 * Object validation", like oas-3.1-schema.json) with its `$dynamicRef`s
 * turned into plain `$ref`s, which ajv resolves. Reading it from the package
 * keeps the schema's provenance and licence with it instead of a copy here.
 * Only the JSON file is used, never the package's code.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const PACKAGE = "@seriousme/openapi-schema-validator";

export function oas32SchemaUrl(): URL {
  // The package's `exports` do not list the schema files: find its folder by its package.json.
  const packageJson = createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
  return new URL("schemas/v3.2/schema.json", pathToFileURL(packageJson));
}
