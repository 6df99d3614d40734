/**
 * `mantyx-wire diff <old> <new>`: load both documents with the generator's
 * loader (bundled refs, typed errors with file:line:col), compare them, apply
 * the allow-list, print, and choose the exit code:
 * 0 nothing breaks (outside the accepted changes), 1 something breaks,
 * 2 a document or the allow-list cannot be read.
 */
import path from "node:path";
import { formatError } from "../errors.js";
import { loadSchema } from "../load/index.js";
import { toPosix } from "../load/source-path.js";
import {
  acceptanceOf,
  isAcceptedChangesError,
  readAcceptedChanges,
  type AcceptedChange,
  type AcceptedChangesError,
} from "./accepted-changes.js";
import type { Change } from "./change.js";
import { diffDocuments } from "./diff-documents.js";
import {
  failing,
  formatJson,
  formatTable,
  formatUnusedAccepted,
  type DiffReport,
  type FailOn,
  type ReportedChange,
} from "./report.js";

export interface DiffOptions {
  readonly format: "table" | "json";
  readonly failOn: FailOn;
  /** The allow-list file (relative to `cwd`). */
  readonly accept?: string;
  readonly debug?: boolean;
}

export interface DiffIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

function formatAcceptedChangesError(error: AcceptedChangesError): string {
  const { file, line, column, pointer, excerpt } = error.location;
  const place = line === undefined ? file : `${file}:${line}:${column ?? 1}`;
  const lines = [
    `error[${error.code}]: the accepted changes cannot be used`,
    "",
    `  --> ${place}${pointer ? `  at #${pointer}` : ""}`,
  ];
  if (excerpt) lines.push(...excerpt.split("\n").map((text) => `  ${text}`));
  lines.push(`  ${error.problem}`, `  fix: ${error.fix}`);
  return lines.join("\n");
}

export async function runDiff(oldPath: string, newPath: string, options: DiffOptions, io: DiffIo): Promise<number> {
  const shown = (file: string): string => toPosix(path.relative(io.cwd, path.resolve(io.cwd, file))) || file;
  let accepted: AcceptedChange[] = [];
  let changes: Change[];
  try {
    const [oldSchema, newSchema] = [
      await loadSchema(oldPath, { cwd: io.cwd }),
      await loadSchema(newPath, { cwd: io.cwd }),
    ];
    if (options.accept !== undefined) accepted = await readAcceptedChanges(options.accept, io.cwd);
    changes = diffDocuments(oldSchema.document, newSchema.document);
  } catch (error) {
    io.stderr(
      `${isAcceptedChangesError(error) ? formatAcceptedChangesError(error) : formatError(error, { debug: options.debug === true })}\n`,
    );
    return 2;
  }
  const used = new Set<AcceptedChange>();
  const reported = changes.map((change): ReportedChange => {
    const acceptance =
      change.direction === "breaks-clients" || change.direction === "breaks-readers"
        ? acceptanceOf(change, accepted)
        : undefined;
    if (acceptance === undefined) return change;
    used.add(acceptance);
    return { ...change, accepted: acceptance.reason };
  });
  const report: DiffReport = {
    oldFile: shown(oldPath),
    newFile: shown(newPath),
    failOn: options.failOn,
    changes: reported,
    unusedAccepted: accepted.filter((entry) => !used.has(entry)),
  };
  const exitCode = failing(report).length > 0 ? 1 : 0;
  io.stdout(options.format === "json" ? formatJson(report, exitCode) : formatTable(report));
  io.stderr(formatUnusedAccepted(report));
  return exitCode;
}
