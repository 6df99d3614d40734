/**
 * The fault table of docs/mock.md is the fault catalog (generator/mock/faults/catalog.ts):
 * the same faults, in the same order, with the same value syntax, scope,
 * effect and duty of the client, so the documentation cannot drift from
 * what the parser accepts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FAULT_CATALOG } from "../../generator/mock/faults/index.js";

const SCOPE = { connection: "connection", run: "run (stored)", spec: "spec" } as const;

/** The cells of each row of the table under "### Faults", `\|` unescaped and code marks removed where a whole cell is code. */
function readmeRows(): string[][] {
  const readme = readFileSync(new URL("../../docs/mock.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Faults"));
  const lines = section.split("\n");
  const start = lines.findIndex((l) => l.startsWith("| fault |"));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line
      .slice(2, -2)
      .split(/ (?<!\\)\| /)
      .map((c) => c.replace(/\\\|/g, "|"));
    rows.push(cells.map((c, i) => (i < 2 ? c.replace(/^`(.*)`$/, "$1") : c)));
  }
  return rows;
}

describe("the fault table of docs/mock.md", () => {
  it("lists the catalog, row for row", () => {
    expect(readmeRows()).toEqual(FAULT_CATALOG.map((f) => [f.name, f.value, SCOPE[f.scope], f.does, f.clientMust]));
  });
});
