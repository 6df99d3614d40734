/**
 * `mantyx-wire diff` through `runCli`, as a user or CI runs it: exit codes,
 * the table, `--format json`, `--fail-on`, the `--accept` allow-list, and
 * typed errors for unreadable documents and allow-lists. (The committed
 * baseline: baseline.test.ts.)
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { builtBin, cli, REPO, tempDir } from "../support.js";
import { baseDocument } from "./base-document.js";
import { applyPatch, type PatchOperation } from "./json-patch.js";

const NAME_MAX = "/components/schemas/ThingRequest/properties/name/maxLength";
const STATUS_ENUM = "/components/schemas/Thing/properties/status/enum";

/** Write the base document and a doctored copy as JSON files in a fresh folder; returns their paths. */
function pair(change: readonly PatchOperation[]): { dir: string; old: string; next: string } {
  const dir = tempDir();
  const old = path.join(dir, "old.json");
  const next = path.join(dir, "new.json");
  writeFileSync(old, JSON.stringify(baseDocument(), null, 2));
  writeFileSync(next, JSON.stringify(applyPatch(baseDocument(), change), null, 2));
  return { dir, old, next };
}

const CLIENT_BREAK: PatchOperation[] = [{ op: "replace", path: NAME_MAX, value: 50 }];
const READER_BREAK: PatchOperation[] = [{ op: "replace", path: STATUS_ENUM, value: ["active"] }];
const ADDITIVE: PatchOperation[] = [
  { op: "add", path: "/components/schemas/Thing/properties/color", value: { type: "string" } },
];

describe("mantyx-wire diff", () => {
  test("help lists the command and its options", async () => {
    const top = await cli(["--help"]);
    expect(top.stdout).toContain("diff [options] <old> <new>");
    const help = await cli(["diff", "--help"]);
    expect(help.code).toBe(0);
    for (const option of [
      "--format <format>",
      '"table"',
      '"json"',
      "--fail-on <direction>",
      '"any"',
      "--accept <file>",
      "--debug",
    ])
      expect(help.stdout).toContain(option);
  });

  test("a breaking change: exit 1 and a table with direction, kind, pointer and old -> new", async () => {
    const { dir } = pair(CLIENT_BREAK);
    const run = await cli(["diff", "old.json", "new.json"], dir);
    expect(run).toEqual({
      code: 1,
      stderr: "",
      stdout: [
        "mantyx-wire diff old.json -> new.json: 1 breaks-clients, 0 breaks-readers, 0 additive, 0 info",
        "",
        `direction       kind            ${"pointer".padEnd(NAME_MAX.length)}  old -> new`,
        `breaks-clients  limit-narrowed  ${NAME_MAX}  100 -> 50`,
        "",
        "1 breaking change (--fail-on any). Fix the schema, or, for a real change of the protocol, add it (pointer, direction, reason) to the accepted changes after review.",
        "",
      ].join("\n"),
    });
  });

  test("only additive changes: exit 0", async () => {
    const { dir } = pair(ADDITIVE);
    const run = await cli(["diff", "old.json", "new.json"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("0 breaks-clients, 0 breaks-readers, 1 additive, 0 info");
    expect(run.stdout).toContain("No breaking change.");
  });

  test("--format json lists every change with its values and route, the counts and the exit code", async () => {
    const { dir } = pair([...CLIENT_BREAK, ...ADDITIVE]);
    const run = await cli(["diff", "old.json", "new.json", "--format", "json"], dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      old: "old.json",
      new: "new.json",
      failOn: "any",
      exitCode: 1,
      counts: { "breaks-clients": 1, "breaks-readers": 0, additive: 1, info: 0 },
      failing: 1,
      changes: [
        {
          direction: "breaks-clients",
          kind: "limit-narrowed",
          pointer: NAME_MAX,
          old: 100,
          new: 50,
          via: "createThing request body",
        },
        {
          direction: "additive",
          kind: "property-added",
          pointer: "/components/schemas/Thing/properties/color",
          new: { type: "string" },
          via: "createThing response 201",
        },
      ],
      unusedAccepted: [],
    });
  });

  test("--fail-on picks the breaking directions that fail", async () => {
    const clients = pair(CLIENT_BREAK);
    expect((await cli(["diff", clients.old, clients.next, "--fail-on", "readers"])).code).toBe(0);
    expect((await cli(["diff", clients.old, clients.next, "--fail-on", "clients"])).code).toBe(1);
    const readers = pair(READER_BREAK);
    expect((await cli(["diff", readers.old, readers.next, "--fail-on", "clients"])).code).toBe(0);
    expect((await cli(["diff", readers.old, readers.next, "--fail-on", "readers"])).code).toBe(1);
    expect((await cli(["diff", readers.old, readers.next])).code).toBe(1);
  });

  test("--accept: a listed breaking change is shown as accepted and does not fail; an entry nothing matches is a warning", async () => {
    const { dir } = pair([...CLIENT_BREAK, ...READER_BREAK]);
    writeFileSync(
      path.join(dir, "accepted.json"),
      JSON.stringify({
        accepted: [
          { pointer: NAME_MAX, direction: "breaks-clients", reason: "names are shorter now" },
          { pointer: STATUS_ENUM, direction: "breaks-readers", kind: "enum-value-removed", reason: "ended is gone" },
          { pointer: "/components/schemas/Gone", direction: "breaks-clients", reason: "stale" },
        ],
      }),
    );
    const run = await cli(["diff", "old.json", "new.json", "--accept", "accepted.json"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^breaks-clients \(accepted\)\s+limit-narrowed\s/m);
    expect(run.stdout).toMatch(/^breaks-readers \(accepted\)\s+enum-value-removed\s/m);
    expect(run.stdout).toContain("No breaking change outside the 2 accepted.");
    expect(run.stderr).toBe(
      "warning: accepted change not found (remove it from the list, or fix its pointer): breaks-clients * /components/schemas/Gone\n",
    );
    const json = JSON.parse(
      (await cli(["diff", "old.json", "new.json", "--accept", "accepted.json", "--format", "json"], dir)).stdout,
    );
    expect(json.changes.map((change: { accepted?: string }) => change.accepted)).toEqual([
      "names are shorter now",
      "ended is gone",
    ]);
  });

  test("--accept matches pointer and direction (and kind when given), nothing looser", async () => {
    const { dir } = pair(CLIENT_BREAK);
    writeFileSync(
      path.join(dir, "accepted.json"),
      JSON.stringify({
        accepted: [
          { pointer: NAME_MAX, direction: "breaks-readers", reason: "wrong direction" },
          { pointer: NAME_MAX, direction: "breaks-clients", kind: "limit-added", reason: "wrong kind" },
        ],
      }),
    );
    const run = await cli(["diff", "old.json", "new.json", "--accept", "accepted.json"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(2);
  });

  test("an allow-list entry without a reason is a typed error naming file:line:col, exit 2", async () => {
    const { dir } = pair(CLIENT_BREAK);
    writeFileSync(
      path.join(dir, "accepted.json"),
      '{\n  "accepted": [\n    { "pointer": "/x", "direction": "breaks-clients" }\n  ]\n}\n',
    );
    const run = await cli(["diff", "old.json", "new.json", "--accept", "accepted.json"], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error[invalid-accepted-changes]");
    expect(run.stderr).toContain("--> accepted.json:3:5  at #/accepted/0");
    expect(run.stderr).toContain('"reason" must say why the change is accepted');
    expect(run.stderr).not.toContain("internal error");
  });

  test("an allow-list that accepts a non-breaking direction is refused", async () => {
    const { dir } = pair(CLIENT_BREAK);
    writeFileSync(
      path.join(dir, "accepted.json"),
      JSON.stringify({ accepted: [{ pointer: "/x", direction: "additive", reason: "r" }] }),
    );
    const run = await cli(["diff", "old.json", "new.json", "--accept", "accepted.json"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"direction" must be "breaks-clients" or "breaks-readers"');
  });

  test("a missing allow-list is a typed error about --accept, exit 2", async () => {
    const { dir } = pair(CLIENT_BREAK);
    const run = await cli(["diff", "old.json", "new.json", "--accept", "nope.json"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("cannot read the accepted changes: no such file");
    expect(run.stderr).toContain("--accept <file>");
  });

  test("a document that does not load is the loader's typed error with file:line:col, exit 2", async () => {
    const { dir } = pair(CLIENT_BREAK);
    writeFileSync(path.join(dir, "broken.yaml"), "openapi: 3.1.0\ninfo: [unclosed\n");
    const broken = await cli(["diff", "old.json", "broken.yaml"], dir);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(/error\[yaml-syntax\][\s\S]*--> broken\.yaml:\d+:\d+/);
    const dangling = JSON.stringify(
      applyPatch(baseDocument(), [
        {
          op: "replace",
          path: "/components/schemas/Thing/properties/tree",
          value: { $ref: "#/components/schemas/Nowhere" },
        },
      ]),
    );
    writeFileSync(path.join(dir, "dangling.json"), dangling);
    const run = await cli(["diff", "dangling.json", "new.json"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error[dangling-ref]");
    const missing = await cli(["diff", "old.json", "missing.yaml"], dir);
    expect([missing.code, missing.stderr.split("\n")[0]]).toEqual([2, "error[io]: 1 problem in the schema"]);
  });

  test("the built bin (the published @mantyx/wire-gen command) runs diff: exit 0 for no change, 1 for a breaking one", () => {
    const same = spawnSync(
      process.execPath,
      [builtBin(), "diff", "schema/baseline/2026-09.yaml", "schema/baseline/2026-09.yaml"],
      { cwd: REPO, encoding: "utf8" },
    );
    expect([same.status, same.stderr]).toEqual([0, ""]);
    expect(same.stdout).toContain("no changes");
    const { old, next } = pair(CLIENT_BREAK);
    const breaking = spawnSync(process.execPath, [builtBin(), "diff", old, next, "--format", "json"], {
      cwd: REPO,
      encoding: "utf8",
    });
    expect(breaking.status).toBe(1);
    expect(JSON.parse(breaking.stdout).failing).toBe(1);
  });

  test("OpenAPI 3.2 documents: the query method, additionalOperations and a JSON-lines itemSchema are followed", async () => {
    const doc = (item: string, extraOperation = ""): string =>
      [
        "openapi: 3.2.0",
        "info: { title: T, version: '1' }",
        "paths:",
        "  /items:",
        "    query:",
        "      operationId: queryItems",
        "      responses:",
        "        '200':",
        "          description: One item a line.",
        "          content:",
        "            application/jsonl:",
        "              itemSchema: { $ref: '#/components/schemas/Item' }",
        extraOperation,
        "components:",
        "  schemas:",
        `    Item: ${item}`,
        "",
      ].join("\n");
    const dir = tempDir();
    writeFileSync(path.join(dir, "old.yaml"), doc("{ type: object, properties: { id: { type: string } } }"));
    const purge = [
      "    additionalOperations:",
      "      PURGE:",
      "        operationId: purgeItems",
      "        responses: { '204': { description: Gone. } }",
    ].join("\n");
    writeFileSync(path.join(dir, "new.yaml"), doc("{ type: object, properties: {} }", purge));
    const run = await cli(["diff", "old.yaml", "new.yaml", "--format", "json"], dir);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).changes).toEqual([
      {
        direction: "breaks-readers",
        kind: "property-removed",
        pointer: "/components/schemas/Item/properties/id",
        old: { type: "string" },
        via: "queryItems application/jsonl items",
      },
      {
        direction: "additive",
        kind: "operation-added",
        pointer: "/paths/~1items/additionalOperations/PURGE",
        new: "PURGE /items",
        via: "purgeItems",
      },
    ]);
  });

  test("a bad option value is a usage error, exit 2", async () => {
    const { dir } = pair(CLIENT_BREAK);
    const run = await cli(["diff", "old.json", "new.json", "--format", "xml"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Allowed choices are table, json");
  });
});
