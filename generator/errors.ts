/**
 * Errors the generator reports to a person, not a stack trace.
 *
 * One subclass per stage (load, emit, write), each with a `code` per kind of
 * failure, the place it happened and the fix, and a type guard (the
 * eventsource-parser `ParseError` / protobuf-es `isPluginOptionError` shape).
 * `formatError` renders any of them as one screen for the CLI.
 */

/** Where a problem sits in a source file. Lines and columns are 1-based. */
export interface SourceLocation {
  /** Path of the file as the user would type it (relative, POSIX). */
  readonly file: string;
  /** JSON pointer into the file's document, e.g. `/components/schemas/Foo/$ref`. */
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
  /** A few source lines around `line`, with a caret under `column`. */
  readonly excerpt?: string;
}

/** One thing wrong in the schema. A `SchemaLoadError` carries one or more. */
export interface SchemaProblem extends SourceLocation {
  readonly message: string;
  /** A fix specific to this problem (overrides the error's general `fix`). */
  readonly fix?: string;
}

export type SchemaLoadErrorCode =
  /** The schema file cannot be read. */
  | "io"
  /** The file is not valid YAML (or JSON, for `.json` files). */
  | "yaml-syntax"
  /** A `$ref` (or a discriminator mapping) points at nothing. */
  | "dangling-ref"
  /** Not an OpenAPI 3.1 document: another version, or fails the OAS 3.1 meta-schema. */
  | "not-openapi-31"
  /** A component schema is not valid JSON Schema 2020-12 (or breaks CONVENTIONS.md). */
  | "invalid-json-schema"
  /** A YAML file uses more aliases than a schema needs (an alias bomb): refused before expanding them. */
  | "yaml-aliases"
  /** Two different schemas of different files would be bundled under one component name. */
  | "name-collision"
  /** A `$ref` chain that never reaches a schema (`A` -> `B` -> `A`), in one file or across files. */
  | "ref-cycle"
  /** A `$ref` names a file outside the schema root (the root file's folder, or `--root`). */
  | "ref-outside-root"
  /** A `discriminator.mapping` disagrees with its `oneOf`: a value not among the branches, a branch whose tag differs, a branch not mapped. */
  | "bad-discriminator"
  /** A list of a union's tag values (e.g. the known event types) differs from the union's discriminator mapping. */
  | "disagreeing-lists";

/** Base of every error the generator reports with a code and a fix. */
export abstract class GeneratorError extends Error {
  abstract readonly code: string;
  /** What the user should do about it, one or two sentences. */
  readonly fix: string;

  constructor(message: string, fix: string, options?: { cause?: unknown }) {
    super(message, options);
    this.fix = fix;
  }
}

export class SchemaLoadError extends GeneratorError {
  override readonly name = "SchemaLoadError";
  readonly code: SchemaLoadErrorCode;
  readonly problems: readonly [SchemaProblem, ...SchemaProblem[]];

  constructor(
    code: SchemaLoadErrorCode,
    problems: readonly [SchemaProblem, ...SchemaProblem[]],
    fix: string,
    options?: { cause?: unknown },
  ) {
    const first = problems[0];
    const where = first.line === undefined ? first.file : `${first.file}:${first.line}:${first.column ?? 1}`;
    super(`${where}: ${first.message}`, fix, options);
    this.code = code;
    this.problems = problems;
  }
}

export type EmitErrorCode =
  /** Two components (or a component and a generated helper) map to one TypeScript name. */
  | "name-collision"
  /** A construct the emitter cannot express (e.g. a discriminated branch without a tag). */
  | "unsupported-schema"
  /** Two emitters produced the same output path, or a path is not a relative POSIX path. */
  | "bad-output-path"
  /** An emitter wrote a generated-file header that differs from this run's. */
  | "bad-header"
  /** The fixtures emitter found no folder of hand-written cases (`cases/` beside the schema). */
  | "missing-cases"
  /** A hand-written case file cannot be read, is not a list of cases, or breaks a rule (unique descriptions, a known component). */
  | "invalid-cases"
  /** `RunTranscript`'s `x-transcript-rules` is missing or malformed (generator/transcript/rules.ts). */
  | "invalid-transcript-rules";

export class EmitError extends GeneratorError {
  override readonly name = "EmitError";
  readonly code: EmitErrorCode;
  /** Emitter that failed, and a JSON pointer into the bundled document when known. */
  readonly emitter: string;
  readonly pointer: string | undefined;
  /** Further places the error is about (the other name of a collision), as JSON pointers. */
  readonly related: readonly string[];
  /**
   * `pointer` and `related` as places in the source files (file:line:col),
   * filled in by `locateEmitError` once the loader's positions are at hand
   * (emitters see only the bundled document).
   */
  locations: readonly SourceLocation[] = [];

  constructor(
    code: EmitErrorCode,
    emitter: string,
    message: string,
    fix: string,
    pointer?: string,
    related: readonly string[] = [],
  ) {
    super(message, fix);
    this.code = code;
    this.emitter = emitter;
    this.pointer = pointer;
    this.related = related;
  }
}

/** Fills in `error.locations` from its pointers with `locate` (a pointer it cannot place is left out). */
export function locateEmitError(error: EmitError, locate: (pointer: string) => SourceLocation | undefined): void {
  const pointers = [...(error.pointer === undefined ? [] : [error.pointer]), ...error.related];
  error.locations = pointers.map(locate).filter((location): location is SourceLocation => location !== undefined);
}

export type WriteErrorCode =
  /** The output folder holds files the generator did not write; refusing to delete them. */
  | "unsafe-out-dir"
  /** A `--fixtures-copy` folder that cannot be written (no suite to copy, or it overlaps another output folder). */
  | "fixtures-copy"
  /** Reading or writing the output folder failed. */
  | "io";

export class WriteError extends GeneratorError {
  override readonly name = "WriteError";
  readonly code: WriteErrorCode;
  readonly path: string;

  constructor(code: WriteErrorCode, path: string, message: string, fix: string, options?: { cause?: unknown }) {
    super(message, fix, options);
    this.code = code;
    this.path = path;
  }
}

export function isGeneratorError(value: unknown): value is GeneratorError {
  return value instanceof GeneratorError;
}

export function isSchemaLoadError(value: unknown): value is SchemaLoadError {
  return value instanceof SchemaLoadError;
}

export function isEmitError(value: unknown): value is EmitError {
  return value instanceof EmitError;
}

export function isWriteError(value: unknown): value is WriteError {
  return value instanceof WriteError;
}

/** At most this many problems are listed; the rest are counted. Keeps the report on one screen. */
const MAX_PROBLEMS_SHOWN = 5;

/**
 * Render an error for a terminal: code, place, message, fix. No stack trace
 * unless `debug` (an unexpected error, a bug, always gets its stack).
 */
export function formatError(error: unknown, options: { debug?: boolean } = {}): string {
  const lines: string[] = [];
  if (isSchemaLoadError(error)) {
    const shown = error.problems.slice(0, MAX_PROBLEMS_SHOWN);
    lines.push(
      `error[${error.code}]: ${shown.length === 1 ? "1 problem" : `${error.problems.length} problems`} in the schema`,
    );
    for (const problem of shown) {
      lines.push("");
      lines.push(...formatProblem(problem, error.fix));
    }
    const hidden = error.problems.length - shown.length;
    if (hidden > 0) lines.push("", `... and ${hidden} more of the same kind; fix these and run again.`);
  } else if (isEmitError(error)) {
    lines.push(`error[${error.code}]: emitter "${error.emitter}": ${error.message}`);
    if (error.locations.length > 0) {
      for (const location of error.locations) lines.push(...formatLocation(location));
    } else if (error.pointer !== undefined) lines.push(`  at #${error.pointer}`);
    lines.push(`  fix: ${error.fix}`);
  } else if (isWriteError(error)) {
    lines.push(`error[${error.code}]: ${error.message}`);
    lines.push(`  at ${error.path}`);
    lines.push(`  fix: ${error.fix}`);
  } else {
    lines.push(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    lines.push("  This is a bug in the generator, not in your schema; please report it with the stack below.");
  }
  const showStack = options.debug === true || !isGeneratorError(error);
  if (showStack && error instanceof Error && error.stack) lines.push("", error.stack);
  return lines.join("\n");
}

/** `file:line:col`, or the file alone when the position is not known. */
export function formatPlace(location: SourceLocation): string {
  return location.line === undefined ? location.file : `${location.file}:${location.line}:${location.column ?? 1}`;
}

function formatLocation(location: SourceLocation): string[] {
  const lines = [`  --> ${formatPlace(location)}${location.pointer === undefined ? "" : `  at #${location.pointer}`}`];
  if (location.excerpt) lines.push(...location.excerpt.split("\n").map((line) => `  ${line}`));
  return lines;
}

function formatProblem(problem: SchemaProblem, generalFix: string): string[] {
  const lines = formatLocation(problem);
  lines.push(`  ${problem.message}`);
  lines.push(`  fix: ${problem.fix ?? generalFix}`);
  return lines;
}
