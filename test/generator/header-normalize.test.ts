/**
 * Every emitted file gets `\n` line endings and exactly one trailing newline
 * (generator/header.ts): CRLF and lone CR become LF, any run of trailing
 * newlines becomes one, a file without one gets one.
 */
import { describe, expect, test } from "vitest";
import { finalizeFiles } from "../../generator/header.js";
import { loadSchema } from "../../generator/load/index.js";
import { MINI, REPO } from "./support.js";

describe("line endings of emitted files", () => {
  test.each([
    ["a\r\nb\rc\n\n\n", "a\nb\nc\n"],
    ["a\r\n\r\n", "a\n"],
    ["no newline", "no newline\n"],
    ["\n\n", "\n"],
    ["keeps\n\ninner blank lines\n", "keeps\n\ninner blank lines\n"],
  ])("%j -> %j", async (given, expected) => {
    const model = await loadSchema(MINI, { cwd: REPO });
    const files = finalizeFiles([{ emitter: "test", file: { path: "data.json", contents: given } }], model);
    expect(files.find((f) => f.path === "data.json")!.contents).toBe(expected);
  });
});
