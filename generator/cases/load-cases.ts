/**
 * Reads the hand-written cases in schema/cases/*.yaml: the documents' prose
 * rules as data. Expanded to plain JSON on load.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
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
  /** Which file it came from, e.g. `requests.yaml`. */
  readonly file: string;
}

export function loadHandCases(casesDir: string): HandCase[] {
  const files = readdirSync(casesDir).filter((f) => f.endsWith(".yaml")).sort();
  const all: HandCase[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const raw = parse(readFileSync(join(casesDir, file), "utf8")) as Array<Record<string, Json>>;
    for (const entry of raw) {
      const description = String(entry.description);
      if (seen.has(description)) throw new Error(`${file}: duplicate case description "${description}"; descriptions must be unique.`);
      seen.add(description);
      all.push({
        description,
        schema: String(entry.schema),
        data: expandCaseData(entry.data as Json),
        valid: entry.valid === true,
        ...(entry.rule !== undefined ? { rule: String(entry.rule) } : {}),
        ...(entry.path !== undefined ? { path: String(entry.path) } : {}),
        ...(entry.tags !== undefined ? { tags: (entry.tags as string[]).map(String) } : {}),
        file,
      });
    }
  }
  return all;
}
