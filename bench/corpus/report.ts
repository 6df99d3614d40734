/** The corpus table (one row per document) and its summary (one row per set), as Markdown. */
import type { BenchRow } from "../table.js";
import type { CorpusResult } from "./run.js";

const mb = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
const yesNo = (v: boolean | undefined): string => (v === undefined ? "-" : v ? "yes" : "NO");
const pipeSafe = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** The wall-time ratio gen / openapi-typescript, when both ran. */
export const ratioOf = (r: CorpusResult): number | undefined =>
  r.gen === "generated" && r.peerOk ? r.genMs / r.peerMs : undefined;

/** The CPU-time ratio gen / openapi-typescript, when both ran. */
export const cpuRatioOf = (r: CorpusResult): number | undefined =>
  r.gen === "generated" && r.peerOk && r.genCpuMs !== undefined && r.peerCpuMs ? r.genCpuMs / r.peerCpuMs : undefined;

export function documentTable(results: readonly CorpusResult[]): string {
  const header = [
    "document",
    "openapi",
    "size",
    "generated",
    "compiles",
    "time vs ots",
    "cpu vs ots",
    "gen s",
    "gen cpu s",
    "gen peak MB",
    "ots peak MB",
    "ots compiles",
    "warnings",
    "typed streams",
    "reason",
  ];
  const rows = results.map((r) => {
    const ratio = ratioOf(r);
    const cpu = cpuRatioOf(r);
    return [
      r.id,
      r.version,
      mb(r.bytes),
      r.gen === "generated" ? "yes" : r.gen === "refused" ? "refused" : "INTERNAL",
      yesNo(r.compiles),
      ratio === undefined ? "-" : `${ratio.toFixed(2)}x${r.timedRuns > 1 ? ` (median of ${r.timedRuns})` : ""}`,
      cpu === undefined ? "-" : `${cpu.toFixed(2)}x`,
      (r.genMs / 1000).toFixed(1),
      r.genCpuMs === undefined ? "-" : (r.genCpuMs / 1000).toFixed(1),
      r.genRssMb === undefined ? "-" : r.genRssMb.toFixed(0),
      r.peerRssMb === undefined || !r.peerOk ? "-" : r.peerRssMb.toFixed(0),
      r.peerMs === 0 ? "-" : r.peerOk ? yesNo(r.peerCompiles) : "failed",
      String(r.warnings),
      `${r.typedStreams}/${r.streams}`,
      pipeSafe(r.reason ?? r.tscError ?? ""),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

const median = (xs: readonly number[]): number | undefined => {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export interface SetSummary {
  readonly set: string;
  readonly documents: number;
  readonly generatedAndCompiled: number;
  readonly refused: number;
  readonly internal: number;
  readonly peerCompiled: number;
  /** Documents whose openapi-typescript output compiles and ours does not (refused included). */
  readonly behindPeer: number;
  readonly medianRatio?: number;
  readonly medianCpuRatio?: number;
  readonly maxGenRssMb?: number;
}

export function summarize(results: readonly CorpusResult[]): SetSummary[] {
  const sets = [...new Set(results.map((r) => r.set))];
  return sets.map((set) => {
    const of = results.filter((r) => r.set === set);
    const ratios = of.map(ratioOf).filter((x): x is number => x !== undefined);
    const cpuRatios = of.map(cpuRatioOf).filter((x): x is number => x !== undefined);
    const rss = of.map((r) => r.genRssMb).filter((x): x is number => x !== undefined);
    return {
      set,
      documents: of.length,
      generatedAndCompiled: of.filter((r) => r.gen === "generated" && r.compiles === true).length,
      refused: of.filter((r) => r.gen === "refused").length,
      internal: of.filter((r) => r.gen === "internal").length,
      peerCompiled: of.filter((r) => r.peerCompiles === true).length,
      behindPeer: of.filter((r) => r.peerCompiles === true && r.compiles !== true).length,
      ...(ratios.length ? { medianRatio: median(ratios)! } : {}),
      ...(cpuRatios.length ? { medianCpuRatio: median(cpuRatios)! } : {}),
      ...(rss.length ? { maxGenRssMb: Math.max(...rss) } : {}),
    };
  });
}

export function summaryTable(summaries: readonly SetSummary[]): string {
  const header = [
    "set",
    "documents",
    "generated + compiles",
    "refused",
    "internal errors",
    "ots compiles",
    "behind ots",
    "median time vs ots",
    "median cpu vs ots",
    "max gen peak MB",
  ];
  const rows = summaries.map((s) => [
    s.set,
    String(s.documents),
    String(s.generatedAndCompiled),
    String(s.refused),
    String(s.internal),
    String(s.peerCompiled),
    String(s.behindPeer),
    s.medianRatio === undefined ? "-" : `${s.medianRatio.toFixed(2)}x`,
    s.medianCpuRatio === undefined ? "-" : `${s.medianCpuRatio.toFixed(2)}x`,
    s.maxGenRssMb === undefined ? "-" : s.maxGenRssMb.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => c[i]!.length)));
  const line = (c: readonly string[]): string => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

/** Rows for `npm run bench`'s table: one per set, and one per `big` document. */
export function benchRows(results: readonly CorpusResult[]): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const s of summarize(results)) {
    rows.push({
      group: "corpus (gen + tsc --strict)",
      name: `${s.set}: generated and compiles`,
      value: s.generatedAndCompiled,
      unit: `of ${s.documents}`,
      note: `refused ${s.refused}, internal errors ${s.internal}, ots compiles ${s.peerCompiled}, behind ots ${s.behindPeer}`,
    });
    if (s.medianRatio !== undefined)
      rows.push({
        group: "corpus (gen + tsc --strict)",
        name: `${s.set}: gen wall time vs openapi-typescript`,
        value: s.medianRatio,
        unit: "x",
        note: "median of the documents both generated; bar: <= 1.5x",
      });
    if (s.medianCpuRatio !== undefined)
      rows.push({
        group: "corpus (gen + tsc --strict)",
        name: `${s.set}: gen CPU time vs openapi-typescript`,
        value: s.medianCpuRatio,
        unit: "x",
        note: "median of the documents both generated",
      });
  }
  for (const r of results.filter((x) => x.set === "big")) {
    const ratio = ratioOf(r);
    rows.push({
      group: "corpus: largest documents",
      name: `${r.id} gen (every artefact)`,
      value: r.genMs,
      unit: "ms",
      ...(ratio === undefined ? {} : { ratio }),
      note: `${r.gen}${r.reason ? ` (${r.reason})` : ""}; compiles ${yesNo(r.compiles)}; cpu ${r.genCpuMs?.toFixed(0) ?? "?"} ms (${cpuRatioOf(r)?.toFixed(2) ?? "?"}x ots); peak ${r.genRssMb?.toFixed(0) ?? "?"} MB (bar < 2048); ratio = gen / ots time (bar <= 1.5x)`,
    });
    if (r.oneOperation !== undefined) {
      const o = r.oneOperation;
      rows.push({
        group: "corpus: largest documents",
        name: `${r.id}: a program calling one operation (${o.operation}), esbuild`,
        value: o.gzipBytes,
        unit: "B gzip",
        note: `${o.bytes} B minified; ${o.fromOperationsTs} B of it from operations.ts (${o.operationsTsBytes} B): only what it calls`,
      });
    }
    rows.push({
      group: "corpus: largest documents",
      name: `${r.id} openapi-typescript`,
      value: r.peerMs,
      unit: "ms",
      note: `cpu ${r.peerCpuMs?.toFixed(0) ?? "?"} ms; peak ${r.peerRssMb?.toFixed(0) ?? "?"} MB; compiles ${yesNo(r.peerCompiles)}`,
    });
  }
  return rows;
}
