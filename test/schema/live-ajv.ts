/**
 * The schema as live ajv sees it (ajv compiling at test time, with the
 * vendor keywords registered). The generated standalone validators are
 * tested against the same cases elsewhere; this file proves the schema
 * itself says what the documents say.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { registerVendorKeywords } from "../../generator/keywords/index.js";

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const schemaPath = `${repoRoot}schema/openapi.yaml`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const document = parse(readFileSync(schemaPath, "utf8")) as any;
export const componentNames: string[] = Object.keys(document.components.schemas).sort();

const SCHEMA_ID = "https://mantyx.local/openapi.json";
const ajv = new Ajv2020({ discriminator: true, allErrors: false, strict: false, validateFormats: false });
registerVendorKeywords(ajv);
// ajv's `discriminator` rejects OpenAPI's `mapping` (it derives the mapping
// from each branch's `const`), so the copy ajv sees has `mapping` removed.
ajv.addSchema({ $id: SCHEMA_ID, components: withoutDiscriminatorMapping(document.components) }, SCHEMA_ID);

function withoutDiscriminatorMapping(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDiscriminatorMapping);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "discriminator" && v && typeof v === "object") {
        const { mapping: _mapping, ...rest } = v as Record<string, unknown>;
        out[k] = rest;
      } else out[k] = withoutDiscriminatorMapping(v);
    }
    return out;
  }
  return value;
}

const cache = new Map<string, ValidateFunction>();
export function validatorFor(name: string): ValidateFunction {
  let fn = cache.get(name);
  if (!fn) {
    if (!(name in document.components.schemas)) throw new Error(`no component schema named ${name}`);
    fn = ajv.compile({ $ref: `${SCHEMA_ID}#/components/schemas/${name}` });
    cache.set(name, fn);
  }
  return fn;
}

/** Compile an arbitrary (sub)schema of the document, e.g. a media type's schema. */
export function validatorForSchema(schema: unknown): ValidateFunction {
  return ajv.compile({ $id: `https://mantyx.local/inline/${cache.size}-${Math.random()}`, ...rewriteRefs(schema) as object });
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${SCHEMA_ID}${v}` : rewriteRefs(v);
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
