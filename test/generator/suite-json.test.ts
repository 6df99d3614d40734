/**
 * The fixture files' layout (generator/emit/fixtures/suite-json.ts): the
 * engine's JSON.stringify with one-line values put back in place of their
 * placeholders gives the same text as the walk it replaced, also for a
 * document whose own strings spell a placeholder.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { suiteJson, suiteJsonByWalk } from "../../generator/emit/fixtures/suite-json.js";
import { REPO } from "./support.js";

const FIXTURES = path.join(REPO, "generated/fixtures");

describe("fixture file text", () => {
  test("every committed case file is laid out as suiteJson writes it, and as the walk does", () => {
    const files = readdirSync(FIXTURES, { recursive: true, encoding: "utf8" }).filter(
      (f) => f.endsWith(".json") && f !== "manifest.json",
    );
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const text = readFileSync(path.join(FIXTURES, file), "utf8");
      const value: unknown = JSON.parse(text);
      expect(`${suiteJson(value)}\n`, file).toBe(text);
      expect(suiteJsonByWalk(value), file).toBe(suiteJson(value));
    }
  });

  test("one-line keys at any depth, SSE messages, empty containers, undefined entries", () => {
    const value = {
      a: { data: { x: [1, { y: 2 }] }, b: [], c: {}, d: undefined },
      messages: [{ event: "e", data: "d" }, { id: "1" }],
      tags: ["x-a"],
      n: [{ headers: { k: "v" } }],
    };
    expect(suiteJson(value)).toBe(suiteJsonByWalk(value));
    expect(suiteJson(value)).toContain('"data": {"x":[1,{"y":2}]}');
  });

  test("a string that spells a placeholder: the walk writes the file", () => {
    const value = { description: "\u0000one-line 0", data: { a: 1 } };
    expect(suiteJson(value)).toBe(suiteJsonByWalk(value));
    expect(JSON.parse(suiteJson(value))).toEqual(value);
  });
});
