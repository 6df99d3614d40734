/**
 * The corpus of broken schemas (test/generator/broken/): each one, run
 * through the real CLI, fails with exit code 2 and one typed error: its
 * code, the place (`file:line:col`, the file to edit), what is wrong and a
 * fix. Never "internal error", never a stack trace (without --debug), and
 * never a line of a file the user did not write into the schema's folder.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { openApiJsonEmitter } from "../../generator/emit/index.js";
import { typesEmitter } from "../../generator/emit/types.js";
import { validatorsEmitter } from "../../generator/emit/validators.js";
import { builtBin, cli, REPO, tempDir } from "./support.js";

const BROKEN = path.join(REPO, "test/generator/broken");
/** Loading plus the emitters that judge component schemas and operations (the fixtures emitter needs a cases folder). */
const EMITTERS = [openApiJsonEmitter, typesEmitter, validatorsEmitter];

interface Case {
  /** Schema path relative to test/generator/broken/, and extra CLI arguments. */
  readonly schema: string;
  readonly args?: readonly string[];
  readonly code: string;
  /** `file:line:col` as printed (file relative to the corpus folder), or the file alone when there is no position. */
  readonly at: string;
  readonly message: RegExp;
  readonly fix: RegExp;
  /** Text that must not appear anywhere in the output (content of files the user did not write). */
  readonly never?: readonly string[];
}

/* Corpus files are checked below to be all in this table. */
const CASES: readonly Case[] = [
  // YAML and JSON syntax
  {
    schema: "yaml-unclosed-flow.yaml",
    code: "yaml-syntax",
    at: "yaml-unclosed-flow.yaml:9:5",
    message: /invalid YAML \(BAD_INDENT\)/,
    fix: /unclosed brackets/,
  },
  {
    schema: "yaml-duplicate-key.yaml",
    code: "yaml-syntax",
    at: "yaml-duplicate-key.yaml:8:7",
    message: /DUPLICATE_KEY/,
    fix: /two keys/,
  },
  {
    schema: "yaml-tab-indent.yaml",
    code: "yaml-syntax",
    at: "yaml-tab-indent.yaml:7:1",
    message: /TAB_AS_INDENT/,
    fix: /spaces/,
  },
  {
    schema: "json-trailing-comma.json",
    code: "yaml-syntax",
    at: "json-trailing-comma.json:4:1",
    message: /invalid JSON at line 4, column 1\./,
    fix: /trailing comma/,
    never: ["is not valid JSON"],
  },
  { schema: "empty.json", code: "yaml-syntax", at: "empty.json", message: /the file is empty/, fix: /JSON syntax/ },
  {
    schema: "yaml-alias-bomb.yaml",
    code: "yaml-aliases",
    at: "yaml-alias-bomb.yaml:6:10",
    message: /expand to more than 1000 copies: refused before expanding them/,
    fix: /\$ref to a named schema/,
  },
  // Not an OpenAPI 3.1 document, not JSON Schema 2020-12
  {
    schema: "not-a-mapping.yaml",
    code: "not-openapi-31",
    at: "not-a-mapping.yaml:1:1",
    message: /not a mapping/,
    fix: /openapi: 3\.1\.0/,
  },
  {
    schema: "swagger-20.yaml",
    code: "not-openapi-31",
    at: "swagger-20.yaml:1:1",
    message: /Swagger "2\.0" \(OpenAPI 2\.0\) document; the generator reads OpenAPI 3\.0, 3\.1 and 3\.2/,
    fix: /npx swagger2openapi/,
  },
  // OpenAPI 3.0 is read as 3.1 (generator/load/openapi-30/); a problem in a schema that reading moves is at its line as written.
  {
    schema: "openapi-30.yaml",
    code: "invalid-json-schema",
    at: "openapi-30.yaml:13:29",
    message: /"type" is "strnig"/,
    fix: /Did you mean "string"\?/,
  },
  {
    schema: "type-typo.yaml",
    code: "invalid-json-schema",
    at: "type-typo.yaml:10:17",
    message: /"type" is "strnig"/,
    fix: /Did you mean "string"\?/,
  },
  {
    schema: "unknown-keyword.yaml",
    code: "invalid-json-schema",
    at: "unknown-keyword.yaml:8:7",
    message: /unknown keyword "maxLenght"/,
    fix: /Did you mean "maxLength"\?/,
  },
  {
    schema: "bad-pattern.yaml",
    code: "invalid-json-schema",
    at: "bad-pattern.yaml:8:16",
    message: /not a valid regular expression/,
    fix: /`u` flag/,
  },
  {
    schema: "bad-vendor-keyword.yaml",
    code: "invalid-json-schema",
    at: "bad-vendor-keyword.yaml:8:25",
    message: /"x-max-utf8-bytes": value must be integer/,
    fix: /mantyx-wire keywords/,
  },
  // References
  {
    schema: "dangling-ref.yaml",
    code: "dangling-ref",
    at: "dangling-ref.yaml:11:17",
    message: /"#\/components\/schemas\/Tol" does not resolve/,
    fix: /Did you mean "#\/components\/schemas\/Tool"\?/,
  },
  {
    schema: "ref-not-a-pointer.yaml",
    code: "dangling-ref",
    at: "ref-not-a-pointer.yaml:7:13",
    message: /"#Tool" is not an internal JSON pointer/,
    fix: /#\/components\/schemas\/Name/,
  },
  {
    schema: "ref-missing-file.yaml",
    code: "dangling-ref",
    at: "ref-missing-file.yaml:7:13",
    message: /names a file that cannot be read \(cannot read the schema: no such file\)/,
    fix: /relative to the file/,
  },
  {
    schema: "ref-bad-percent.yaml",
    code: "dangling-ref",
    at: "ref-bad-percent.yaml:7:13",
    message: /not a valid URI reference/,
    fix: /%25/,
  },
  {
    schema: "ref-url.yaml",
    code: "dangling-ref",
    at: "ref-url.yaml:7:13",
    message: /points at a URL; the generator works offline/,
    fix: /Copy the referenced schema/,
  },
  {
    schema: "ref-cycle.yaml",
    code: "ref-cycle",
    at: "ref-cycle.yaml:7:13",
    message:
      /#\/components\/schemas\/A -> #\/components\/schemas\/B, #\/components\/schemas\/B -> #\/components\/schemas\/A/,
    fix: /Recursion must go through a part of the value/,
  },
  {
    schema: "ref-cycle-self.yaml",
    code: "ref-cycle",
    at: "ref-cycle-self.yaml:8:13",
    message: /#\/components\/schemas\/A -> #\/components\/schemas\/A\./,
    fix: /must end in a schema/,
  },
  {
    schema: "ref-cycle-combinators.yaml",
    code: "ref-cycle",
    at: "ref-cycle-combinators.yaml:9:17",
    message:
      /A\/allOf\/1 -> #\/components\/schemas\/B, #\/components\/schemas\/B\/anyOf\/1 -> #\/components\/schemas\/A/,
    fix: /properties, items/,
  },
  {
    schema: "ref-cycle-subschema.yaml",
    code: "ref-cycle",
    at: "ref-cycle-subschema.yaml:10:17",
    message: /A\/properties\/k -> #\/components\/schemas\/A\/properties\/k\./,
    fix: /must end in a schema/,
  },
  {
    schema: "ref-cycle-files/openapi.yaml",
    code: "ref-cycle",
    at: "ref-cycle-files/a.yaml:4:13",
    message: /cycle that never looks into the value/,
    fix: /must end in a schema/,
  },
  {
    schema: "ref-cycle-inline/openapi.yaml",
    code: "ref-cycle",
    at: "ref-cycle-inline/node.yaml:4:11",
    message: /"\.\/node\.yaml" includes itself/,
    fix: /components\.schemas \(or \$defs\)/,
  },
  {
    schema: "ref-bundle-collision/openapi.yaml",
    code: "name-collision",
    at: "ref-bundle-collision/openapi.yaml:9:13",
    message: /would be bundled as components\.schemas\.Name, but a different schema already has that name/,
    fix: /Rename one/,
  },
  // Files outside the schema's folder are refused before they are read
  {
    schema: "ref-etc-passwd.yaml",
    code: "ref-outside-root",
    at: "ref-etc-passwd.yaml:7:13",
    message: /"\/etc\/passwd" names a file outside the schema root "\.\/"; it was not read/,
    fix: /--root <dir>/,
    never: ["root:x:0"],
  },
  {
    schema: "ref-parent-secret/schema/openapi.yaml",
    code: "ref-outside-root",
    at: "ref-parent-secret/schema/openapi.yaml:7:13",
    message:
      /"\.\.\/\.\.\/secret\.json#\/components\/schemas\/A" names a file outside the schema root "ref-parent-secret\/schema\/"/,
    fix: /--root/,
  },
  {
    schema: "wider-root/schema/openapi.yaml",
    code: "ref-outside-root",
    at: "wider-root/schema/openapi.yaml:7:13",
    message: /outside the schema root/,
    fix: /--root/,
    never: ["hunter2"],
  },
  {
    schema: "ref-proc-environ.yaml",
    code: "ref-outside-root",
    at: "ref-proc-environ.yaml:7:13",
    message: /outside the schema root/,
    fix: /--root/,
  },
  // A wider root lets the file be read, but a broken file there is never quoted; a non-schema file is never read
  {
    schema: "wider-root/schema/openapi.yaml",
    args: ["--root", "wider-root"],
    code: "yaml-syntax",
    at: "wider-root/shared/secret.json:4:1",
    message: /invalid JSON at line 4, column 1\./,
    fix: /JSON syntax/,
    never: ["hunter2", '"password"', "| "],
  },
  {
    schema: "ref-proc-environ.yaml",
    args: ["--root", "/"],
    code: "dangling-ref",
    at: "ref-proc-environ.yaml:7:13",
    message: /not a schema file: the generator reads only \.yaml, \.yml, \.json files/,
    fix: /file path/,
  },
  {
    schema: "wider-root/schema/openapi.yaml",
    args: ["--root", "ref-cycle-files"],
    code: "ref-outside-root",
    at: "wider-root/schema/openapi.yaml",
    message: /the schema is outside the --root folder "ref-cycle-files"/,
    fix: /--root that contains the schema/,
  },
  // Discriminated unions and the lists derived from them
  {
    schema: "discriminator-wrong-const.yaml",
    code: "bad-discriminator",
    at: "discriminator-wrong-const.yaml:24:17",
    message: /mapping "beta" -> "#\/components\/schemas\/Alpha", but that schema's "kind" is "alpha"/,
    fix: /properties\.kind\.const is "beta"/,
  },
  {
    schema: "discriminator-missing-component.yaml",
    code: "dangling-ref",
    at: "discriminator-missing-component.yaml:24:17",
    message: /discriminator mapping "#\/components\/schemas\/Betta" does not resolve/,
    fix: /Did you mean "#\/components\/schemas\/Beta"\?/,
  },
  {
    schema: "discriminator-not-in-oneof.yaml",
    code: "bad-discriminator",
    at: "discriminator-not-in-oneof.yaml:23:17",
    message: /"beta" -> "#\/components\/schemas\/Beta" is not one of the oneOf branches/,
    fix: /Add `- \$ref: "#\/components\/schemas\/Beta"` to the oneOf/,
  },
  {
    schema: "discriminator-unmapped-branch.yaml",
    code: "bad-discriminator",
    at: "discriminator-unmapped-branch.yaml:19:11",
    message:
      /oneOf branch "#\/components\/schemas\/Beta" is missing from the discriminator mapping \(its "kind" is "beta"\)/,
    fix: /Add `beta: "#\/components\/schemas\/Beta"`/,
  },
  {
    schema: "discriminator-branch-without-tag.yaml",
    code: "unsupported-schema",
    at: "discriminator-branch-without-tag.yaml:23:11",
    message: /branch 1 has no value for its tag "kind"/,
    fix: /properties: \{ kind: \{ const/,
  },
  {
    schema: "event-lists-disagree.yaml",
    code: "disagreeing-lists",
    at: "event-lists-disagree.yaml:31:19",
    message:
      /"#\/components\/schemas\/Unknown\/properties\/kind\/not\/enum" disagrees with the discriminator mapping of "#\/components\/schemas\/Known": it lacks "beta"/,
    fix: /x-enum-from-mapping: "#\/components\/schemas\/Known"/,
  },
  {
    schema: "enum-from-mapping-not-a-union.yaml",
    code: "invalid-json-schema",
    at: "enum-from-mapping-not-a-union.yaml:21:34",
    message: /is not a oneOf with a non-empty discriminator\.mapping/,
    fix: /KnownAgentRunEvent/,
  },
  {
    schema: "enum-from-mapping-beside-enum.yaml",
    code: "invalid-json-schema",
    at: "enum-from-mapping-beside-enum.yaml:31:34",
    message: /stands beside an `enum`/,
    fix: /Remove the hand-written `enum`/,
  },
  {
    schema: "enum-from-mapping-dangling.yaml",
    code: "dangling-ref",
    at: "enum-from-mapping-dangling.yaml:30:34",
    message: /"#\/components\/schemas\/Knwn" does not resolve/,
    fix: /existing union/,
  },
  // What the emitters cannot express, located in the file
];

/** A line of a JavaScript stack trace. */
const STACK_LINE = /^\s+at .*(?:\(|\s)\/?[^\s]*:\d+:\d+\)?$/m;

function expectOneTypedError(output: string, c: Case): void {
  expect(output).toMatch(new RegExp(`^error\\[${c.code}\\]: `));
  expect(output).toContain(`--> ${c.at}`);
  if (/:\d+:\d+$/.test(c.at))
    expect(output).not.toMatch(new RegExp(`--> ${c.at.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\d`)); // exactly that column
  expect(output).toMatch(c.message);
  expect(output).toMatch(/\n {2}fix: /);
  expect(output).toMatch(c.fix);
  expect(output).not.toMatch(/internal error/i);
  expect(output).not.toMatch(STACK_LINE);
  for (const text of c.never ?? []) expect(output).not.toContain(text);
}

describe("every schema of the corpus fails with one typed, located error (runCli)", () => {
  test.each(CASES.map((c) => [`${c.schema}${c.args ? ` ${c.args.join(" ")}` : ""}`, c] as const))(
    "%s",
    async (_label, c) => {
      const run = await cli(["gen", "--schema", c.schema, "--out", tempDir(), ...(c.args ?? [])], BROKEN, EMITTERS);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expectOneTypedError(run.stderr, c);
    },
  );

  test("every schema file of the corpus is in the table", async () => {
    const { readdirSync } = await import("node:fs");
    const roots = readdirSync(BROKEN, { recursive: true, encoding: "utf8" })
      .map((file) => file.split(path.sep).join("/"))
      .filter((file) => /\.(ya?ml|json)$/.test(file) && (!file.includes("/") || /(^|\/)openapi\.yaml$/.test(file)));
    expect(new Set(CASES.map((c) => c.schema))).toEqual(new Set(roots));
  });

  test("--debug adds the stack, so the cases above really print none", async () => {
    const run = await cli(["gen", "--schema", "ref-cycle.yaml", "--out", tempDir(), "--debug"], BROKEN, EMITTERS);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(STACK_LINE);
  });
});

test("names the naming rule accepts (an underscore, a leading digit) generate validators (their module names pass the portability check)", async () => {
  const run = await cli(
    ["gen", "--schema", path.join(REPO, "test/generator/fixtures/odd-names.yaml"), "--out", tempDir()],
    BROKEN,
    EMITTERS,
  );
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
});

describe("through the published command (the built mantyx-wire.js, every emitter, a child process)", () => {
  const THROUGH_BIN = [
    "yaml-alias-bomb.yaml",
    "ref-etc-passwd.yaml",
    "ref-cycle-files/openapi.yaml",
    "discriminator-wrong-const.yaml",
    "type-typo.yaml",
  ];
  test.each(THROUGH_BIN)("%s", (schema) => {
    const c = CASES.find((entry) => entry.schema === schema)!;
    const run = spawnSync(process.execPath, [builtBin(), "gen", "--schema", schema, "--out", tempDir()], {
      cwd: BROKEN,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expectOneTypedError(run.stderr, c);
  });
});
