/**
 * Every diagnostic of a run (../diagnostics.ts), in a fixed order: the
 * opt-in emitters skipped, then what the emitters said of their own output
 * (`fromEmitters`, which `generate` collects from each emitter's result:
 * the types', then after the notes below the client's), and the notes on
 * the document itself, which this module reads from the loaded model with
 * the functions the emitters decide by. It reads no emitter's state.
 */
import type { Diagnostic } from "../diagnostics.js";
import type { LoadedSchema } from "../model.js";
import { existsSync } from "node:fs";
import { missingCasesFix } from "../cases/load-cases.js";
import { casesDirOf, schemaFileOf } from "./fixtures/cases-dir.js";
import { optIns } from "./opt-in.js";
import { booleanExclusiveBounds } from "../load/exclusive-bounds.js";
import { formatPointer, getAtPointer, isPlainObject, parsePointer } from "../load/json-pointer.js";
import { exampleMapsRead, isDialect2020, misspelt, repairedDefinitionTargets } from "../load/validate-schemas.js";
import { openApi30NotesOf } from "../load/index.js";
import { nullableUses } from "../load/nullable.js";
import { methodNaming, operationPointer } from "./operation-names.js";
import { operationsOf } from "./operations.js";
import { earlierDraftNote, firstDefinitions, unknownKeywords } from "./validators/annotations.js";
import { refusedDiscriminators, unknownVendorKeywords } from "./validators/prepare.js";

/** What the document itself calls for (`documentDiagnostics`): the opt-in emitters' lines, and the notes on the document. */
export interface DocumentDiagnostics {
  readonly optIns: readonly Diagnostic[];
  readonly notes: readonly Diagnostic[];
}

/**
 * The run's diagnostics in their order: the opt-in lines, the types
 * emitter's, the notes on the document, then the other emitters'. The
 * document's part depends on the model only: `gen` has it made
 * (`documentDiagnostics`) while the validators' thread works.
 */
export function collectDiagnostics(
  model: LoadedSchema,
  fromEmitters: readonly Diagnostic[],
  document: DocumentDiagnostics = documentDiagnostics(model),
): Diagnostic[] {
  const { optIns, notes } = document;
  return [
    ...optIns,
    // What the types emitter said (components it renamed, what it degraded) first, as it always came; what the other emitters said last.
    ...fromEmitters.filter((d) => d.emitter === "types"),
    ...notes,
    ...fromEmitters.filter((d) => d.emitter !== "types"),
  ];
}

/** The diagnostics the document itself calls for, whatever the emitters say. */
export function documentDiagnostics(model: LoadedSchema): DocumentDiagnostics {
  const opted: Diagnostic[] = [];
  for (const { emitter, skipped } of optIns(model)) {
    if (skipped !== undefined) opted.push({ level: "info", emitter, message: `skipped: ${skipped}.` });
    else if (emitter === "fixtures") {
      const casesDir = casesDirOf(schemaFileOf(model), {});
      if (!existsSync(casesDir))
        opted.push({
          level: "warning",
          emitter,
          message: `the suite has no hand-written cases: no folder ${casesDir}. ${missingCasesFix(casesDir)}`,
        });
    }
  }
  const out: Diagnostic[] = [];
  for (const [keyword, pointer] of unknownVendorKeywords(model.schemas)) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `\`${keyword}\` is no vendor keyword the generator knows (\`mantyx-wire keywords\` lists them); it is read as an annotation and asserts nothing (first use shown).`,
      pointer,
    });
  }
  for (const [pointer, why] of refusedDiscriminators(model.schemas)) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `this discriminator is left out of the validators: ${why}; they check the union as a plain oneOf/anyOf (each branch tried), and the types still narrow on each branch's tag where it has one.`,
      pointer,
    });
  }
  const definitions = firstDefinitions(model.schemas);
  if (definitions !== undefined) {
    out.push({
      level: "warning",
      emitter: "validators",
      message:
        "`definitions` is the name JSON Schema drafts 4 to 7 gave `$defs`; it is read as `$defs`: its schemas assert nothing where they stand, and `$ref`s into them resolve (first use shown). Rename it `$defs`.",
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
          : misspelt(keyword) !== undefined
            ? `\`${keyword}\` is no keyword of JSON Schema 2020-12 or OpenAPI 3.1; it is read as an annotation (first use shown). ${misspelt(keyword)!}`
            : `\`${keyword}\` is no keyword of JSON Schema 2020-12 or OpenAPI 3.1; as JSON Schema says of unknown keywords, it is read as an annotation and asserts nothing (first use shown). If it is a tool's extension, name it \`x-${keyword}\`.`,
      pointer,
    });
  }
  out.push(...otherDialects(model));
  const exampleMaps = exampleMapsRead(model.document);
  if (exampleMaps.length > 0) {
    out.push({
      level: "warning",
      emitter: "types",
      message: `a schema's \`examples\` is a map of Example Objects (${exampleMaps.length} schema(s), first shown), as a Media Type Object's is; in JSON Schema it is an array, so it is read as the array of their \`value\`s. Write \`examples: [...]\` (or move the map to the media type).`,
      pointer: exampleMaps[0]!,
    });
  }
  for (const { pointer, keywords } of repairedDefinitionTargets(model.document)) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `a \`$ref\` reads the schema at #${pointer} (under \`definitions\`), which is no valid JSON Schema: its ${keywords.map((k) => `\`${k}\``).join(", ")} ${keywords.length === 1 ? "is" : "are"} left out, so it asserts nothing there (its type is unknown). Fix the schema there (a schema nested one level too deep is the usual cause).`,
      pointer,
    });
  }
  const bounds = booleanExclusiveBounds(model.document);
  if (bounds.length > 0) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `draft-04's boolean \`exclusiveMinimum\`/\`exclusiveMaximum\` (${bounds.length} use(s), first shown) is no 2020-12 value; it is read as draft-04 meant it: \`minimum: 10, exclusiveMinimum: true\` is \`exclusiveMinimum: 10\`, and \`false\` says nothing. Write the bound as the keyword's value.`,
      pointer: bounds[0]!,
    });
  }
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
  const notes30 = openApi30NotesOf(model);
  const patterns = notes30?.droppedPatterns ?? [];
  if (patterns.length > 0) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `${patterns.length} \`pattern\`(s) (first shown) are no ECMAScript regular expression, which OpenAPI 3.0 names (a Java class such as \`\\p{Print}\`, or not a string): left out, they assert nothing. Write the pattern in ECMAScript syntax to have it checked.`,
      pointer: patterns[0]!,
    });
  }
  const nullSchemas = notes30?.nullSchemas ?? [];
  if (nullSchemas.length > 0) {
    out.push({
      level: "warning",
      emitter: "types",
      message: `${nullSchemas.length} \`schema: null\` (first shown) is no Schema Object: read as no schema (any value), as if not written. Remove it, or write the schema.`,
      pointer: nullSchemas[0]!,
    });
  }
  const emptyResponses = notes30?.emptyResponses ?? [];
  if (emptyResponses.length > 0) {
    out.push({
      level: "warning",
      emitter: "client",
      message: `${emptyResponses.length} operation(s) (first shown) with an empty \`responses\`, which OpenAPI 3.0 does not allow (at least one response): read as an operation whose answers the document does not describe (OpenAPI 3.1 lets it leave \`responses\` out). Describe at least one response, e.g. \`"200": { description: OK }\`.`,
      pointer: emptyResponses[0]!,
    });
  }
  const dropped = notes30?.droppedRefSiblings ?? [];
  if (dropped.length > 0) {
    out.push({
      level: "warning",
      emitter: "types",
      message: `OpenAPI 3.0 ignores what stands beside a \`$ref\`: ${dropped.length} keyword(s) beside a \`$ref\` (first shown) assert nothing (annotations such as \`description\` are kept, \`nullable\` is read). To add to a referenced schema, write \`allOf: [{ $ref: … }, { … }]\`.`,
      pointer: dropped[0]!,
    });
  }
  for (const r of methodNaming(operationsOf(model.document)).renamed) {
    const show = (e: typeof r.entry): string =>
      `${e.method.toUpperCase()} ${e.path}${e.op.operationId === undefined ? "" : ` (operationId ${JSON.stringify(e.op.operationId)})`}`;
    out.push({
      level: "warning",
      emitter: "client",
      message: `this operation's method name ${r.natural} is also that of ${show(r.holder)}; it is ${r.name} (the client method and the function in operations.ts). Give one of them an operationId that maps to another name.`,
      pointer: operationPointer(r.entry),
    });
  }
  return { optIns: opted, notes: out };
}

/**
 * A `jsonSchemaDialect`, or a component's `$schema`, that names another
 * dialect than 2020-12 (draft-04 to 2019-09): read as 2020-12, one warning
 * each, saying which of its keywords are read as their draft meant.
 */
function otherDialects(model: LoadedSchema): Diagnostic[] {
  const out: Diagnostic[] = [];
  const reading =
    "the generator reads JSON Schema 2020-12 (OpenAPI 3.1's dialect), and reads these schemas as 2020-12: `definitions` as `$defs`, boolean exclusive bounds as draft-04 meant them; its other keywords that 2020-12 lacks (`dependencies`, `additionalItems`, `id`) assert nothing, each with a warning";
  const document = model.document as unknown as Record<string, unknown>;
  const dialect = document.jsonSchemaDialect;
  if (dialect !== undefined && !isDialect2020(dialect)) {
    out.push({
      level: "warning",
      emitter: "validators",
      message: `jsonSchemaDialect is ${JSON.stringify(dialect)}; ${reading}. Rewrite the schemas in 2020-12 and remove jsonSchemaDialect (or set it to https://json-schema.org/draft/2020-12/schema).`,
      pointer: "/jsonSchemaDialect",
    });
  }
  const others = Object.keys(model.schemas).filter((name) => {
    const schema = model.schemas[name] as unknown;
    return isPlainObject(schema) && schema.$schema !== undefined && !isDialect2020(schema.$schema);
  });
  if (others.length > 0) {
    const first = others[0]!;
    const own = (model.schemas[first] as unknown as Record<string, unknown>).$schema;
    out.push({
      level: "warning",
      emitter: "validators",
      message: `${others.length} component schema(s) (${others.slice(0, 5).join(", ")}${others.length > 5 ? ", ..." : ""}) name another dialect in \`$schema\` (first: ${JSON.stringify(own)}); ${reading}. Rewrite them in 2020-12 and remove \`$schema\`.`,
      pointer: formatPointer(["components", "schemas", first, "$schema"]),
    });
  }
  return out;
}
