/**
 * The loader: schema file -> `LoadedSchema`.
 *
 *   read + parse (YAML/JSON, positions kept)
 *   -> OpenAPI version check, 3.0, 3.1 or 3.2 (not-openapi-31; Swagger 2.0 refused)
 *   -> bundle external $refs        (dangling-ref)
 *   -> a 3.0 document read as 3.1 (./openapi-30/; positions kept)
 *   -> every internal $ref resolves (dangling-ref)
 *   -> no $ref cycle back to the same value (ref-cycle)
 *   -> discriminator mappings agree with their oneOf (bad-discriminator)
 *   -> x-enum-from-mapping expanded to plain enums; lists of a union's
 *      tags agree with its mapping (disagreeing-lists)
 *   -> draft-04 leftovers in a 3.1 document read as their authors meant:
 *      `nullable`, boolean exclusive bounds
 *   (the document and its components are final here: `onModel`)
 *   -> OAS 3.1 / 3.2 meta-schema    (not-openapi-31; a 3.0 document: 3.1's)
 *   -> component schemas are JSON Schema 2020-12, strict (invalid-json-schema)
 *   -> x-pagination names real parameters and properties (invalid-json-schema)
 *
 * Every failure is a `SchemaLoadError` naming the file, line:column, JSON
 * pointer and the fix.
 */
import path from "node:path";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import { SchemaLoadError } from "../errors.js";
import type { LoadedSchema, SchemaContent } from "../model.js";
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
import { readSchemaLeftovers, validateComponentSchemas } from "./validate-schemas.js";
import { readNullable } from "./nullable.js";
import { readOpenApi30, type OpenApi30Notes } from "./openapi-30/index.js";
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
  /**
   * Called with the document and its components as soon as they are
   * final, before the document's hash and the checks that only report
   * (`$ref` cycles, lists of a union's tags, the document and its schemas
   * against their meta-schemas, the pagination rules; they never change
   * it): `gen` hands them to the
   * validators' thread there, which works meanwhile. A failing check still
   * makes `loadSchema` throw.
   */
  readonly onModel?: (content: SchemaContent) => void;
}

export async function loadSchema(schemaPath: string, options: LoadOptions = {}): Promise<LoadedSchema> {
  const cwd = options.cwd ?? process.cwd();
  const display = (absolute: string): string => toPosix(path.relative(cwd, absolute)) || path.basename(absolute);
  const absolutePath = path.resolve(cwd, schemaPath);
  const folder = (absolute: string): Promise<SchemaRoot> =>
    SchemaRoot.of(absolute, toPosix(path.relative(cwd, absolute)) || ".");
  const schemaDir = await folder(path.dirname(absolutePath));
  const schemaRoot = options.root === undefined ? schemaDir : await folder(path.resolve(cwd, options.root));
  if (!(await schemaRoot.contains(absolutePath))) {
    throw new SchemaLoadError(
      "ref-outside-root",
      [
        {
          file: display(absolutePath),
          message: `the schema is outside the --root folder ${JSON.stringify(schemaRoot.shown)}.`,
        },
      ],
      "Pass a --root that contains the schema file (or leave --root out: the schema's own folder is the default).",
    );
  }
  const root = await SourceFile.read(absolutePath, display(absolutePath));
  const version = checkOpenApiVersion(root);
  let bundled = await bundle(
    root,
    async (file) => SourceFile.read(file, display(file), { quote: await schemaDir.contains(file) }),
    schemaRoot,
  );
  let notes30: OpenApi30Notes | undefined;
  if (version === "3.0") ({ bundled, notes: notes30 } = readOpenApi30(bundled));
  checkRefs(bundled);
  checkDiscriminators(bundled);
  resolveEnumsFromMapping(bundled);
  readNullable(bundled);
  readExclusiveBounds(bundled);
  readSchemaLeftovers(bundled);

  const document = bundled.data as OpenAPIObject;
  const components: Record<string, unknown> =
    isPlainObject(document.components) && isPlainObject(document.components.schemas) ? document.components.schemas : {};
  const schemas: Record<string, SchemaObject> = {};
  // Defined, not assigned: `schemas["__proto__"] = …` would set the prototype and drop the component.
  for (const name of Object.keys(components).sort())
    Object.defineProperty(schemas, name, {
      value: components[name],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  options.onModel?.({ document, schemas });
  const model: LoadedSchema = {
    document,
    schemas,
    sourcePath: sourcePathOf(absolutePath),
    sourceFile: absolutePath,
    hash: sha256Hex(canonicalJson(document)),
    generatorVersion: packageInfo().version,
  };
  sources.set(model, bundled);
  if (notes30 !== undefined) openApi30.set(document, notes30);
  // No check from here on changes the document. (The readings above change no `$ref`, no applicator: the
  // cycles are the same before and after them.)
  checkRefCycles(bundled);
  checkKnownLists(bundled);
  validateOpenApiDocument(bundled, version);
  validateComponentSchemas(bundled);
  validatePagination(bundled);
  return model;
}

/** The bundled document each loaded model came from: its positions place emitters' pointers in the source files. */
const sources = new WeakMap<LoadedSchema, BundledDocument>();

/** What reading each loaded 3.0 document as 3.1 did (./openapi-30/), by the document (a model copied with `{ ...model }` keeps it). */
const openApi30 = new WeakMap<object, OpenApi30Notes>();

/** The notes of the 3.0 reading of `model`; undefined when the document was not OpenAPI 3.0. */
export function openApi30NotesOf(model: LoadedSchema): OpenApi30Notes | undefined {
  return openApi30.get(model.document);
}

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
