import { describe, expect, it } from "vitest";
import { loadHandCases } from "../../generator/cases/load-cases.js";
import { check, repoRoot } from "./live-ajv.js";

const cases = loadHandCases(`${repoRoot}schema/cases`);

describe("hand-written cases from the documents' prose rules (live ajv)", () => {
  it("has valid and invalid cases", () => {
    expect(cases.filter((c) => c.valid).length).toBeGreaterThan(20);
    expect(cases.filter((c) => !c.valid).length).toBeGreaterThan(50);
  });

  it("every invalid case names the rule it breaks", () => {
    expect(cases.filter((c) => !c.valid && !c.rule).map((c) => c.description)).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.file}: ${c.description}`, () => {
      const { valid, errors } = check(c.schema, c.data);
      if (c.valid) {
        expect(errors).toEqual([]);
        expect(valid).toBe(true);
        return;
      }
      expect(valid).toBe(false);
      const keywords = errors.map((e) => `${e.keyword} at ${e.instancePath || "/"}`);
      const hit = errors.find((e) => e.keyword === c.rule && (c.path === undefined || e.instancePath === c.path));
      expect(hit, `expected ${c.rule}${c.path ? ` at ${c.path}` : ""}, got ${keywords.join(", ")}`).toBeDefined();
    });
  }
});
