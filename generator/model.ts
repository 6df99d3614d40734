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
  /** Path of the root schema file relative to the repository (or cwd), POSIX separators. */
  readonly sourcePath: string;
  /** sha256 (hex) of the canonical JSON of `document` (keys sorted). */
  readonly hash: string;
  /** Version of the generator package that loaded it (from package.json). */
  readonly generatorVersion: string;
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
  /**
   * Optional: start work that does not need the model (e.g. a worker thread
   * loading its modules) while the schema is still loading; the next `emit`
   * uses it. The CLI calls it before loading and `release()`s the result
   * when `gen` ends, whether `emit` ran or not.
   */
  prepare?(context: PrepareContext): { release(): void };
}

/** What `gen` knows before loading: the schema path as given, and the directory it is relative to. */
export interface PrepareContext {
  readonly schemaPath: string;
  readonly cwd: string;
}
