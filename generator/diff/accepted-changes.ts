/**
 * The reviewed allow-list of breaking changes (`schema/baseline/accepted-changes.json`):
 * real changes of the protocol that CI must not fail on again, each with
 * the pointer and direction it is reported with and the reason it was
 * accepted. A change is accepted when pointer and direction (and `kind`,
 * when the entry names one) are equal; anything else still fails.
 *
 *   { "accepted": [ { "pointer": "/components/schemas/Messages/maxItems",
 *                     "direction": "breaks-clients", "kind": "limit-added",
 *                     "reason": "October 2026: at most 200 messages (agent-runs §4.0.1)" } ] }
 */
import path from "node:path";
import { GeneratorError, isSchemaLoadError, type SourceLocation } from "../errors.js";
import { isPlainObject } from "../load/json-pointer.js";
import { SourceFile } from "../load/source-file.js";
import { toPosix } from "../load/source-path.js";
import { DIRECTIONS, type Change, type Direction } from "./change.js";

export interface AcceptedChange {
  readonly pointer: string;
  readonly direction: Direction;
  readonly kind?: string;
  readonly reason: string;
}

export class AcceptedChangesError extends GeneratorError {
  override readonly name = "AcceptedChangesError";
  readonly code = "invalid-accepted-changes";
  readonly location: SourceLocation;
  /** What is wrong, without the place (the message starts with the place). */
  readonly problem: string;

  constructor(location: SourceLocation, problem: string, fix: string) {
    const where =
      location.line === undefined ? location.file : `${location.file}:${location.line}:${location.column ?? 1}`;
    super(`${where}: ${problem}`, fix);
    this.location = location;
    this.problem = problem;
  }
}

export function isAcceptedChangesError(value: unknown): value is AcceptedChangesError {
  return value instanceof AcceptedChangesError;
}

const ENTRY_FIX =
  'Each entry is { "pointer": "/…", "direction": "breaks-clients" | "breaks-readers", "kind"?: "…", "reason": "why this change of the protocol is accepted" }, as `mantyx-wire diff --format json` reports the change.';

/** Read and check the allow-list. Throws `AcceptedChangesError` (unreadable, bad shape) or `SchemaLoadError` (`yaml-syntax`: not JSON). */
export async function readAcceptedChanges(file: string, cwd: string): Promise<AcceptedChange[]> {
  const absolute = path.resolve(cwd, file);
  const display = toPosix(path.relative(cwd, absolute)) || path.basename(absolute);
  let source: SourceFile;
  try {
    source = await SourceFile.read(absolute, display);
  } catch (error) {
    // The loader's own message for an unreadable file names `--schema`; this is `--accept`.
    if (isSchemaLoadError(error) && error.code === "io") {
      throw new AcceptedChangesError(
        { file: display },
        error.problems[0].message.replace("the schema", "the accepted changes"),
        "Check the `--accept <file>` path (the repository's list: schema/baseline/accepted-changes.json).",
      );
    }
    throw error;
  }
  const fail = (segments: string[], message: string): never => {
    throw new AcceptedChangesError(source.where(segments), message, ENTRY_FIX);
  };
  if (!isPlainObject(source.data) || !Array.isArray(source.data.accepted))
    fail([], 'expected an object with an "accepted" array');
  const entries = (source.data as { accepted: unknown[] }).accepted;
  return entries.map((entry, index): AcceptedChange => {
    const at = ["accepted", String(index)];
    if (!isPlainObject(entry)) return fail(at, "an entry must be an object");
    if (typeof entry.pointer !== "string" || !(entry.pointer === "" || entry.pointer.startsWith("/")))
      fail([...at, "pointer"], '"pointer" must be a JSON pointer starting with "/"');
    if (
      !DIRECTIONS.includes(entry.direction as Direction) ||
      entry.direction === "additive" ||
      entry.direction === "info"
    ) {
      fail(
        [...at, "direction"],
        '"direction" must be "breaks-clients" or "breaks-readers" (only a breaking change needs accepting)',
      );
    }
    if (entry.kind !== undefined && typeof entry.kind !== "string")
      fail([...at, "kind"], '"kind", when given, must be a string');
    if (typeof entry.reason !== "string" || entry.reason.trim() === "")
      fail([...at, "reason"], '"reason" must say why the change is accepted');
    return {
      pointer: entry.pointer as string,
      direction: entry.direction as Direction,
      ...(entry.kind === undefined ? {} : { kind: entry.kind as string }),
      reason: entry.reason as string,
    };
  });
}

export function acceptanceOf(change: Change, accepted: readonly AcceptedChange[]): AcceptedChange | undefined {
  return accepted.find(
    (entry) =>
      entry.pointer === change.pointer &&
      entry.direction === change.direction &&
      (entry.kind === undefined || entry.kind === change.kind),
  );
}
