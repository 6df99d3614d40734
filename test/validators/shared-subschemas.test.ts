/**
 * Repeated inline subschemas are compiled once (generator/emit/validators/shared-subschemas.ts):
 * a document written by code (fixtures/repeated-subschemas.yaml: one repository object inline in
 * three places) gets one function for it, the same verdicts and errors as live ajv on the schemas as
 * written, but for the `schemaPath` of an error inside the shared subschema, relative to it.
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { beforeAll, describe, expect, it } from "vitest";
import { shareRepeatedSubschemas } from "../../generator/emit/validators/shared-subschemas.js";
import type { LoadedSchema } from "../../generator/model.js";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { FIXTURES, loadSchemaFile } from "./support/load-schema.js";

let model: LoadedSchema;
let emitted: EmittedValidators;

beforeAll(async () => {
  model = await loadSchemaFile(new URL("repeated-subschemas.yaml", FIXTURES));
  emitted = await emitToTempDir(model);
});

const repo = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 7,
  full_name: "octo/cat",
  visibility: "public",
  owner: { login: "octo", id: 1 },
  ...overrides,
});

describe("a repeated inline subschema in a foreign document", () => {
  it("is compiled once: its code is in the strict module one time, not once per place", () => {
    const strict = emitted.files.find((f) => f.path === "validators/internal/strict.js")!.contents;
    // The owner's closed property list, inside the repository object written in three places.
    expect(strict.match(/=== "site_admin"/g)?.length).toBe(1);
    // The allOf branch two closed components share (its properties still count as evaluated through the $ref: below).
    expect(strict.match(/> 350\)/g)?.length).toBe(1);
  });

  it("judges as live ajv judges the schemas as written; errors inside it point into it", async () => {
    const cases: Array<[name: string, data: unknown]> = [
      ["Fork", { forkee: repo() }],
      ["Fork", { forkee: repo({ id: 0 }) }],
      ["Fork", { forkee: repo({ owner: { login: "", id: 1 } }) }],
      ["Fork", { forkee: repo({ extra: true }) }],
      [
        "PullRequestOpened",
        { action: "opened", base: { ref: "main", repo: repo() }, head: { ref: "x", repo: repo() } },
      ],
      [
        "PullRequestOpened",
        { action: "opened", base: { ref: "main", repo: repo() }, head: { ref: "x", repo: repo({ visibility: "x" }) } },
      ],
      ["ClosedRepo", { id: 1, full_name: "a/b", extra: "x" }],
      ["ClosedRepo", { id: 1, full_name: "a/b", other: "x" }],
      ["ClosedRepoToo", { id: 1, full_name: "a/b", private: true }],
      ["ClosedRepoToo", { id: 1, full_name: "a/b", extra: "x" }],
    ];
    const live = liveValidators(model);
    for (const [name, data] of cases) {
      const ours = run(await emitted.get(name), data);
      const theirs = run(live(name), data);
      expect(ours.valid, JSON.stringify(data)).toBe(theirs.valid);
      const withoutSchemaPath = (errors: typeof ours.errors) => errors?.map(({ schemaPath: _, ...rest }) => rest);
      expect(withoutSchemaPath(ours.errors)).toEqual(withoutSchemaPath(theirs.errors));
    }
    const fork = run(await emitted.get("Fork"), { forkee: repo({ owner: { login: "", id: 1 } }) });
    expect(fork.errors?.[0]).toMatchObject({
      instancePath: "/forkee/owner/login",
      // Live ajv on the schema as written: #/properties/forkee/properties/owner/properties/login/minLength.
      schemaPath: "#/properties/owner/properties/login/minLength",
    });
  });
});

describe("shareRepeatedSubschemas", () => {
  const big = (tag: string): SchemaObject => ({
    type: "object",
    required: ["a", "b", "c"],
    properties: Object.fromEntries(
      ["a", "b", "c", "d", "e", "f"].map((p) => [p, { type: "string", description: `${tag} ${p}`, minLength: 1 }]),
    ),
  });

  it("moves a repeated large subschema to one shared place that every copy references", () => {
    const { components, shared } = shareRepeatedSubschemas({
      A: { type: "object", properties: { x: big("x") } },
      B: { type: "array", items: big("x") },
    });
    expect(Object.keys(shared)).toEqual(["shared-0"]);
    expect(shared["shared-0"]).toEqual(big("x"));
    expect(components["A"]).toEqual({ type: "object", properties: { x: { $ref: "#/$defs/shared-0" } } });
    expect(components["B"]).toEqual({ type: "array", items: { $ref: "#/$defs/shared-0" } });
  });

  it("references a component where a subschema is a copy of it", () => {
    const { components, shared } = shareRepeatedSubschemas({
      Item: big("i"),
      List: { type: "array", items: big("i") },
    });
    expect(shared).toEqual({});
    expect(components["List"]).toEqual({ type: "array", items: { $ref: "#/components/schemas/Item" } });
    expect(components["Item"]).toEqual(big("i"));
  });

  it("leaves small, place-bound and pointed-at subschemas where they are", () => {
    const small: SchemaObject = { type: "string", minLength: 1 };
    const withAnchor = { ...big("y"), $anchor: "y" };
    const relative = { ...big("z"), properties: { r: { $ref: "other.json#/r" } } };
    const input: Record<string, SchemaObject> = {
      A: { properties: { s: small, y: withAnchor, z: relative, p: big("p") } },
      B: { properties: { s: small, y: withAnchor, z: relative, p: big("p") } },
      C: { $ref: "#/components/schemas/A/properties/p/properties/a" },
    };
    const { components, shared } = shareRepeatedSubschemas(input);
    expect(components["A"]).toEqual(input["A"]);
    // B's copy of p is nobody's target: it is shared (with no other copy left, alone).
    expect(components["B"]).toEqual({
      properties: { s: small, y: withAnchor, z: relative, p: { $ref: "#/$defs/shared-0" } },
    });
    expect(shared).toEqual({ "shared-0": big("p") });
  });

  it("counts a repeat inside a shared subschema once for it", () => {
    const inner = big("inner");
    const outer: SchemaObject = { type: "object", properties: { inner, other: { type: "integer" } } };
    // `inner` is written twice, both times inside `outer`: sharing `outer` leaves one `inner`, which stays inline.
    const { shared } = shareRepeatedSubschemas({ A: { items: outer }, B: { items: outer } });
    expect(shared).toEqual({ "shared-0": outer });
  });
});
