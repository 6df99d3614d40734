/**
 * A diff's outcome as people read it (a table) and as CI reads it (JSON).
 * Both list the same rows in the same order (diff-documents.ts sorts them).
 */
import { canonicalJson } from "../load/canonical-json.js";
import { DIRECTIONS, type Change, type Direction } from "./change.js";
import type { AcceptedChange } from "./accepted-changes.js";

/** Which breaking directions fail the command (`--fail-on`). */
export type FailOn = "clients" | "readers" | "any";

export interface ReportedChange extends Change {
  /** The reason from the allow-list, when this breaking change is accepted. */
  readonly accepted?: string;
}

export interface DiffReport {
  readonly oldFile: string;
  readonly newFile: string;
  readonly failOn: FailOn;
  readonly changes: readonly ReportedChange[];
  /** Allow-list entries no change matched (the change went away, or its pointer moved). */
  readonly unusedAccepted: readonly AcceptedChange[];
}

export function failsOn(direction: Direction, failOn: FailOn): boolean {
  if (direction === "breaks-clients") return failOn !== "readers";
  if (direction === "breaks-readers") return failOn !== "clients";
  return false;
}

/** The changes that make the command exit 1: breaking in a `--fail-on` direction and not accepted. */
export function failing(report: DiffReport): ReportedChange[] {
  return report.changes.filter((change) => change.accepted === undefined && failsOn(change.direction, report.failOn));
}

function counts(changes: readonly ReportedChange[]): Record<Direction, number> {
  const result = Object.fromEntries(DIRECTIONS.map((direction) => [direction, 0])) as Record<Direction, number>;
  for (const change of changes) result[change.direction]++;
  return result;
}

/** Widest value shown in a table cell; the JSON format carries the whole value. */
const MAX_CELL_VALUE = 48;

function shown(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : canonicalJson(value);
  return text.length > MAX_CELL_VALUE ? `${text.slice(0, MAX_CELL_VALUE - 1)}…` : text;
}

export function formatTable(report: DiffReport): string {
  const tally = counts(report.changes);
  const summary = DIRECTIONS.map((direction) => `${tally[direction]} ${direction}`).join(", ");
  const lines = [
    `mantyx-wire diff ${report.oldFile} -> ${report.newFile}: ${report.changes.length === 0 ? "no changes" : summary}`,
  ];
  if (report.changes.length > 0) {
    const rows = report.changes.map((change) => [
      change.accepted === undefined ? change.direction : `${change.direction} (accepted)`,
      change.kind,
      change.pointer,
      `${shown(change.old)} -> ${shown(change.new)}`,
    ]);
    const header = ["direction", "kind", "pointer", "old -> new"];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    const line = (cells: readonly string[]): string =>
      cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ");
    lines.push("", line(header), ...rows.map(line));
  }
  const failures = failing(report);
  lines.push("");
  if (failures.length === 0) {
    const accepted = report.changes.filter((change) => change.accepted !== undefined).length;
    lines.push(
      `No breaking change${report.failOn === "any" ? "" : ` for ${report.failOn}`}${accepted > 0 ? ` outside the ${accepted} accepted` : ""}.`,
    );
  } else {
    lines.push(
      `${failures.length} breaking change${failures.length === 1 ? "" : "s"} (--fail-on ${report.failOn}). ` +
        "Fix the schema, or, for a real change of the protocol, add it (pointer, direction, reason) to the accepted changes after review.",
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Warnings for the allow-list entries nothing matched (stderr, both formats). */
export function formatUnusedAccepted(report: DiffReport): string {
  return report.unusedAccepted
    .map(
      (entry) =>
        `warning: accepted change not found (remove it from the list, or fix its pointer): ${entry.direction} ${entry.kind ?? "*"} ${entry.pointer}\n`,
    )
    .join("");
}

export function formatJson(report: DiffReport, exitCode: number): string {
  const body = {
    old: report.oldFile,
    new: report.newFile,
    failOn: report.failOn,
    exitCode,
    counts: counts(report.changes),
    failing: failing(report).length,
    changes: report.changes,
    unusedAccepted: report.unusedAccepted,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
