/**
 * `runConformance(suite, adapters, options)`: every case of the selected
 * tiers through the SDK's adapters. A listed known failure must fail (one
 * that passes is a failure, so the list only shrinks; an id that is no case
 * is a problem); the report counts per tier and names every failure
 * `<file>::<description>`.
 */
import type { ConformanceAdapters } from "./adapters.js";
import { suiteCases } from "./cases.js";
import { SuiteError, TIERS, type LoadedSuite, type Tier } from "./suite.js";

export interface RunConformanceOptions {
  /** The tiers to run (default: all three). */
  readonly tiers?: readonly string[];
  /** Case ids expected to fail (`parseKnownFailures` of the SDK's known-failures file). */
  readonly knownFailures?: Iterable<string>;
}

export interface TierResult {
  readonly tier: Tier;
  readonly selected: boolean;
  /** The manifest's count for the tier (`counts.tiers`). */
  readonly manifest: number;
  passed: number;
  knownFailures: number;
  /** Unlisted cases that failed, plus listed cases that passed. */
  failed: number;
}

export interface ConformanceFailure {
  readonly id: string;
  readonly tier: Tier;
  readonly problem: string;
}

export interface ConformanceReport {
  readonly origin: string;
  readonly suiteVersion: string;
  readonly protocolVersion: string;
  readonly tiers: readonly TierResult[];
  readonly failures: readonly ConformanceFailure[];
  /** Problems with the run itself: stale known-failure ids, counts that disagree with the manifest. */
  readonly problems: readonly string[];
  readonly ok: boolean;
  /** The per-tier lines, the same in every language's runner. */
  lines(): string[];
}

/** Tier names checked; an unknown one is an error, never a silently empty run. */
export function parseTiers(names: readonly string[] | string | undefined): Tier[] {
  const list = typeof names === "string" ? names.split(",") : (names ?? []);
  const chosen = list.map((n) => n.trim()).filter((n) => n !== "");
  if (chosen.length === 0) return [...TIERS];
  const unknown = chosen.filter((n) => !(TIERS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new SuiteError(
      `unknown tier ${unknown.map((n) => JSON.stringify(n)).join(", ")}; the tiers are ${TIERS.join(", ")}`,
    );
  return chosen as Tier[];
}

export function tierLine(t: TierResult): string {
  return t.selected
    ? `[mantyx-conformance] tier ${t.tier}: passed ${t.passed}, known failures ${t.knownFailures}, failed ${t.failed} (manifest ${t.manifest})`
    : `[mantyx-conformance] tier ${t.tier}: not selected (manifest ${t.manifest})`;
}

export async function runConformance(
  suite: LoadedSuite,
  adapters: ConformanceAdapters,
  options: RunConformanceOptions = {},
): Promise<ConformanceReport> {
  const missing = (["decodeSse", "decodeEvent", "validate"] as const).filter(
    (name) => typeof adapters?.[name] !== "function",
  );
  if (missing.length > 0)
    throw new SuiteError(
      `the adapters lack ${missing.join(", ")}: pass an SSE decoder, an event decoder and a validator (checkTranscript is optional)`,
    );
  const selected = new Set(parseTiers(options.tiers));
  const known = new Set(options.knownFailures ?? []);
  const results = new Map<Tier, TierResult>(
    TIERS.map((t) => [
      t,
      {
        tier: t,
        selected: selected.has(t),
        manifest: suite.manifest.counts.tiers[t] ?? 0,
        passed: 0,
        knownFailures: 0,
        failed: 0,
      },
    ]),
  );
  const failures: ConformanceFailure[] = [];
  const problems: string[] = [];
  const seen = new Map<Tier, number>();
  for (const c of suiteCases(suite)) {
    const result = results.get(c.tier);
    if (result === undefined) {
      problems.push(`${c.id}: unknown tier ${JSON.stringify(c.tier)}`);
      continue;
    }
    seen.set(c.tier, (seen.get(c.tier) ?? 0) + 1);
    const listed = known.delete(c.id);
    if (!result.selected) continue;
    let problem: string | undefined;
    try {
      problem = await c.check(adapters);
    } catch (error) {
      // An adapter's exception fails its case, not the run.
      problem = `an adapter threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    }
    if (problem !== undefined && listed) result.knownFailures++;
    else if (problem !== undefined) {
      result.failed++;
      failures.push({ id: c.id, tier: c.tier, problem });
    } else if (listed) {
      result.failed++;
      failures.push({
        id: c.id,
        tier: c.tier,
        problem: "listed as a known failure, yet passes: remove it from the list",
      });
    } else result.passed++;
  }
  for (const t of TIERS) {
    const r = results.get(t)!;
    if ((seen.get(t) ?? 0) !== r.manifest)
      problems.push(`tier ${t}: the suite holds ${seen.get(t) ?? 0} cases, its manifest counts ${r.manifest}`);
  }
  for (const id of [...known].sort())
    problems.push(
      `known failure ${JSON.stringify(id)} is no case of the suite (a typo, or a case the suite no longer has): remove it`,
    );
  const tiers = TIERS.map((t) => results.get(t)!);
  const { suiteVersion, protocolVersion } = suite.manifest;
  return {
    origin: suite.origin,
    suiteVersion,
    protocolVersion,
    tiers,
    failures,
    problems,
    ok: failures.length === 0 && problems.length === 0,
    lines: () => [
      `[mantyx-conformance] suite ${suiteVersion} (protocol ${protocolVersion}) from ${suite.origin}`,
      ...tiers.map(tierLine),
    ],
  };
}
