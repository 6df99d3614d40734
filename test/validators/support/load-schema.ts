/**
 * Builds a `LoadedSchema` from a YAML/JSON file for the validator tests and
 * the bench, without the project's loader (generator/load): parse, sort the
 * component names, hash the canonical JSON. No bundling: the files used here
 * have internal `$ref`s only.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { parse } from "yaml";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import type { LoadedSchema } from "../../../generator/model.js";

export const REPO_ROOT = new URL("../../../", import.meta.url);
export const SCHEMA_PATH = new URL("schema/openapi.yaml", REPO_ROOT);
export const FIXTURES = new URL("../fixtures/", import.meta.url);

export function loadSchemaFile(file: URL): LoadedSchema {
  const text = readFileSync(file, "utf8");
  const document = (file.pathname.endsWith(".json") ? JSON.parse(text) : parse(text)) as OpenAPIObject;
  const raw = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const schemas: Record<string, SchemaObject> = {};
  for (const name of Object.keys(raw).sort()) schemas[name] = raw[name] as SchemaObject;
  const pkg = JSON.parse(readFileSync(new URL("package.json", REPO_ROOT), "utf8")) as { version: string };
  return {
    document,
    schemas,
    sourcePath: relative(REPO_ROOT.pathname, file.pathname).split("\\").join("/"),
    hash: createHash("sha256").update(canonicalJson(document)).digest("hex"),
    generatorVersion: pkg.version,
  };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}
