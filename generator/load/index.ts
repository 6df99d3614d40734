/**
 * The loader: schema file -> `LoadedSchema`.
 *
 *   read + parse (YAML/JSON, positions kept)
 *   -> OpenAPI version check        (not-openapi-31)
 *   -> bundle external $refs        (dangling-ref)
 *   -> every internal $ref resolves (dangling-ref)
 *   -> OAS 3.1 meta-schema          (not-openapi-31)
 *   -> component schemas are JSON Schema 2020-12, strict (invalid-json-schema)
 *
 * Every failure is a `SchemaLoadError` naming the file, line:column, JSON
 * pointer and the fix.
 */
import path from "node:path";
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import type { LoadedSchema } from "../model.js";
import { bundle } from "./bundle.js";
import { canonicalJson, sha256Hex } from "./canonical-json.js";
import { checkRefs } from "./check-refs.js";
import { isPlainObject } from "./json-pointer.js";
import { packageInfo } from "./package-info.js";
import { SourceFile } from "./source-file.js";
import { sourcePathOf, toPosix } from "./source-path.js";
import { checkOpenApiVersion, validateOpenApiDocument } from "./validate-openapi.js";
import { validateComponentSchemas } from "./validate-schemas.js";

export interface LoadOptions {
  /** Directory relative paths (and displayed paths) are taken from. Default: `process.cwd()`. */
  readonly cwd?: string;
}

export async function loadSchema(schemaPath: string, options: LoadOptions = {}): Promise<LoadedSchema> {
  const cwd = options.cwd ?? process.cwd();
  const display = (absolute: string): string => toPosix(path.relative(cwd, absolute)) || path.basename(absolute);
  const absolutePath = path.resolve(cwd, schemaPath);
  const root = await SourceFile.read(absolutePath, display(absolutePath));
  checkOpenApiVersion(root);
  const bundled = await bundle(root, (file) => SourceFile.read(file, display(file)));
  checkRefs(bundled);

  const document = bundled.data as OpenAPIObject;
  const components: Record<string, unknown> = isPlainObject(document.components) && isPlainObject(document.components.schemas) ? document.components.schemas : {};
  const schemas: Record<string, SchemaObject> = {};
  for (const name of Object.keys(components).sort()) schemas[name] = components[name] as SchemaObject;
  const model: LoadedSchema = {
    document,
    schemas,
    sourcePath: sourcePathOf(absolutePath),
    sourceFile: absolutePath,
    hash: sha256Hex(canonicalJson(document)),
    generatorVersion: packageInfo().version,
  };
  // Neither check changes the document.
  validateOpenApiDocument(bundled);
  validateComponentSchemas(bundled);
  return model;
}

export { schemaSourceFile, schemaSourcePath } from "./source-path.js";
