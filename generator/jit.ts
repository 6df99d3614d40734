/**
 * `gen` is one short batch run: most of its code (ajv's compiler and code
 * generator, the YAML parser, the emitters) is busy for a moment and then
 * done. With V8's default interrupt budget TurboFan optimizes ~240 of its
 * functions on background threads during a MANTYX `gen` (`--trace-opt`),
 * about 1.5-2 s of CPU beside a ~2.5 s main thread: on a machine with two
 * cores those threads compete with the run itself, and the optimized code
 * is used for a moment only. A larger budget (8x) leaves all but the
 * hottest functions in V8's interpreter and baseline tiers; on a large
 * document the hot ones are still optimized, a little later.
 *
 * Set for the one process a `gen` command runs in (./main.ts, the bin's
 * entry), not for `runCli` called in-process (tests) nor for `mock`, a
 * long-running server. A budget the user gives node (its command line or
 * NODE_OPTIONS) is left as given.
 */
import { setFlagsFromString } from "node:v8";

/** V8's default is 66 KiB of bytecode between checks (V8 11-13); this is eight times it. */
export const GEN_INTERRUPT_BUDGET = 8 * 67584;

const FLAG = "--interrupt-budget";

/** Raises V8's interrupt budget for this process, unless node was given one. */
export function tuneJitForGen(): void {
  const given = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)];
  if (
    given.some(
      (arg) =>
        arg === FLAG ||
        arg.startsWith(`${FLAG}=`) ||
        arg === "--interrupt_budget" ||
        arg.startsWith("--interrupt_budget="),
    )
  )
    return;
  try {
    setFlagsFromString(`${FLAG}=${GEN_INTERRUPT_BUDGET}`);
  } catch {
    // A runtime without V8 flags (some node:v8 stand-ins) runs with its own tiering.
  }
}
