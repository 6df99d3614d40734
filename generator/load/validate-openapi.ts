/**
 * Is this an OpenAPI 3.0, 3.1 or 3.2 document? First the version field (so
 * a Swagger 2.0 file gets a refusal naming a converter, not a hundred
 * meta-schema errors), then the official meta-schema of that version (a
 * 3.0 document, read as 3.1 by then, ./openapi-30/, the 3.1 one):
 * OAS 3.1 from `oas-3.1-schema.json` (committed), OAS 3.2 from the
 * `@seriousme/openapi-schema-validator` package (the OAI's 3.2 schema, its
 * `$dynamicRef`s made plain `$ref`s so ajv resolves them; see
 * oas-3.2-schema.ts); compiled once, or prebuilt in the bundle
 * (./meta-validators.ts).
 * https://spec.openapis.org/oas/v3.1.0#openapi-object
 * https://spec.openapis.org/oas/v3.2.0#openapi-object
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { isPlainObject } from "./json-pointer.js";
import { selectProblems } from "./ajv-problems.js";
import { metaValidator } from "./meta-validators.js";
import type { SourceFile } from "./source-file.js";

/** A converter for Swagger 2.0 documents, named in the refusal. */
const SWAGGER_CONVERTER =
  "Convert it to OpenAPI 3 first, e.g. `npx swagger2openapi swagger.yaml --outfile openapi.yaml` (the swagger2openapi package; or https://converter.swagger.io), then run gen on the converted file: OpenAPI 3.0 is read as written.";

/** The OpenAPI minor versions the generator reads (3.0 is read as 3.1: ./openapi-30/). */
export type OpenApiVersion = "3.0" | "3.1" | "3.2";

/** Checks the `openapi` field of the root file and returns its minor version. Throws `not-openapi-31`. */
export function checkOpenApiVersion(root: SourceFile): OpenApiVersion {
  const data = root.data;
  const fail = (message: string, fix: string, at: string[] = [], key = false): never => {
    throw new SchemaLoadError("not-openapi-31", [{ ...root.where(at, { key }), message }], fix);
  };
  if (!isPlainObject(data)) {
    return fail(
      "the document is not a mapping (an OpenAPI document is an object with `openapi`, `info`, ...).",
      "Start from a document with `openapi: 3.1.0`, `info` and `paths` or `components`.",
    );
  }
  if (data.swagger !== undefined) {
    return fail(
      `this is a Swagger ${JSON.stringify(data.swagger)} (OpenAPI 2.0) document; the generator reads OpenAPI 3.0, 3.1 and 3.2.`,
      SWAGGER_CONVERTER,
      ["swagger"],
      true,
    );
  }
  if (data.openapi === undefined) {
    return fail("the document has no `openapi` field.", "Add `openapi: 3.1.0` at the top of the document.");
  }
  if (typeof data.openapi !== "string") {
    return fail(
      `\`openapi\` is ${JSON.stringify(data.openapi)}, not a string.`,
      'Quote the version: `openapi: "3.1.0"` (YAML reads 3.1 as a number).',
      ["openapi"],
    );
  }
  const minor = /^3\.([012])\.\d+(-.+)?$/.exec(data.openapi)?.[1];
  if (minor === undefined) {
    return fail(
      `\`openapi: ${data.openapi}\` is not an OpenAPI 3.0, 3.1 or 3.2 version.`,
      "Set `openapi: 3.1.0` (or `3.2.0`, or the 3.0.x the document is written in); the generator reads OpenAPI 3.0, 3.1 and 3.2 (`mantyx-wire --help`).",
      ["openapi"],
    );
  }
  return `3.${minor}` as OpenApiVersion;
}

/** Validates the bundled document against the meta-schema of its OpenAPI version. Throws `not-openapi-31`. */
export function validateOpenApiDocument(bundled: BundledDocument, version: OpenApiVersion = "3.1"): void {
  // A 3.0 document is read as 3.1 by now (./openapi-30/): the 3.1 meta-schema checks the structure both share.
  const validate = metaValidator(version === "3.2" ? "oas-3.2" : "oas-3.1");
  if (validate(bundled.data)) return;
  const problems: SchemaProblem[] = selectProblems(validate.errors ?? [], objectNameOf).map((problem) => ({
    ...bundled.where(problem.at, { key: problem.key }),
    message: problem.message,
    ...(problem.fix !== undefined && { fix: problem.fix }),
  }));
  throw new SchemaLoadError(
    "not-openapi-31",
    [
      problems[0] ?? {
        file: bundled.root.displayPath,
        message: `the document does not match the OpenAPI ${version} meta-schema.`,
      },
      ...problems.slice(1),
    ],
    `Make the document match the OpenAPI ${version} specification (https://spec.openapis.org/oas/v${version}.0); an OpenAPI linter explains more (in this repository: \`npm run lint:schema\`; elsewhere e.g. \`npx @redocly/cli lint\`).`,
  );
}

/** "an Operation Object", from the `$comment` link the meta-schema puts on each object definition. */
function objectNameOf(error: ErrorObject): string | undefined {
  const comment: unknown = error.parentSchema?.$comment;
  const anchor = typeof comment === "string" ? /#([a-z-]+)-object$/.exec(comment)?.[1] : undefined;
  if (!anchor) return undefined;
  const title = anchor.replace(
    /(^|-)([a-z])/g,
    (_m, dash: string, c: string) => `${dash ? " " : ""}${c.toUpperCase()}`,
  );
  return `${/^[AEIOU]/.test(title) ? "an" : "a"} ${title} Object`;
}
