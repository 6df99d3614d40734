/**
 * Recursive schemas (through `properties`, `items`, `oneOf` branches that
 * descend into the value, mutual recursion, one with no finite instance)
 * are ordinary JSON Schema: every emitter turns them into output, none
 * recurses without end. Only a `$ref` cycle back to the same value is an
 * error (test/generator/broken/ref-cycle*.yaml).
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { EMITTERS } from "../../generator/emit/index.js";
import { RUNTIME_URL } from "../validators/support/emitted.js";
import { cli, emittedValidator, REPO, tempDir } from "./support.js";

const RECURSIVE = `    TreeNode:
      type: object
      required: [name]
      properties:
        name: { type: string }
        children:
          type: array
          items: { $ref: "#/components/schemas/TreeNode" }
      additionalProperties: false
      examples:
        - {"name": "root", "children": [{"name": "leaf", "children": []}]}
    Ping:
      type: object
      properties:
        pong: { $ref: "#/components/schemas/Pong" }
    Pong:
      type: object
      properties:
        ping: { $ref: "#/components/schemas/Ping" }
    Expr:
      oneOf:
        - type: number
        - type: object
          required: [op, args]
          properties:
            op: { enum: [add, mul] }
            args: { type: array, items: { $ref: "#/components/schemas/Expr" } }
    Endless:
      description: No finite value matches (next is required all the way down).
      type: object
      required: [next]
      properties:
        next: { $ref: "#/components/schemas/Endless" }
`;

test("the real schema plus recursive components: every emitter succeeds, and the output recurses as the schema does", {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  cpSync(path.join(REPO, "schema/cases"), path.join(dir, "cases"), { recursive: true });
  const schema = readFileSync(path.join(REPO, "schema/openapi.yaml"), "utf8").replace(
    "    KnownAgentRunEvent:\n",
    `${RECURSIVE}    KnownAgentRunEvent:\n`,
  );
  writeFileSync(path.join(dir, "openapi.yaml"), schema);
  const out = path.join(dir, "out");
  // Every emitter (the default list), generated code importing the runtime from this repository.
  const run = await cli(["gen", "--schema", "openapi.yaml", "--out", out, "--runtime", RUNTIME_URL], dir, EMITTERS);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);

  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  expect(types).toMatch(/export interface TreeNode \{[^}]*children\?: TreeNode\[\];/);
  expect(types).toMatch(/export interface Ping \{[^}]*pong\?: Pong;/);
  expect(types).toMatch(/export type Expr = number \| \{ op: "add" \| "mul"; args: Expr\[\];/);

  const validateTreeNode = await emittedValidator(out, "TreeNode");
  expect(validateTreeNode!({ name: "a", children: [{ name: "b", children: [{ name: "c" }] }] })).toBe(true);
  expect(validateTreeNode!({ name: "a", children: [{ name: "b", children: [{ name: 3 }] }] })).toBe(false);
  const validateExpr = await emittedValidator(out, "Expr");
  expect(validateExpr!({ op: "add", args: [1, { op: "mul", args: [2, 3] }] })).toBe(true);
  expect(validateExpr!({ op: "add", args: [1, { op: "sub", args: [] }] })).toBe(false);
});
