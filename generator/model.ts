/**
 * The loaded model every emitter receives. Data flows one way:
 *   schema/ -> load (parse, bundle, validate) -> LoadedSchema -> emitters -> write
 * An emitter is `(model, context) -> { files, diagnostics }`: same model in,
 * same files and diagnostics out. What emitters share (the validators'
 * level thread) comes through the context, which `generate`
 * (emit/index.ts) owns; an emitter keeps no state of its own between runs.
 */
import type { OpenAPIObject, SchemaObject } from "openapi3-ts/oas31";
import type { Diagnostic } from "./diagnostics.js";
import type { LevelThread } from "./emit/validators/level-thread.js";
import type { ComponentNames } from "./emit/component-names.js";
import type { Levels } from "./emit/validators/levels.js";

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

/**
 * What the validation levels (emit/validators/levels.ts) and the
 * components' names read of a model: the document and its components. It
 * is all the level thread is sent, as soon as the loader has it (before
 * the document's hash and last checks).
 */
export type SchemaContent = Pick<LoadedSchema, "document" | "schemas">;

/** One output file. `path` is relative to the output folder, POSIX separators. */
export interface EmittedFile {
  readonly path: string;
  readonly contents: string;
}

/** What a run of the emitters shares, handed to each by `generate` (emit/index.ts). */
export interface EmitContext {
  /**
   * The validators' level thread (emit/validators/level-thread.ts), started
   * at the first ask of a run and ended by `generate` when the run ends;
   * undefined where there is none (then an emitter does that work itself).
   * The validators and fixtures emitters share it.
   */
  levelThread(): LevelThread | undefined;
  /**
   * The run's validation levels of the model (emit/validators/levels.ts):
   * each level's ajv instance, compiled once per run; the validators
   * emitter prints their code and the fixtures emitter judges its cases
   * with the same functions.
   */
  readonly levels: Levels;
  /** The run's names of the components in generated code (emit/component-names.ts), the same for every emitter. */
  readonly names: ComponentNames;
}

/** What an emitter gives: its files, and what it says about them (degraded or left out), for `gen` to print. */
export interface EmitResult {
  readonly files: readonly EmittedFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** An emitter: one artefact (types, validators, client, fixtures, ...). */
export interface Emitter {
  /** Short name used in logs and `--only` filters. */
  readonly name: string;
  emit(model: LoadedSchema, context: EmitContext): EmitResult | Promise<EmitResult>;
}
