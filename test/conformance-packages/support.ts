/**
 * What the three package tests share: scratch folders outside the
 * repository, the suite's case ids by tier, and the bar itself: each runner
 * prints, per tier, a passed count equal to the manifest's count for that
 * tier minus the entries of its known-failures file.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const FIXTURES = join(REPO, "generated", "fixtures");
export const TIERS = ["behaviour", "receive", "strict"] as const;

export function scratchDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `mantyx-${name}-`));
}

interface Manifest {
  counts: { tiers: Record<string, number> };
  files: Record<string, unknown>;
}

export function manifestOf(dir = FIXTURES): Manifest {
  return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
}

interface Tagged {
  id: string;
  tier: string;
  tags: string[];
}

/** Every case id of the suite in `dir`, with its tier and tags. */
export function casesOf(dir = FIXTURES): Tagged[] {
  const read = (p: string): unknown => JSON.parse(readFileSync(join(dir, p), "utf8"));
  const out: Tagged[] = [];
  for (const p of Object.keys(manifestOf(dir).files).sort()) {
    if (p.startsWith("messages/") || p === "transcripts.json") {
      for (const g of read(p) as Array<{ tests: Array<{ description: string; tier: string; tags?: string[] }> }>)
        for (const t of g.tests) out.push({ id: `${p}::${t.description}`, tier: t.tier, tags: t.tags ?? [] });
    } else if (p.startsWith("sse/")) {
      for (const c of read(p) as Array<{ description: string; tier: string }>)
        out.push({ id: `${p}::${c.description}`, tier: c.tier, tags: [] });
    } else if (p.startsWith("flows/")) {
      const f = read(p) as { description: string; tier: string };
      out.push({ id: `${p}::${f.description}`, tier: f.tier, tags: [] });
    }
  }
  return out;
}

/** A known-failures file: the reason as a comment, then the ids. */
export function knownFailuresFile(reason: string, ids: readonly string[]): string {
  return `# ${reason}\n${ids.join("\n")}\n`;
}

const LINE = /\[mantyx-conformance\] tier (\w+): passed (\d+), known failures (\d+), failed (\d+) \(manifest (\d+)\)/g;

/**
 * The bar, read from a runner's output: a line per tier whose passed count is
 * the manifest's count for the tier minus the known failures of that tier,
 * those failing as expected, nothing else failing.
 */
export function expectTierLines(output: string, knownIds: readonly string[], dir = FIXTURES): void {
  const manifest = manifestOf(dir);
  const tierOf = new Map(casesOf(dir).map((c) => [c.id, c.tier]));
  const lines = new Map(
    [...output.matchAll(LINE)].map((m) => [m[1]!, { passed: +m[2]!, known: +m[3]!, failed: +m[4]!, manifest: +m[5]! }]),
  );
  for (const tier of TIERS) {
    const listed = knownIds.filter((id) => tierOf.get(id) === tier).length;
    const want = manifest.counts.tiers[tier]!;
    expect(lines.get(tier), `the line of tier ${tier} in:\n${output.slice(-3000)}`).toEqual({
      passed: want - listed,
      known: listed,
      failed: 0,
      manifest: want,
    });
  }
}
