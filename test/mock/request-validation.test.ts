/**
 * The mock checks request bodies with validators it compiles from the
 * bundled schema (generator/mock/routes.ts), so the bin needs no generated
 * code. They must refuse exactly what the generated all-errors validators
 * refuse: on every strict-tier case of the fixture suite for each request
 * body component, same verdict and the same issues (path and keyword).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mantyxDocument } from "../../generator/mock/artefacts.js";
import { routesOf } from "../../generator/mock/routes.js";
import { validateRunCreateRequestAllErrors } from "../../generated/validators/run-create-request.all-errors.js";
import { validateRunFeedbackRequestAllErrors } from "../../generated/validators/run-feedback-request.all-errors.js";
import { validateSessionCreateRequestAllErrors } from "../../generated/validators/session-create-request.all-errors.js";
import { validateSessionMessageRequestAllErrors } from "../../generated/validators/session-message-request.all-errors.js";
import { validateToolResultRequestAllErrors } from "../../generated/validators/tool-result-request.all-errors.js";

const GENERATED = {
  RunCreateRequest: validateRunCreateRequestAllErrors,
  RunFeedbackRequest: validateRunFeedbackRequestAllErrors,
  SessionCreateRequest: validateSessionCreateRequestAllErrors,
  SessionMessageRequest: validateSessionMessageRequestAllErrors,
  ToolResultRequest: validateToolResultRequestAllErrors,
} as const;

const routes = routesOf(mantyxDocument());

describe("the mock's body checks agree with the generated all-errors validators", () => {
  it("covers every request body component of the schema", () => {
    expect(new Set(routes.flatMap((r) => (r.bodyComponent === undefined ? [] : [r.bodyComponent])))).toEqual(
      new Set(Object.keys(GENERATED)),
    );
  });

  for (const [name, generated] of Object.entries(GENERATED)) {
    it(`${name}: every strict case of the suite, same verdict and issues`, () => {
      const route = routes.find((r) => r.bodyComponent === name)!;
      const groups = JSON.parse(
        readFileSync(new URL(`../../generated/fixtures/messages/${name}.json`, import.meta.url), "utf8"),
      ) as Array<{ tests: Array<{ description: string; tier: string; data: unknown; valid: boolean }> }>;
      let compared = 0;
      let refused = 0;
      for (const test of groups.flatMap((g) => g.tests).filter((t) => t.tier === "strict")) {
        const mine = route.check(test.data);
        const valid = generated(test.data);
        const theirs = valid
          ? []
          : (generated.errors ?? [])
              .filter((e) => e.keyword !== "if")
              .map((e) => ({ path: e.instancePath, rule: e.keyword }));
        expect(
          mine.map((i) => ({ path: i.path, rule: i.rule })),
          test.description,
        ).toEqual(theirs);
        expect(mine.length === 0, test.description).toBe(test.valid);
        compared++;
        if (!valid) refused++;
      }
      expect(compared).toBeGreaterThan(0);
      if (name !== "RunFeedbackRequest") expect(refused).toBeGreaterThan(0);
    });
  }
});
