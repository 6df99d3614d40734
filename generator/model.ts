/**
 * The loaded model every emitter receives. Data flows one way:
 *   schema/ -> load (parse, bundle, validate) -> LoadedSchema -> emitters -> write
 * Emitters are pure functions of this model: same model in, same files out.
 */
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";

export interface LoadedSchema {
  /** The bundled OpenAPI 3.1 document: one JSON value, internal `$ref`s only. */
  readonly document: OpenAPIObject;
  /** `components.schemas`, keys sorted (deterministic iteration). */
  readonly schemas: Readonly<Record<string, SchemaObject>>;
  /**
   * The root schema file as generated headers name it: relative to the
   * package (nearest package.json) that holds it, else its file name; POSIX
   * separators. A label, independent of the current directory: never resolve
   * it to read a file (see `sourceFile`).
   */
  readonly sourcePath: string;
  /**
   * Absolute path of the root schema file, for reading files beside it (the
   * fixture emitter's hand-written `cases/`). Machine-specific: never write it
   * into output. Set by `loadSchema`; a model built by hand may leave it out
   * (then `sourcePath` is taken relative to the process's current directory).
   */
  readonly sourceFile?: string;
  /** sha256 (hex) of the canonical JSON of `document` (keys sorted). */
  readonly hash: string;
  /** Version of the generator package that loaded it (from package.json). */
  readonly generatorVersion: string;
  /**
   * The module specifier generated code imports the runtime contract from
   * (`gen --runtime`; default `@mantyx/wire-types/codegen/v1`):
   * generator/emit/runtime-import.ts.
   */
  readonly runtime?: string;
}

/** One output file. `path` is relative to the output folder, POSIX separators. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}

/** An emitter: one artefact (types, validators, client, fixtures, ...). */
export interface Emitter {
  /** Short name used in logs and `--only` filters. */
  readonly name: string;
  emit(model: LoadedSchema): EmittedFile[] | Promise<EmittedFile[]>;
}
