/**
 * Every diagnostic of a model (../diagnostics.ts), in a fixed order: the
 * opt-in emitters skipped, then what each emitter degrades or leaves out.
 * Pure: the emitters take the same decisions from the same functions.
 */
import type { Diagnostic } from "../diagnostics.js";
import type { LoadedSchema } from "../model.js";
import { optIns } from "./opt-in.js";

export function collectDiagnostics(model: LoadedSchema): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { emitter, skipped } of optIns(model)) {
    if (skipped !== undefined) out.push({ level: "info", emitter, message: `skipped: ${skipped}.` });
  }
  return out;
}
