/**
 * `mantyx-wire diff` on real OpenAPI documents written by others (the
 * foreign-document inputs, test/generator/foreign/documents.ts, and the 3.2
 * stream document): each against itself is no change; two unrelated ones
 * give a typed report (every operation of one removed, of the other added),
 * never an internal error.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { FOREIGN_DOCUMENTS } from "../foreign/documents.js";
import { cli, REPO } from "../support.js";

const STREAMS_32 = path.join(REPO, "test/generator/foreign/streams-3.2.yaml");
const documents = [
  ...FOREIGN_DOCUMENTS.map((document) => [document.name, document.file] as const),
  ["streams-3.2", STREAMS_32] as const,
];

describe("mantyx-wire diff on documents by others", () => {
  test.each(documents)("%s against itself is no change", async (_name, file) => {
    const run = await cli(["diff", file, file, "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).changes).toEqual([]);
  });

  test("two unrelated documents: every route of the old removed (breaks clients), every route of the new added", async () => {
    const petstore = FOREIGN_DOCUMENTS.find((document) => document.name === "petstore")!.file;
    const run = await cli(["diff", petstore, STREAMS_32, "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const kinds = new Set(
      JSON.parse(run.stdout).changes.map(
        (change: { direction: string; kind: string }) => `${change.direction} ${change.kind}`,
      ),
    );
    expect(kinds).toContain("breaks-clients operation-removed");
    expect(kinds).toContain("additive operation-added");
  });
});
