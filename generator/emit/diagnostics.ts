/**
 * Every diagnostic of a model (../diagnostics.ts), in a fixed order: the
 * opt-in emitters skipped, then what each emitter degrades or leaves out.
 * Pure: the emitters take the same decisions from the same functions. The
 * emitters' modules are imported here only when `gen` reports (they are
 * loaded by then).
 */
import type { Diagnostic } from "../diagnostics.js";
import type { LoadedSchema } from "../model.js";
import { existsSync } from "node:fs";
import { missingCasesFix } from "../cases/load-cases.js";
import { casesDirOf, schemaFileOf } from "./fixtures/cases-dir.js";
import { optIns } from "./opt-in.js";

export async function collectDiagnostics(model: LoadedSchema): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const { emitter, skipped } of optIns(model)) {
    if (skipped !== undefined) out.push({ level: "info", emitter, message: `skipped: ${skipped}.` });
    else if (emitter === "fixtures") {
      const casesDir = casesDirOf(schemaFileOf(model), {});
      if (!existsSync(casesDir)) out.push({ level: "warning", emitter, message: `the suite has no hand-written cases: no folder ${casesDir}. ${missingCasesFix(casesDir)}` });
    }
  }
  const { typeDegradations } = await import("./types.js");
  for (const { pointer, reason } of typeDegradations(model)) out.push({ level: "warning", emitter: "types", message: `${reason}.`, pointer });
  const { unknownVendorKeywords } = await import("./validators/prepare.js");
  for (const [keyword, pointer] of unknownVendorKeywords(model.schemas)) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `\`${keyword}\` is no vendor keyword the generator knows (schema/CONVENTIONS.md); it is read as an annotation and asserts nothing (first use shown).`,
      pointer,
    });
  }
  const { clientReport } = await import("./client.js");
  const client = clientReport(model);
  for (const { pointer, reason } of client.degraded) out.push({ level: "warning", emitter: "client", message: `${reason}.`, pointer });
  for (const { pointer, reason } of client.leftOut) out.push({ level: "warning", emitter: "client", message: `${reason}.`, pointer });
  const webhooks = (model.document as unknown as Record<string, unknown>).webhooks;
  if (webhooks !== null && typeof webhooks === "object" && Object.keys(webhooks).length > 0) {
    out.push({
      level: "warning",
      emitter: "client",
      message: `the document's ${Object.keys(webhooks).length} webhook(s) (${Object.keys(webhooks).sort().join(", ")}) are left out: the client makes requests, it does not receive them; their schemas still become types and validators.`,
      pointer: "/webhooks",
    });
  }
  return out;
}
