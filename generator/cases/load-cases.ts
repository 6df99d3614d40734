/**
 * Reads the hand-written cases in schema/cases/*.yaml: the documents' prose
 * rules as data. Expanded to plain JSON on load.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { yamlLibrary } from "../load/yaml-library.js";
import { fastYamlData } from "../load/fast-yaml.js";
import { EmitError } from "../errors.js";
import { expandCaseData, type Json } from "./expand.js";

export interface HandCase {
  /** Unique across all case files; says the behaviour. */
  readonly description: string;
  /** Component schema name under `#/components/schemas`. */
  readonly schema: string;
  readonly data: Json;
  readonly valid: boolean;
  /** The keyword that must reject an invalid case. */
  readonly rule?: string;
  /** The instance path of that error, when it is precise. */
  readonly path?: string;
  /** Vendor keywords the verdict depends on (plain JSON Schema validators skip these knowingly). */
  readonly tags?: readonly string[];
  /** The document and section whose wording the case encodes (for reviewers; not shipped in the fixtures). */
  readonly source?: string;
  /** Which file it came from, e.g. `requests.yaml`. */
  readonly file: string;
}

/**
 * The cases of every `*.yaml` file in `casesDir` (absolute), sorted by file.
 *
 * Without the folder the suite has no hand-written cases, and `gen` warns
 * (generator/emit/diagnostics.ts: the fixture suite is the protocol's
 * conformance suite and these cases carry its prose rules, so a weaker suite
 * is never shipped quietly); an app generating a client from a copy of the
 * schema alone still gets its code. A folder without `*.yaml` files is the
 * explicit, silent way to generate without them. A path that is not a
 * folder is "missing-cases"; unreadable or malformed case files are
 * "invalid-cases".
 */
export function loadHandCases(casesDir: string): HandCase[] {
  const files = listCaseFiles(casesDir);
  const all: HandCase[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const raw = readCaseFile(casesDir, file);
    for (const entry of raw) {
      const description = String(entry.description);
      if (seen.has(description))
        throw invalidCases(
          join(casesDir, file),
          `duplicate case description "${description}"; descriptions must be unique.`,
          "Rename one of the two cases.",
        );
      seen.add(description);
      all.push({
        description,
        schema: String(entry.schema),
        data: expandCaseData(entry.data as Json),
        valid: entry.valid === true,
        ...(entry.rule !== undefined ? { rule: String(entry.rule) } : {}),
        ...(entry.path !== undefined ? { path: String(entry.path) } : {}),
        ...(entry.tags !== undefined ? { tags: (entry.tags as string[]).map(String) } : {}),
        ...(entry.source !== undefined ? { source: String(entry.source) } : {}),
        file,
      });
    }
  }
  return all;
}

/** Fix for a missing cases folder: where the shipped cases are, and the opt-out. */
export function missingCasesFix(casesDir: string): string {
  return (
    "The fixtures emitter reads the hand-written cases from the folder `cases` beside the schema file. " +
    "If your schema is a copy of @mantyx/wire-types' schema/openapi.yaml, copy the cases/ folder that ships beside it " +
    "(node_modules/@mantyx/wire-types/schema/cases/) next to your schema. " +
    `To generate the fixtures without hand-written cases, create the empty folder ${casesDir}.`
  );
}

function listCaseFiles(casesDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(casesDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    if (code === "ENOTDIR") {
      throw new EmitError(
        "missing-cases",
        "fixtures",
        `no folder of hand-written cases at ${casesDir} (that path is not a folder).`,
        missingCasesFix(casesDir),
      );
    }
    throw invalidCases(
      casesDir,
      `cannot read the cases folder: ${(error as Error).message}`,
      "Check the folder's permissions.",
    );
  }
  return names.filter((f) => f.endsWith(".yaml")).sort();
}

function readCaseFile(casesDir: string, file: string): Array<Record<string, Json>> {
  const where = join(casesDir, file);
  let raw: unknown;
  try {
    const text = readFileSync(where, "utf8");
    // js-yaml where it reads what `yaml` reads, much faster (../load/fast-yaml.ts).
    raw = fastYamlData(text) ?? yamlLibrary().parse(text);
  } catch (error) {
    throw invalidCases(
      where,
      `cannot read the case file: ${(error as Error).message}`,
      "Fix the file's YAML (a list of cases, see schema/cases/*.yaml).",
    );
  }
  if (raw === null || raw === undefined) return [];
  if (
    !Array.isArray(raw) ||
    !raw.every((entry) => entry !== null && typeof entry === "object" && !Array.isArray(entry))
  ) {
    throw invalidCases(
      where,
      "a case file must be a YAML list of cases (mappings).",
      "Write the cases as a list: `- description: ...`, see schema/cases/*.yaml.",
    );
  }
  return raw as Array<Record<string, Json>>;
}

function invalidCases(where: string, message: string, fix: string): EmitError {
  return new EmitError("invalid-cases", "fixtures", `${where}: ${message}`, fix);
}
