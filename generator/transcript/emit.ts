/**
 * Emitter "transcript": generated/transcript.ts, the compiled
 * `x-transcript-rules` of RunTranscript (`validateRunTranscript`).
 */
import type { EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { header } from "../header.js";
import { compileTranscriptModule } from "./compile.js";
import { readTranscriptRules } from "./rules.js";

export const transcriptEmitter: Emitter = {
  name: "transcript",
  emit(model: LoadedSchema): EmittedFile[] {
    const rules = readTranscriptRules(model.schemas);
    return [{ path: "transcript.ts", contents: header(model, "//") + compileTranscriptModule(rules) }];
  },
};
