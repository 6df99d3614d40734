/**
 * Emitter "transcript": generated/transcript.ts, the compiled
 * `x-transcript-rules` of RunTranscript (`validateRunTranscript`). Opt-in
 * (../emit/opt-in.ts): a document without them gets no transcript.ts.
 */
import type { EmitResult, Emitter, LoadedSchema } from "../model.js";
import { header } from "../header.js";
import { transcriptOptIn } from "../emit/opt-in.js";
import { checksRevision, runtimeImport } from "../emit/runtime-import.js";
import { compileTranscriptModule } from "./compile.js";
import { readTranscriptRules } from "./rules.js";

export const transcriptEmitter: Emitter = {
  name: "transcript",
  emit(model: LoadedSchema): EmitResult {
    if (transcriptOptIn(model).skipped !== undefined) return { files: [], diagnostics: [] };
    const rules = readTranscriptRules(model.schemas);
    const check = checksRevision(model) ? `mantyx-wire ${model.generatorVersion}` : undefined;
    return {
      files: [
        {
          path: "transcript.ts",
          contents: header(model, "//") + compileTranscriptModule(rules, runtimeImport(model, "transcript.ts"), check),
        },
      ],
      diagnostics: [],
    };
  },
};
