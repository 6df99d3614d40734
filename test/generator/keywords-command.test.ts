/**
 * `mantyx-wire keywords` prints every vendor keyword the validators know,
 * and no diagnostic sends a user of the bin to a file of this repository
 * (`schema/CONVENTIONS.md`): fixes point at `mantyx-wire keywords` or
 * `--help`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { annotationKeywords, assertingKeywords, keywordNames } from "../../generator/keywords/index.js";
import { cli, REPO } from "./support.js";

it("mantyx-wire keywords lists every vendor keyword, with the stream keywords and the naming rule", async () => {
  const run = await cli(["keywords"]);
  expect(run.code).toBe(0);
  const vendor = keywordNames([...assertingKeywords, ...annotationKeywords]).filter((k) => k.startsWith("x-"));
  expect(vendor.length).toBeGreaterThan(10);
  for (const keyword of [
    ...vendor,
    "x-sse-sentinel",
    "x-sse-resume",
    "x-stream-flag",
    "x-resume",
    "x-client-name",
    "itemSchema",
  ])
    expect(run.stdout).toMatch(new RegExp(`^  ${keyword} `, "m"));
  expect(run.stdout).toContain("Names:");
});

it("no message of the generator names schema/CONVENTIONS.md (outside comments and the generated files' own doc text)", () => {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (name === "node_modules" || name === "dist") continue;
      if (statSync(file).isDirectory()) walk(file);
      else if (file.endsWith(".ts")) files.push(file);
    }
  };
  walk(path.join(REPO, "generator"));
  const offending = files
    .filter((f) => !/(declarations|format-doc)\.ts$/.test(f))
    .flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => [f, i + 1, line] as const),
    )
    .filter(([, , line]) => /CONVENTIONS/.test(line) && !/^\s*(\*|\/\/|\/\*\*)/.test(line))
    .map(([f, n]) => `${path.relative(REPO, f)}:${n}`);
  expect(offending).toEqual([]);
});
