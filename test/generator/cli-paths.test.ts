/**
 * `mantyx-wire gen` run as a user runs it: the built bin in a child
 * process, from temporary folders outside the repository, with relative and
 * absolute `--schema`/`--out`. The cases folder is found beside the schema
 * file, never from the current directory, and the output (headers included)
 * does not depend on the directory the command runs from.
 *
 * Header path rule (generator/load/source-path.ts): the schema's path
 * relative to the nearest folder with a package.json, else its file name.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { builtBin, readTree, REPO, tempDir } from "./support.js";

const BIN = builtBin();
/** This repository's generated/ imports the runtime relatively; runs compared with it do too. */
const RUNTIME = ["--runtime", "../runtime/codegen/v1.js"];
const GENERATED = path.join(REPO, "generated");
const SLOW = 180_000;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `node mantyx-wire.js ...args` (the built bin) in `cwd`. */
async function mantyxWire(args: readonly string[], cwd: string): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [BIN, ...args, ...(args[0] === "gen" ? RUNTIME : [])],
      { cwd, encoding: "utf8" },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function expectSameTree(actual: ReadonlyMap<string, string>, expected: ReadonlyMap<string, string>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  const differing = [...expected].filter(([file, contents]) => actual.get(file) !== contents).map(([file]) => file);
  expect(differing).toEqual([]);
}

/** Copy the repository's schema folder (openapi.yaml and, unless `cases` is false, cases/) to `dir`. */
function copySchema(dir: string, cases = true): void {
  mkdirSync(dir, { recursive: true });
  cpSync(path.join(REPO, "schema/openapi.yaml"), path.join(dir, "openapi.yaml"));
  if (cases) cpSync(path.join(REPO, "schema/cases"), path.join(dir, "cases"), { recursive: true });
}

function expectReportedError(run: Run, code: string): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain(`error[${code}]`);
  expect(run.stderr).not.toContain("internal error");
  expect(run.stderr).not.toContain("This is a bug");
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
}

let repoTree: Map<string, string>;
beforeAll(() => {
  repoTree = readTree(GENERATED);
});

describe("mantyx-wire gen from outside the repository", () => {
  test(
    "the schema inside node_modules/@mantyx/wire-types/schema/, run from the app folder: the repo's generated/ byte for byte",
    async () => {
      const root = tempDir();
      const pkg = path.join(root, "app/node_modules/@mantyx/wire-types");
      copySchema(path.join(pkg, "schema"));
      cpSync(path.join(REPO, "package.json"), path.join(pkg, "package.json"));
      writeFileSync(path.join(root, "app/package.json"), '{ "name": "app", "private": true }\n');
      const run = await mantyxWire(
        ["gen", "--schema", "node_modules/@mantyx/wire-types/schema/openapi.yaml", "--out", "../gen-out"],
        path.join(root, "app"),
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^mantyx-wire gen: \d+ files in \.\.\/gen-out\/ /);
      // The header names the schema relative to its package: schema/openapi.yaml, as in the repo.
      expectSameTree(readTree(path.join(root, "gen-out")), repoTree);
    },
    SLOW,
  );

  describe("a project with its schema and cases/ in specs/", () => {
    let root: string;
    let rootRun: Run;
    let fromRoot: Map<string, string>;
    beforeAll(async () => {
      root = tempDir();
      writeFileSync(path.join(root, "package.json"), '{ "name": "project", "private": true }\n');
      copySchema(path.join(root, "specs"));
      mkdirSync(path.join(root, "elsewhere"));
      rootRun = await mantyxWire(["gen", "--schema", "specs/openapi.yaml", "--out", "out-root"], root);
      fromRoot = readTree(path.join(root, "out-root"));
    }, SLOW);

    test(
      "run from the project root with relative paths; the header names specs/openapi.yaml, otherwise the repo's output",
      () => {
        expect(rootRun.stderr).toBe("");
        expect(rootRun.code).toBe(0);
        expect([...fromRoot.keys()]).toEqual([...repoTree.keys()]);
        expect(fromRoot.get("types.ts")!.split("\n")[0]).toMatch(
          / from specs\/openapi\.yaml sha256:[0-9a-f]{64}\. DO NOT EDIT\.$/,
        );
        // Only the schema's label differs; README.md and fixtures/manifest.json also list hashes of files holding it.
        const label = (text: string): string => text.replaceAll("specs/openapi.yaml", "schema/openapi.yaml");
        const differing = [...repoTree]
          .filter(([file]) => file !== "README.md" && file !== "fixtures/manifest.json")
          .filter(([file, contents]) => label(fromRoot.get(file)!) !== contents)
          .map(([file]) => file);
        expect(differing).toEqual([]);
      },
      SLOW,
    );

    test(
      "run from inside specs/ (--schema openapi.yaml) and from another folder with absolute paths: the same bytes",
      async () => {
        const inside = await mantyxWire(
          ["gen", "--schema", "openapi.yaml", "--out", "../out-specs"],
          path.join(root, "specs"),
        );
        expect(inside.stderr).toBe("");
        expect(inside.code).toBe(0);
        expectSameTree(readTree(path.join(root, "out-specs")), fromRoot);

        const absolute = await mantyxWire(
          ["gen", "--schema", path.join(root, "specs/openapi.yaml"), "--out", path.join(root, "out-abs")],
          path.join(root, "elsewhere"),
        );
        expect(absolute.stderr).toBe("");
        expect(absolute.code).toBe(0);
        expectSameTree(readTree(path.join(root, "out-abs")), fromRoot);
      },
      SLOW,
    );

    test(
      "--check from another folder: up to date (exit 0), then an edited file is stale (exit 1) and nothing is written",
      async () => {
        const fresh = await mantyxWire(
          ["gen", "--check", "--schema", "openapi.yaml", "--out", "../out-root"],
          path.join(root, "specs"),
        );
        expect(fresh.stderr).toBe("");
        expect(fresh.stdout).toMatch(
          /^mantyx-wire gen --check: \.\.\/out-root\/ is up to date \(\d+ files, \d+ ms\)\n$/,
        );
        expect(fresh.code).toBe(0);

        const edited = path.join(root, "out-root/types.ts");
        writeFileSync(edited, `${fromRoot.get("types.ts")}// hand edit\n`);
        const stale = await mantyxWire(
          ["gen", "--check", "--schema", path.join(root, "specs/openapi.yaml"), "--out", "../out-root"],
          path.join(root, "elsewhere"),
        );
        expect(stale.code).toBe(1);
        expect(stale.stderr).toContain("  stale    ../out-root/types.ts\n");
        expect(stale.stderr).toContain(
          "Run `mantyx-wire gen --schema ../specs/openapi.yaml --out ../out-root --runtime ../runtime/codegen/v1.js`",
        );
        expect(readFileSync(edited, "utf8")).toBe(`${fromRoot.get("types.ts")}// hand edit\n`);
      },
      SLOW,
    );
  });

  test(
    "--check of the repo's own generated/ from a folder outside the repository, absolute paths: up to date",
    async () => {
      const run = await mantyxWire(
        ["gen", "--check", "--schema", path.join(REPO, "schema/openapi.yaml"), "--out", GENERATED],
        tempDir(),
      );
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain(" is up to date (");
      expect(run.code).toBe(0);
    },
    SLOW,
  );

  describe("a schema without a cases/ folder beside it", () => {
    test(
      "generates everything (exit 0), warning that the fixture suite has no hand-written cases, naming the expected folder and the fix",
      async () => {
        const root = tempDir();
        copySchema(path.join(root, "specs"), false);
        const run = await mantyxWire(["gen", "--schema", "openapi.yaml", "--out", "../out"], path.join(root, "specs"));
        expect(run.code).toBe(0);
        const expected = path.join(root, "specs", "cases");
        expect(run.stderr).toContain(`the suite has no hand-written cases: no folder ${expected}`);
        expect(run.stderr).toContain("node_modules/@mantyx/wire-types/schema/cases/");
        expect(run.stderr).toContain(`create the empty folder ${expected}`);
        expect(run.stderr).not.toContain("internal error");
        expect(existsSync(path.join(root, "out/client.ts"))).toBe(true);
      },
      SLOW,
    );

    test(
      "a file named cases is error[missing-cases] too; an empty cases/ folder generates the fixtures without hand-written cases",
      async () => {
        const root = tempDir();
        copySchema(path.join(root, "specs"), false);
        writeFileSync(path.join(root, "specs/cases"), "not a folder\n");
        const file = await mantyxWire(["gen", "--schema", "specs/openapi.yaml", "--out", "out"], root);
        expectReportedError(file, "missing-cases");
        expect(file.stderr).toContain("(that path is not a folder)");

        const empty = tempDir();
        copySchema(path.join(empty, "specs"), false);
        mkdirSync(path.join(empty, "specs/cases"));
        const run = await mantyxWire(["gen", "--schema", "specs/openapi.yaml", "--out", "out"], empty);
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        const out = readTree(path.join(empty, "out"));
        expect([...out.keys()]).toEqual([...repoTree.keys()]);
        const messages = [...out].filter(([name]) => name.startsWith("fixtures/messages/"));
        expect(messages.length).toBeGreaterThan(0);
        for (const [name, contents] of messages) expect(contents, name).not.toContain("hand-written cases");
        expect(
          [...repoTree].some(
            ([name, contents]) => name.startsWith("fixtures/messages/") && contents.includes("hand-written cases"),
          ),
        ).toBe(true);
      },
      SLOW,
    );

    test(
      "a malformed case file is error[invalid-cases] naming the file",
      async () => {
        const root = tempDir();
        copySchema(path.join(root, "specs"), false);
        mkdirSync(path.join(root, "specs/cases"));
        writeFileSync(path.join(root, "specs/cases/mine.yaml"), "description: not a list\n");
        const run = await mantyxWire(["gen", "--schema", "specs/openapi.yaml", "--out", "out"], root);
        expectReportedError(run, "invalid-cases");
        expect(run.stderr).toContain(
          `${path.join(root, "specs/cases/mine.yaml")}: a case file must be a YAML list of cases`,
        );
      },
      SLOW,
    );
  });
});
