/**
 * A document whose schemas are all inline (no `components.schemas`, as
 * ReadMe's own API description and many small ones are): the types file has
 * no declaration, and must still be a module, or the client's
 * `import type * as T from "./types.js"` fails under bundler resolution
 * (TS2306 "is not a module"; NodeNext alone treats it as one). And an
 * operation without `responses` (optional since 3.1) was documented as
 * answering "." (an empty list).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { EMITTERS } from "../../../generator/emit/index.js";
import { cli, REPO, runtimeFor, tempDir, writeTree } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const SCHEMA = `openapi: 3.1.0
info: { title: Inline only, version: "1" }
paths:
  /notes/{id}:
    get:
      operationId: getNote
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        "200":
          description: the note
          content:
            application/json:
              schema:
                type: object
                required: [text]
                properties:
                  text: { type: string }
    # OpenAPI 3.1 made responses optional (ReadMe's examples leave it out).
    delete:
      operationId: deleteNote
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
`;

test.each(["bundler", "NodeNext"] as const)(
  "with no component schemas the output passes tsc --strict (%s resolution)",
  async (resolution) => {
    const dir = writeTree({ "inline.yaml": SCHEMA });
    const root = tempDir();
    const out = path.join(root, "gen");
    const runtime = runtimeFor(out);
    const run = await cli(
      ["gen", "--schema", path.join(dir, "inline.yaml"), "--out", out, "--runtime", runtime],
      REPO,
      EMITTERS,
    );
    expect(run.stderr).not.toMatch(/^error/m);
    expect(run.code).toBe(0);
    expect(tsc(writeStrictProject(root, { include: ["gen/**/*.ts"], resolution }))).toBe("");
  },
  60_000,
);

test("an operation without responses is documented without an empty list of answers", async () => {
  const dir = writeTree({ "inline.yaml": SCHEMA });
  const out = tempDir();
  const runtime = runtimeFor(out);
  expect(
    (await cli(["gen", "--schema", path.join(dir, "inline.yaml"), "--out", out, "--runtime", runtime], REPO, EMITTERS))
      .code,
  ).toBe(0);
  const client = readFileSync(path.join(out, "client.ts"), "utf8");
  expect(client).toContain("* `DELETE /notes/{id}`.\n");
  expect(client).toContain("* `GET /notes/{id}`; answers 200.\n");
});
