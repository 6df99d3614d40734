/** Rows every bench returns, and one way to print them. */

export interface BenchRow {
  group: string;
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  note?: string;
}

/** Prints rows as a Markdown table (pasteable into issues and PRs). */
export function printTable(rows: readonly BenchRow[]): void {
  const header = ["group", "name", "value", "unit", "ratio", "note"];
  const cells = rows.map((r) => [
    r.group,
    r.name,
    formatValue(r.value),
    r.unit,
    r.ratio === undefined ? "" : `${r.ratio.toFixed(2)}x`,
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const c of cells) console.log(line(c));
}

function formatValue(v: number): string {
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}
