/**
 * The MANTYX schema generates without a single diagnostic. For documents
 * written elsewhere the generator is tolerant (an unknown keyword is an
 * annotation with a warning, OpenAPI 3.0's `nullable` is read as meant):
 * for this repository's own schema any of those is a mistake, and fails here.
 */
import { expect, test } from "vitest";
import { EMITTERS } from "../../generator/emit/index.js";
import { cli, REPO, tempDir } from "./support.js";

test("gen of schema/openapi.yaml prints no warning, info or error", async () => {
  const run = await cli(["gen", "--schema", "schema/openapi.yaml", "--out", tempDir()], REPO, EMITTERS);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
}, 60_000);
