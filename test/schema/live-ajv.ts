/**
 * The schema as live ajv sees it (ajv compiling at test time, with the
 * vendor keywords registered). The generated standalone validators are
 * tested against the same cases elsewhere; this file proves the schema
 * itself says what the documents say.
 */
import { fileURLToPath } from "node:url";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { loadSchema } from "../../generator/load/index.js";
import { addComponents, componentRef, createValidatorAjv, DOCUMENT_ID } from "../../generator/emit/validators/ajv.js";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const schemaPath = `${repoRoot}schema/openapi.yaml`;

// As the generator reads it: bundled, with the loader's vendor keywords
// (`x-enum-from-mapping`) expanded into the plain JSON Schema every artefact sees.
// Read as plain JSON: the tests follow paths this schema fixes (`components.schemas.X.properties.y`),
// and the assertions check what they find; OpenAPIObject's types would make every step a
// schema-or-$ref narrowing that checks nothing more.
// biome-ignore lint/suspicious/noExplicitAny: the schema document read as plain JSON (above)
export const document = (await loadSchema(schemaPath, { cwd: repoRoot })).document as any;
export const componentNames: string[] = Object.keys(document.components.schemas).sort();

// The generator's own ajv configuration (options, vendor keywords, and the
// component preparation that drops OpenAPI's discriminator `mapping`), so
// the schema is proven as the generated validators see it.
const ajv = createValidatorAjv();
addComponents(ajv, document.components.schemas);

const cache = new Map<string, ValidateFunction>();
export function validatorFor(name: string): ValidateFunction {
  let fn = cache.get(name);
  if (!fn) {
    if (!(name in document.components.schemas)) throw new Error(`no component schema named ${name}`);
    fn = ajv.getSchema(componentRef(name))!;
    cache.set(name, fn);
  }
  return fn;
}

/** Compile an arbitrary (sub)schema of the document, e.g. a media type's schema. */
let inlineCount = 0;
export function validatorForSchema(schema: unknown): ValidateFunction {
  return ajv.compile({ $id: `https://mantyx.invalid/inline/${++inlineCount}`, ...(rewriteRefs(schema) as object) });
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${DOCUMENT_ID}${v}` : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

export function check(name: string, data: unknown): { valid: boolean; errors: ErrorObject[] } {
  const fn = validatorFor(name);
  const valid = fn(data) as boolean;
  return { valid, errors: fn.errors ?? [] };
}
