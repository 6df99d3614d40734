/**
 * The loader: schema file -> `LoadedSchema`.
 *
 *   read + parse (YAML/JSON, positions kept)
 *   -> OpenAPI version check, 3.1 or 3.2 (not-openapi-31)
 *   -> bundle external $refs        (dangling-ref)
 *   -> every internal $ref resolves (dangling-ref)
 *   -> no $ref cycle back to the same value (ref-cycle)
 *   -> discriminator mappings agree with their oneOf (bad-discriminator)
 *   -> x-enum-from-mapping expanded to plain enums; lists of a union's
 *      tags agree with its mapping (disagreeing-lists)
 *   -> OpenAPI 3.0 / draft-04 leftovers read as their authors meant:
 *      `nullable`, boolean exclusive bounds
 *   -> OAS 3.1 / 3.2 meta-schema    (not-openapi-31)
 *   -> component schemas are JSON Schema 2020-12, strict (invalid-json-schema)
 *   -> x-pagination names real parameters and properties (invalid-json-schema)
 *
 * Every failure is a `SchemaLoadError` naming the file, line:column, JSON
 * pointer and the fix.
 */
import path from "node:path";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import { SchemaLoadError } from "../errors.js";
import type { LoadedSchema } from "../model.js";
import { bundle, type BundledDocument } from "./bundle.js";
import { canonicalJson, sha256Hex } from "./canonical-json.js";
import { checkRefCycles } from "./check-cycles.js";
import { checkDiscriminators } from "./check-discriminators.js";
import { checkKnownLists } from "./check-known-lists.js";
import { checkRefs } from "./check-refs.js";
import { resolveEnumsFromMapping } from "./enum-from-mapping.js";
import type { SourceLocation } from "../errors.js";
import { isPlainObject, parsePointer } from "./json-pointer.js";
import { packageInfo } from "./package-info.js";
import { SchemaRoot } from "./schema-root.js";
import { SourceFile } from "./source-file.js";
import { sourcePathOf, toPosix } from "./source-path.js";
import { checkOpenApiVersion, validateOpenApiDocument } from "./validate-openapi.js";
import { validatePagination } from "./validate-pagination.js";
import { validateComponentSchemas } from "./validate-schemas.js";
import { readNullable } from "./nullable.js";
import { readExclusiveBounds } from "./exclusive-bounds.js";

export interface LoadOptions {
  /** Directory relative paths (and displayed paths) are taken from. Default: `process.cwd()`. */
  readonly cwd?: string;
  /**
   * The folder `$ref`s may read files from (relative to `cwd`). Default: the
   * root schema file's folder. Files outside the default folder that a wider
   * root admits are read, but errors never quote their lines.
   */
  readonly root?: string;
}

export async function loadSchema(schemaPath: string, options: LoadOptions = {}): Promise<LoadedSchema> {
  const cwd = options.cwd ?? process.cwd();
  const display = (absolute: string): string => toPosix(path.relative(cwd, absolute)) || path.basename(absolute);
  const absolutePath = path.resolve(cwd, schemaPath);
  const folder = (absolute: string): Promise<SchemaRoot> => SchemaRoot.of(absolute, toPosix(path.relative(cwd, absolute)) || ".");
  const schemaDir = await folder(path.dirname(absolutePath));
  const schemaRoot = options.root === undefined ? schemaDir : await folder(path.resolve(cwd, options.root));
  if (!(await schemaRoot.contains(absolutePath))) {
    throw new SchemaLoadError(
      "ref-outside-root",
      [{ file: display(absolutePath), message: `the schema is outside the --root folder ${JSON.stringify(schemaRoot.shown)}.` }],
      "Pass a --root that contains the schema file (or leave --root out: the schema's own folder is the default).",
    );
  }
  const root = await SourceFile.read(absolutePath, display(absolutePath));
  const version = checkOpenApiVersion(root);
  const bundled = await bundle(root, async (file) => SourceFile.read(file, display(file), { quote: await schemaDir.contains(file) }), schemaRoot);
  checkRefs(bundled);
  checkRefCycles(bundled);
  checkDiscriminators(bundled);
  resolveEnumsFromMapping(bundled);
  readNullable(bundled);
  readExclusiveBounds(bundled);
  checkKnownLists(bundled);

  const document = bundled.data as OpenAPIObject;
  const components: Record<string, unknown> = isPlainObject(document.components) && isPlainObject(document.components.schemas) ? document.components.schemas : {};
  const schemas: Record<string, SchemaObject> = {};
  // Defined, not assigned: `schemas["__proto__"] = …` would set the prototype and drop the component.
  for (const name of Object.keys(components).sort()) Object.defineProperty(schemas, name, { value: components[name], enumerable: true, writable: true, configurable: true });
  const model: LoadedSchema = {
    document,
    schemas,
    sourcePath: sourcePathOf(absolutePath),
    sourceFile: absolutePath,
    hash: sha256Hex(canonicalJson(document)),
    generatorVersion: packageInfo().version,
  };
  sources.set(model, bundled);
  // Neither check changes the document.
  validateOpenApiDocument(bundled, version);
  validateComponentSchemas(bundled);
  validatePagination(bundled);
  return model;
}

/** The bundled document each loaded model came from: its positions place emitters' pointers in the source files. */
const sources = new WeakMap<LoadedSchema, BundledDocument>();

/**
 * Where a JSON pointer into `model.document` sits in the source files
 * (file, line:column, excerpt), for errors and warnings of the emitters;
 * undefined for a model `loadSchema` did not build.
 */
export function locateInSchema(model: LoadedSchema, pointer: string): SourceLocation | undefined {
  const bundled = sources.get(model);
  if (bundled === undefined) return undefined;
  // Point at the key of a member (`Links-Booking:`), as a person reads it.
  return bundled.where(parsePointer(pointer), { key: pointer !== "" });
}

export { schemaSourceFile, schemaSourcePath } from "./source-path.js";
