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
import { getAtPointer, parsePointer } from "../load/json-pointer.js";

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
  const { earlierDraftNote, firstDefinitions, unknownKeywords } = await import("./validators/annotations.js");
  const definitions = firstDefinitions(model.schemas);
  if (definitions !== undefined) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: "`definitions` is the name JSON Schema drafts 4 to 7 gave `$defs`; it is read as `$defs`: its schemas assert nothing where they stand, and `$ref`s into them resolve (first use shown). Rename it `$defs`.",
      pointer: definitions,
    });
  }
  for (const [keyword, pointer] of unknownKeywords(model.schemas)) {
    const note = earlierDraftNote(keyword, getAtPointer(model.document, parsePointer(pointer)));
    out.push({
      level: "warning",
      emitter: "validators",
      message:
        note !== undefined
          ? `${note} (first use shown).`
          : `\`${keyword}\` is no keyword of JSON Schema 2020-12 or OpenAPI 3.1; as JSON Schema says of unknown keywords, it is read as an annotation and asserts nothing (first use shown). If it is a tool's extension, name it \`x-${keyword}\`.`,
      pointer,
    });
  }
  const { nullableUses } = await import("../load/nullable.js");
  const nullable = nullableUses(model.document);
  if (nullable.length > 0) {
    const typed = nullable.filter((use) => use.typed);
    const untyped = nullable.filter((use) => !use.typed);
    if (typed.length > 0) {
      out.push({
        level: "warning",
        emitter: "types",
        message: `OpenAPI 3.0's \`nullable: true\` (${typed.length} schema(s), first shown) is no 3.1 keyword; it is read as \`null\` added to the schema's \`type\` (and \`enum\`), as its author meant. Write \`type: [T, "null"]\` instead.`,
        pointer: typed[0]!.pointer,
      });
    }
    if (untyped.length > 0) {
      out.push({
        level: "warning",
        emitter: "types",
        message: `\`nullable: true\` without a \`type\` (${untyped.length} schema(s), first shown) means nothing, in OpenAPI 3.0 as in 3.1: \`null\` is not allowed there. To allow it, write \`anyOf: [<the schema>, { type: "null" }]\`.`,
        pointer: untyped[0]!.pointer,
      });
    }
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
