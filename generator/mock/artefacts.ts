/**
 * The MANTYX artefacts the mock serves from, read as data (never imported:
 * generator/ may not import generated/ code, test/layers): the bundled
 * schema (`openapi.json`) and the fixture suite's flow cases. In the source
 * tree they are the repository's generated/ files; in the published bin
 * generator/scripts/build.mjs copies them into `dist/mock-data/`, so
 * `npx -p @mantyx/wire-gen mantyx-wire mock` needs no other package.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { assetUrl } from "../assets.js";

const SOURCE = new URL("../../generated/", import.meta.url);

/** The folder holding `openapi.json` and `fixtures/flows/`. */
function dataDir(): URL {
  const found = assetUrl(SOURCE, "mock-data/", import.meta.url);
  return found.href.endsWith("/") ? found : new URL(`${found.href}/`);
}

/** The bundled MANTYX schema (one JSON document, internal `$ref`s only). */
export function mantyxDocument(): OpenAPIObject {
  return JSON.parse(readFileSync(fileURLToPath(new URL("openapi.json", dataDir())), "utf8")) as OpenAPIObject;
}

/** The fixture suite's flow cases, by file name without `.json`. */
export function mantyxFlows(): Map<string, unknown> {
  const dir = new URL("fixtures/flows/", dataDir());
  const out = new Map<string, unknown>();
  for (const name of readdirSync(fileURLToPath(dir))
    .filter((n) => n.endsWith(".json"))
    .sort()) {
    out.set(name.slice(0, -".json".length), JSON.parse(readFileSync(fileURLToPath(new URL(name, dir)), "utf8")));
  }
  return out;
}

/**
 * The event types that end a run: the `type` const of every component the
 * schema marks `x-terminal: true` (the event union's terminal variants).
 */
export function terminalEventTypes(doc: OpenAPIObject): Set<string> {
  const out = new Set<string>();
  for (const schema of Object.values(doc.components?.schemas ?? {}) as Array<Record<string, unknown>>) {
    if (schema["x-terminal"] !== true) continue;
    const type = (schema["properties"] as Record<string, { const?: unknown }> | undefined)?.["type"]?.const;
    if (typeof type === "string") out.add(type);
  }
  return out;
}

let terminal: Set<string> | undefined;

/** Whether `type` ends a MANTYX run (from the bundled schema's `x-terminal`, read once). */
export function isTerminalType(type: string): boolean {
  terminal ??= terminalEventTypes(mantyxDocument());
  return terminal.has(type);
}
