/**
 * The fixture judges' verdict without vendor keywords (`plain`, which tags a
 * case for plain JSON Schema runners) is read from the full rules' error list
 * where that list proves it, without compiling the plain judge
 * (generator/emit/fixtures/vendor-positions.ts); elsewhere the plain judge
 * decides. Both ways must give the plain judge's own verdict.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { LiveAjv } from "../../generator/emit/fixtures/live-ajv.js";
import { buildMessageSuite } from "../../generator/emit/fixtures/message-cases.js";
import { loadSchema } from "../../generator/load/index.js";
import { REPO } from "./support.js";

const C = "#/components/schemas/";

describe("plain verdicts read from the error list", () => {
  test("only vendor keywords failed, each where a failure fails the whole: accepted, no plain judge built", () => {
    const judge = new LiveAjv({
      Obj: {
        type: "object",
        properties: { a: { type: "string", "x-max-utf8-bytes": 2 }, b: { allOf: [{ $ref: `${C}Text` }] } },
      },
      Text: { type: "string", "x-max-utf8-bytes": 2 },
    } as never);
    const { full, plain } = judge.check(`${C}Obj`, { a: "éé", b: "éé" });
    expect(full.errors.map((e) => e.keyword)).toEqual(["x-max-utf8-bytes", "x-max-utf8-bytes"]);
    expect(plain).toBe(true);
    expect(judge.plainJudgeUsed).toBe(false);
  });

  test("another keyword failed too, and nothing conditional is reachable: rejected, no plain judge built", () => {
    const judge = new LiveAjv({
      Obj: {
        type: "object",
        properties: { a: { type: "string", "x-max-utf8-bytes": 2 }, n: { type: "integer", minimum: 0 } },
      },
    } as never);
    const { full, plain } = judge.check(`${C}Obj`, { a: "éé", n: -1 });
    expect(full.errors.map((e) => e.keyword).sort()).toEqual(["minimum", "x-max-utf8-bytes"]);
    expect(plain).toBe(false);
    expect(judge.plainJudgeUsed).toBe(false);
  });

  test("an assertion of the root itself failed, with a conditional elsewhere: rejected, no plain judge built", () => {
    const judge = new LiveAjv({
      List: {
        type: "array",
        minItems: 2,
        items: { anyOf: [{ type: "string", "x-max-utf8-bytes": 2 }, { type: "integer" }] },
      },
    } as never);
    const { full, plain } = judge.check(`${C}List`, ["ééé"]);
    expect(full.errors.map((e) => e.keyword)).toContain("minItems");
    expect(plain).toBe(false);
    expect(judge.plainJudgeUsed).toBe(false);
  });

  test("a vendor keyword inside a oneOf branch: the list proves nothing (two branches match without it), the plain judge says no", () => {
    const judge = new LiveAjv({
      Obj: {
        type: "object",
        properties: {
          a: { type: "string", "x-max-utf8-bytes": 2 },
          b: { oneOf: [{ type: "string", "x-max-utf8-bytes": 4 }, { type: "string" }] },
        },
      },
    } as never);
    const data = { a: "éé", b: "ééé" };
    const { full, plain } = judge.check(`${C}Obj`, data);
    // Only a vendor keyword is listed (the oneOf held: its first branch failed, on a vendor keyword) ...
    expect(full.errors.map((e) => e.keyword)).toEqual(["x-max-utf8-bytes"]);
    // ... yet without vendor keywords both branches match, so oneOf fails.
    expect(plain).toBe(false);
    expect(judge.plainVerdict(`${C}Obj`, data)).toBe(false);
    expect(judge.plainJudgeUsed).toBe(true);
  });

  test("a `$ref`'d branch's own root keyword at the same paths as the root's: not taken for the root's", () => {
    // The branch Obj reports `type` from "#/type" at "", as the root's own `type` would; the root's passes.
    const judge = new LiveAjv({
      Root: { type: ["object", "string"], anyOf: [{ $ref: `${C}Obj` }, { type: "string", "x-max-utf8-bytes": 2 }] },
      Obj: { type: "object" },
    } as never);
    const { full, plain } = judge.check(`${C}Root`, "ééé");
    expect(full.errors.map((e) => [e.keyword, e.schemaPath])).toContainEqual(["type", "#/type"]);
    expect(plain).toBe(true);
    expect(judge.plainJudgeUsed).toBe(true);
  });

  test("a first error proves a rejection where a failure of its keyword fails the plain rules too; a vendor keyword's proves nothing", () => {
    const judge = new LiveAjv({
      Obj: {
        type: "object",
        required: ["n"],
        properties: { a: { type: "string", "x-max-utf8-bytes": 2 }, n: { type: "integer" } },
      },
    } as never);
    const missing = judge.firstCheck(`${C}Obj`, { a: "éé" });
    expect(missing.errors.map((e) => e.keyword)).toContain("required");
    expect(judge.plainRejects(`${C}Obj`, missing.errors)).toBe(true);
    const vendor = judge.firstCheck(`${C}Obj`, { a: "éé", n: 1 });
    expect(vendor.errors.map((e) => e.keyword)).toEqual(["x-max-utf8-bytes"]);
    expect(judge.plainRejects(`${C}Obj`, vendor.errors)).toBe(false);
    expect(judge.plainVerdict(`${C}Obj`, { a: "éé" })).toBe(false);
  });

  test("a vendor keyword in a monotone place (an anyOf branch): an accepted case is accepted without it, no plain judge built", () => {
    const judge = new LiveAjv({
      Pick: { anyOf: [{ type: "string", "x-max-utf8-bytes": 2 }, { type: "integer" }] },
    } as never);
    const { full, plain } = judge.check(`${C}Pick`, "é");
    expect([full.valid, plain]).toEqual([true, true]);
    expect(judge.plainJudgeUsed).toBe(false);
  });
});

/**
 * "Accepted under the full rules, so accepted under the plain ones" does not
 * hold below `not`, `if` or an undiscriminated `oneOf`: dropping a vendor
 * keyword there can narrow what the whole accepts. Nor does "rejected with
 * no vendor keyword listed, so rejected": errors below those are not listed.
 */
describe("plain verdicts where a vendor keyword stands below not, if or oneOf", () => {
  const cases = [
    // Without the keyword both branches match: oneOf fails.
    [
      "accepted: a vendor keyword in an undiscriminated oneOf branch",
      { Pick: { oneOf: [{ type: "string", "x-max-utf8-bytes": 2 }, { type: "string" }] } },
      "ééé",
      true,
      false,
    ],
    // Without the keyword `not` has nothing to fail on: it fails itself.
    [
      "accepted: a vendor keyword under not",
      { Pick: { type: "string", not: { "x-max-utf8-bytes": 2 } } },
      "ééé",
      true,
      false,
    ],
    // The keyword fails the `if`, so `else` applies; without it `then` does.
    [
      "rejected, no vendor error listed: a vendor keyword in an if",
      { Pick: { if: { "x-max-utf8-bytes": 2 }, then: true, else: false } },
      "ééé",
      false,
      true,
    ],
    [
      "accepted: a vendor keyword in an if, then: false",
      { Pick: { if: { "x-max-utf8-bytes": 2 }, then: false } },
      "ééé",
      true,
      false,
    ],
  ] as const;
  for (const [name, schemas, data, valid, plainValid] of cases) {
    test(`${name}: the plain verdict is the plain judge's`, () => {
      const judge = new LiveAjv(schemas as never);
      const { full, plain } = judge.check(`${C}Pick`, data);
      expect(full.valid).toBe(valid);
      expect(full.errors.some((e) => e.keyword.startsWith("x-"))).toBe(false);
      expect(judge.plainVerdict(`${C}Pick`, data)).toBe(plainValid);
      expect(plain).toBe(plainValid);
      // The one keyword the verdict depends on, for the case's tags.
      expect(judge.vendorDependence(`${C}Pick`, data, valid)).toEqual(["x-max-utf8-bytes"]);
    });
  }

  test("only several keywords together change the verdict: each reachable one is named", () => {
    const judge = new LiveAjv({
      Pick: { oneOf: [{ type: "string", "x-max-utf8-bytes": 2, "x-max-json-bytes": 4 }, { type: "string" }] },
    } as never);
    // Over both limits: without either alone, the first branch still fails.
    expect(judge.check(`${C}Pick`, "éééé")).toMatchObject({ full: { valid: true }, plain: false });
    expect(judge.vendorDependence(`${C}Pick`, "éééé", true)).toEqual(["x-max-json-bytes", "x-max-utf8-bytes"]);
  });

  test("the fixture suite tags such a case with the keyword, so a plain validator skips it knowingly", () => {
    const schemas = {
      Pick: { oneOf: [{ type: "string", "x-max-utf8-bytes": 2 }, { type: "string" }], examples: ["ééé"] },
    };
    const suite = buildMessageSuite(schemas as never, new LiveAjv(schemas as never), []);
    const tests = suite.files.get("messages/Pick.json")!.flatMap((g) => g.tests);
    // "ééé" fails the first branch only on the keyword: valid, and invalid without it.
    expect(tests.find((t) => t.description === "example 0")).toMatchObject({
      data: "ééé",
      valid: true,
      tags: ["x-max-utf8-bytes"],
    });
    // Every valid string case depends on the keyword the same way, or matches both branches (invalid under either rules, untagged).
    for (const t of tests.filter((c) => typeof c.data === "string")) {
      expect(t.tags, t.description).toEqual(t.valid ? ["x-max-utf8-bytes"] : undefined);
    }
  });
});

describe("the MANTYX suite", () => {
  test("every message case of the MANTYX suite: the verdict read from the list is the plain judge's", async () => {
    const model = await loadSchema("schema/openapi.yaml", { cwd: REPO });
    const judge = new LiveAjv(model.schemas);
    const folder = path.join(REPO, "generated/fixtures/messages");
    let read = 0;
    for (const file of readdirSync(folder)) {
      for (const group of JSON.parse(readFileSync(path.join(folder, file), "utf8")) as Array<{
        schema: string;
        tests: Array<{ tier: string; data: unknown }>;
      }>) {
        for (const t of group.tests.filter((c) => c.tier === "strict")) {
          const { plain } = judge.check(group.schema, t.data);
          expect(plain, `${file}: ${JSON.stringify(t.data).slice(0, 200)}`).toBe(
            judge.plainVerdict(group.schema, t.data),
          );
          read++;
        }
      }
    }
    expect(read).toBeGreaterThan(1000);
  }, 120_000);
});

describe("plain verdicts the plain judge gives for a smaller schema", () => {
  // A vendor keyword below an `anyOf`: no error list proves the plain verdict, the plain judge must run.
  const event = (kind: string) => ({
    type: "object",
    required: ["kind", "s"],
    properties: {
      kind: { const: kind },
      s: { anyOf: [{ type: "string", "x-max-utf8-bytes": 2 }, { type: "integer" }] },
    },
  });
  const tooLong = { kind: "a", s: "ééé" };

  test("a discriminated oneOf: only the branch the tag names is compiled, and its verdict is the union's", () => {
    const judge = new LiveAjv({
      Union: { type: "object", discriminator: { propertyName: "kind" }, oneOf: [{ $ref: `${C}A` }, { $ref: `${C}B` }] },
      A: event("a"),
      B: event("b"),
    } as never);
    const { full, plain } = judge.check(`${C}Union`, tooLong);
    expect(full.valid).toBe(false);
    expect(plain).toBe(true);
    expect(judge.plainCompiled).toEqual([`${C}A`]);
    expect(judge.plainVerdict(`${C}Union`, tooLong)).toBe(true);
    // A tag no branch has: invalid without compiling anything.
    const unknown = new LiveAjv({
      Union: { type: "object", discriminator: { propertyName: "kind" }, oneOf: [{ $ref: `${C}A` }, { $ref: `${C}B` }] },
      A: event("a"),
      B: event("b"),
    } as never);
    expect(unknown.check(`${C}Union`, { kind: "c", s: "ééé" }).plain).toBe(false);
    expect(unknown.plainCompiled).toEqual([]);
  });

  test("narrowed to a branch whose vendor keywords are all monotone: accepted, or rejected with no vendor error listed, without compiling", () => {
    // B's vendor keyword below `not` makes the union non-monotone; A's (below an anyOf) is monotone.
    const B = {
      type: "object",
      required: ["kind"],
      properties: { kind: { const: "b" }, s: { not: { type: "string", "x-max-utf8-bytes": 2 } } },
    };
    const schemas = {
      Union: { type: "object", discriminator: { propertyName: "kind" }, oneOf: [{ $ref: `${C}A` }, { $ref: `${C}B` }] },
      A: event("a"),
      B,
    };
    for (const [data, want] of [
      [{ kind: "a", s: "é" }, true],
      [{ kind: "a", s: 1.5 }, false],
    ] as const) {
      const judge = new LiveAjv(schemas as never);
      expect(judge.check(`${C}Union`, data).plain).toBe(want);
      expect(judge.plainCompiled).toEqual([]);
      expect(new LiveAjv(schemas as never).plainVerdict(`${C}Union`, data)).toBe(want);
    }
    // In the non-monotone branch the plain judge still decides.
    const judge = new LiveAjv(schemas as never);
    expect(judge.check(`${C}Union`, { kind: "b", s: "ééé" }).plain).toBe(false);
    expect(judge.plainCompiled).toEqual([`${C}B`]);
  });

  test("if/then/else whose `if` judges alike under both rules: only the branch in force is compiled", () => {
    const schemas = {
      Root: {
        if: { type: "object", required: ["kind"], properties: { kind: { const: "a" } } },
        then: { $ref: `${C}A` },
        else: { $ref: `${C}B` },
      },
      A: event("a"),
      B: event("b"),
    };
    const judge = new LiveAjv(schemas as never);
    expect(judge.check(`${C}Root`, tooLong).plain).toBe(true);
    expect(judge.plainCompiled).toEqual([`${C}A`]);
    expect(new LiveAjv(schemas as never).plainVerdict(`${C}Root`, tooLong)).toBe(true);
  });

  test("not narrowed: an `if` with a vendor keyword (the two rules may take different branches); the plain judge's verdict on the whole", () => {
    // The full rules' `if` fails on the vendor keyword and sends the value to `else`; the plain rules' holds.
    const vendorIf = {
      Root: {
        if: { type: "object", properties: { s: { type: "string", "x-max-utf8-bytes": 2 } } },
        then: { $ref: `${C}A` },
        else: { $ref: `${C}B` },
      },
      A: event("a"),
      B: event("b"),
    };
    const judge = new LiveAjv(vendorIf as never);
    const { full, plain } = judge.check(`${C}Root`, tooLong);
    expect(full.valid).toBe(false);
    expect(plain).toBe(true);
    expect(new LiveAjv(vendorIf as never).plainVerdict(`${C}Root`, tooLong)).toBe(true);
    expect(judge.plainCompiled).toContain(`${C}Root`);
  });

  test("a first error inside the branch of an `if` that judges alike under both rules proves the plain rejection; an `if` error alone proves nothing", () => {
    const judge = new LiveAjv({
      Root: {
        if: { type: "object", required: ["kind"] },
        then: {
          type: "object",
          required: ["n"],
          properties: { a: { type: "string", "x-max-utf8-bytes": 2 }, n: { type: "integer" } },
        },
      },
    } as never);
    const missing = judge.firstCheck(`${C}Root`, { kind: "k", a: "é" });
    expect(missing.errors.map((e) => e.keyword)).toEqual(["required", "if"]);
    expect(judge.plainRejects(`${C}Root`, missing.errors)).toBe(true);
    const vendor = judge.firstCheck(`${C}Root`, { kind: "k", a: "ééé", n: 1 });
    expect(vendor.errors.map((e) => e.keyword)).toEqual(["x-max-utf8-bytes", "if"]);
    expect(judge.plainRejects(`${C}Root`, vendor.errors)).toBe(false);
    expect(judge.check(`${C}Root`, { kind: "k", a: "ééé", n: 1 }).plain).toBe(true);
    expect(judge.plainJudgeUsed).toBe(false);
  });
});
