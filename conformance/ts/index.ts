/**
 * `@mantyx/wire-types/conformance`: the MANTYX fixture suite's runner for
 * TypeScript SDKs other than ours. Portable (no Node built-ins; runs
 * wherever the package does): the suite's files come through a
 * `SuiteSource`. From Node, `@mantyx/wire-types/conformance/node` reads the
 * suite this package ships and known-failures files.
 *
 *   const suite = await loadSuite(source);            // sha256-verified
 *   const report = await runConformance(suite, adapters, { tiers, knownFailures });
 *   report.lines().forEach((l) => console.log(l));    // per tier: passed, known failures, failed
 */
export type { ConformanceAdapters, SuiteSseMessage, ValidationLevel, Verdict } from "./adapters.js";
export { parseKnownFailures } from "./known-failures.js";
export {
  parseTiers,
  runConformance,
  tierLine,
  type ConformanceFailure,
  type ConformanceReport,
  type RunConformanceOptions,
  type TierResult,
} from "./run.js";
export { sha256Hex } from "./sha256.js";
export {
  loadSuite,
  suiteSourceFromFiles,
  SuiteError,
  SuiteIntegrityError,
  TIERS,
  type LoadedSuite,
  type Manifest,
  type SuiteSource,
  type Tier,
} from "./suite.js";
