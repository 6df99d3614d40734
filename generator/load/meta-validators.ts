/**
 * The validators of the meta-schemas the loader checks documents against:
 * the OpenAPI 3.1 and 3.2 meta-schemas (./validate-openapi.ts) and JSON
 * Schema 2020-12 (each component, ./validate-schemas.ts). Compiling them was
 * a tenth of a `gen` run; the published bundle carries them as ajv
 * standalone code built with the same instance options
 * (generator/scripts/prebuilt-assets.ts, ../prebuilt.ts), and from the
 * sources they are compiled on first use, as before.
 */
import { readFileSync } from "node:fs";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { assetUrl } from "../assets.js";
import { prebuilt } from "../prebuilt.js";
import { loaderAjv } from "./ajv.js";
import { oas32SchemaUrl } from "./oas-3.2-schema.js";

export type MetaSchema = "oas-3.1" | "oas-3.2" | "json-schema-2020-12";

export const META_SCHEMAS: readonly MetaSchema[] = ["oas-3.1", "oas-3.2", "json-schema-2020-12"];

/** The `$id` of JSON Schema 2020-12, the default meta-schema of the loader's instance. */
export const DIALECT_2020_12_ID = "https://json-schema.org/draft/2020-12/schema";

/** The prebuilt file of `which` (../prebuilt.ts). */
export const metaValidatorFile = (which: MetaSchema): string => `${which}.cjs`;

/** The meta-schema's text, read where it is kept (OAS 3.2: its package's file). */
export function metaSchemaText(which: Exclude<MetaSchema, "json-schema-2020-12">): string {
  const file =
    which === "oas-3.1"
      ? assetUrl(new URL("./oas-3.1-schema.json", import.meta.url), "oas-3.1-schema.json", import.meta.url)
      : oas32SchemaUrl();
  return readFileSync(file, "utf8");
}

/** The validator compiled by the loader's instance (what the prebuilt code is built from). */
export function compileMetaValidator(which: MetaSchema, ajv: Ajv2020 = loaderAjv()): ValidateFunction {
  if (which === "json-schema-2020-12") return ajv.getSchema(DIALECT_2020_12_ID)!;
  const metaSchema: unknown = JSON.parse(metaSchemaText(which));
  if (which === "oas-3.1") {
    allowPathItemRef(metaSchema);
    allowLinkServer(metaSchema);
  }
  return ajv.compile(metaSchema as object);
}

/**
 * OpenAPI 3.1.0 gives the Path Item Object a `$ref` field (a Path Item may
 * be a reference, typically to `components.pathItems`, which 3.1
 * introduced for that), but the 2022-10-07 meta-schema's `path-item` omits
 * it, so a document using it failed as "unknown field $ref"; the 3.2
 * meta-schema has it. Added here as the 3.2 schema states it.
 * https://spec.openapis.org/oas/v3.1.0#path-item-object
 */
function allowPathItemRef(metaSchema: unknown): void {
  const pathItem = (metaSchema as { $defs?: Record<string, { properties?: Record<string, unknown> }> }).$defs?.[
    "path-item"
  ];
  if (pathItem?.properties && !("$ref" in pathItem.properties))
    pathItem.properties.$ref = { type: "string", format: "uri-reference" };
}

/**
 * A Link Object's `server` (OpenAPI 3.1: "A server object to be used by the
 * target operation"): the 2022-10-07 meta-schema's `link` names that
 * property `body` by mistake (later editions and the 3.2 schema say
 * `server`), so a document with a link's `server` failed as "unknown field".
 * https://spec.openapis.org/oas/v3.1.0#link-object
 */
function allowLinkServer(metaSchema: unknown): void {
  const link = (metaSchema as { $defs?: Record<string, { properties?: Record<string, unknown> }> }).$defs?.link;
  if (link?.properties && !("server" in link.properties) && "body" in link.properties) {
    link.properties.server = link.properties.body;
    delete link.properties.body;
  }
}

const cached = new Map<MetaSchema, ValidateFunction>();

/** The validator of `which`: the prebuilt one in the bundle, else compiled once per process. */
export function metaValidator(which: MetaSchema): ValidateFunction {
  let validate = cached.get(which);
  if (validate === undefined) {
    validate = prebuilt<ValidateFunction>(metaValidatorFile(which)) ?? compileMetaValidator(which);
    cached.set(which, validate);
  }
  return validate;
}
