/**
 * The emitters that only make sense for a document following the MANTYX
 * agent-runs conventions run when the document says so, through vendor
 * keywords (schema/CONVENTIONS.md, "Opt-in emitters"); for any other
 * OpenAPI document they are skipped with an info line, not an error.
 *
 * - transcript: `components.schemas.RunTranscript` carries
 *   `x-transcript-rules` (the sequence rules it compiles).
 * - fixtures: the document root carries `x-fixture-suite:
 *   mantyx-agent-runs` (the cross-language suite: message cases, the MANTYX
 *   SSE streams, flows and transcripts, which need the MANTYX components and
 *   operations, and a `cases/` folder beside the schema).
 *
 * Light on purpose (no emitter code): the main thread decides with it
 * before any emitter module or worker is loaded.
 */
import type { LoadedSchema } from "../model.js";

/** The only value of the root keyword `x-fixture-suite` the generator knows. */
export const MANTYX_FIXTURE_SUITE = "mantyx-agent-runs";

export interface OptIn {
  readonly emitter: string;
  /** Why the emitter is skipped (what the document lacks); undefined when it runs. */
  readonly skipped: string | undefined;
}

export function transcriptOptIn(model: Pick<LoadedSchema, "schemas">): OptIn {
  const transcript = model.schemas["RunTranscript"] as Record<string, unknown> | undefined;
  return {
    emitter: "transcript",
    skipped:
      transcript !== undefined && transcript["x-transcript-rules"] !== undefined
        ? undefined
        : "the document has no `components.schemas.RunTranscript` with `x-transcript-rules` (`mantyx-wire keywords`), so there are no sequence rules to compile",
  };
}

export function fixturesOptIn(model: Pick<LoadedSchema, "document">): OptIn {
  const declared = (model.document as unknown as Record<string, unknown>)["x-fixture-suite"];
  return {
    emitter: "fixtures",
    skipped:
      declared === MANTYX_FIXTURE_SUITE
        ? undefined
        : declared === undefined
          ? `the document does not declare \`x-fixture-suite: ${MANTYX_FIXTURE_SUITE}\` at its root (the MANTYX fixture suite needs the agent-runs components and operations)`
          : `\`x-fixture-suite: ${JSON.stringify(declared)}\` is not a suite the generator knows (it knows \`${MANTYX_FIXTURE_SUITE}\`)`,
  };
}

/** Every opt-in emitter's decision for `model`. */
export function optIns(model: LoadedSchema): OptIn[] {
  return [fixturesOptIn(model), transcriptOptIn(model)];
}
