/**
 * What each README program bundles (bench/programs.ts, the programs the
 * bench's size rows measure): a program bundles the validators of the
 * operations it calls and no others, and the program without validation
 * bundles none (counted by module, from esbuild's metafile, not by size:
 * the sizes are the bench's); and each bundle, run against the mock
 * server, does what the README says.
 */
import { describe, expect, it, vi } from "vitest";
import { bundle, PROGRAM_OPTIONS, PROGRAMS, type ProgramName } from "../../bench/programs.js";
import { useMockServer } from "./helpers.js";

const server = useMockServer();

/** The generated validator modules in a bundle, by file name. */
const validatorsOf = (inputs: readonly string[]): string[] =>
  inputs.filter((i) => i.includes("generated/validators/")).map((i) => i.replace(/^.*generated\/validators\//, ""));

/** Every request body's validator module (what the all-in-one class imports). */
const BODIES = [
  "run-create-request",
  "run-feedback-request",
  "session-create-request",
  "session-message-request",
  "tool-result-request",
].map((b) => `${b}.all-errors.js`);

describe("README programs bundle what they call", () => {
  it("create-and-stream without validation bundles no validator, no operation table and no stream machinery it does not use", async () => {
    const { inputs } = await bundle(PROGRAMS.createAndStreamUnvalidated);
    expect(validatorsOf(inputs)).toEqual([]);
    expect(
      inputs.filter((i) =>
        /generated\/(client|events)\.ts$|runtime\/client\/(item-stream|pages|define|request-check)\.ts$|runtime\/jsonl\//.test(
          i,
        ),
      ),
    ).toEqual([]);
  });

  it("create-and-stream with default validation bundles createRun's body validator and the event receive level, and no other body's or the strict event validator", async () => {
    const found = validatorsOf((await bundle(PROGRAMS.createAndStream)).inputs);
    expect(found).toEqual(expect.arrayContaining(["run-create-request.all-errors.js", "agent-run-event.receive.js"]));
    expect(found.filter((f) => BODIES.includes(f) || f === "agent-run-event.js")).toEqual([
      "run-create-request.all-errors.js",
    ]);
  });

  it("runAgent on MantyxCore bundles the bodies it posts (run, tool result) and not the session ones", async () => {
    const found = validatorsOf((await bundle(PROGRAMS.runAgentWithTools)).inputs);
    expect(found.filter((f) => BODIES.includes(f)).sort()).toEqual([
      "run-create-request.all-errors.js",
      "tool-result-request.all-errors.js",
    ]);
  });

  it("the all-in-one class bundles every body validator (the convenient, bigger choice)", async () => {
    const found = validatorsOf((await bundle(PROGRAMS.createAndStreamClass)).inputs);
    expect(found.filter((f) => BODIES.includes(f)).sort()).toEqual(BODIES);
  });
});

describe("README programs, bundled, run", () => {
  const RUNS: Array<[ProgramName, string]> = [
    ["createAndStream", "result"],
    ["createAndStreamUnvalidated", "result"],
    ["createAndStreamClass", "result"],
    ["runAgentWithTools", "result"],
  ];
  for (const [name, last] of RUNS) {
    it(`${name}: streams a run to its terminal event`, async () => {
      const { code } = await bundle(PROGRAMS[name]);
      expect(code.length).toBe(1);
      const s = server();
      const source = code[0]!
        .replace(JSON.stringify(PROGRAM_OPTIONS.baseUrl), JSON.stringify(s.url))
        .replace(JSON.stringify(PROGRAM_OPTIONS.apiKey), JSON.stringify(s.apiKey));
      expect(source).not.toContain(PROGRAM_OPTIONS.baseUrl);
      const logged: unknown[] = [];
      const log = vi.spyOn(console, "log").mockImplementation((value: unknown) => void logged.push(value));
      try {
        await import(`data:text/javascript,${encodeURIComponent(source)}`);
      } finally {
        log.mockRestore();
      }
      const types = logged.map((v) => (typeof v === "string" ? v : (v as { type?: string }).type));
      expect(types.at(-1)).toBe(last);
      if (name !== "runAgentWithTools") expect(types.length).toBeGreaterThan(1);
    });
  }
});
