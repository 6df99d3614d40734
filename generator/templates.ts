/**
 * The client templates (./templates/*.hbs, Handlebars) as the emitter uses
 * them. The published bundle carries them precompiled
 * (generator/scripts/prebuilt-assets.ts, ./prebuilt.ts) and loads only the
 * Handlebars runtime; from the sources they are compiled at each run by the
 * full Handlebars, with the same options.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type HandlebarsNamespace from "handlebars";
// Imported, not required, so that the published bundle holds it (generator/scripts/build.mjs): it is what the bundle renders with.
import handlebarsRuntime from "handlebars/runtime.js";
import { assetUrl } from "./assets.js";
import { prebuilt } from "./prebuilt.js";

type Handlebars = typeof HandlebarsNamespace;
type TemplateSpecification = ReturnType<Handlebars["precompile"]>;

/** Every template and partial, by file name. */
export const TEMPLATE_FILES = [
  "client.ts.hbs",
  "client-core.ts.hbs",
  "operations.ts.hbs",
  "operation-args.hbs",
  "operation-result.hbs",
  "operation-doc.hbs",
] as const;
export type TemplateFile = (typeof TEMPLATE_FILES)[number];

/** How every template is compiled: a missing field is an error, not an empty string. */
export const TEMPLATE_OPTIONS = { strict: true, noEscape: false } as const;

/** The prebuilt file of the precompiled templates: `{ [file]: spec }`. */
export const PRECOMPILED_TEMPLATES_FILE = "templates.cjs";

const require = createRequire(import.meta.url);

/** The text of template `file`. */
export function templateSource(file: TemplateFile): string {
  return readFileSync(assetUrl(new URL(`./templates/${file}`, import.meta.url), file, import.meta.url), "utf8");
}

let precompiled: Readonly<Record<string, TemplateSpecification>> | null | undefined;

/** A fresh Handlebars environment, and how to get each template in it. */
export function templateEnvironment(): { hb: Handlebars; template(file: TemplateFile): HandlebarsTemplateDelegate } {
  if (precompiled === undefined)
    precompiled = prebuilt<Record<string, TemplateSpecification>>(PRECOMPILED_TEMPLATES_FILE) ?? null;
  if (precompiled !== null) {
    const specs = precompiled;
    // The runtime alone: no parser or compiler to load.
    const hb = (handlebarsRuntime as unknown as Handlebars).create();
    return { hb, template: (file) => hb.template(specs[file]!) };
  }
  const hb = (require("handlebars") as Handlebars).create();
  return { hb, template: (file) => hb.compile(templateSource(file), TEMPLATE_OPTIONS) };
}
