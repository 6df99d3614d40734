/**
 * Discriminated unions tagged the ways OpenAPI allows besides a `const` in
 * each branch (discriminator-implicit.yaml): by the component name (no
 * mapping), by a mapping to branches whose tag is any string (also a bare
 * component name), by a partial mapping, and by a `const` inside the
 * branch's `allOf`. `gen` exited 2 on each ("branch 0 has no value for its
 * tag", "that schema's const is undefined", "missing from the
 * discriminator mapping"). Now the types list the tags OpenAPI gives, and
 * the validators pick the branch by the tag as OpenAPI says: the same
 * object is valid as the branch its tag names and invalid under a tag no
 * branch has, where plain `oneOf` would reject every Cat and Dog (both
 * branches match any `petType`). A discriminator beside `allOf` or `anyOf`
 * made ajv refuse the schema ("discriminator: requires oneOf keyword").
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { beforeAll, expect, test } from "vitest";
import { genAll, REPO, tempDir } from "../support.js";

const SCHEMA = path.join(REPO, "test/generator/foreign/discriminator-implicit.yaml");
const out = tempDir();
type Validate = (data: unknown) => boolean;
let validators: Record<string, Validate>;

beforeAll(async () => {
  // One warning, by design (issue 24): the discriminator beside `Either`'s anyOf is left out of the validators.
  const run = await genAll(SCHEMA, out);
  expect(run.code).toBe(0);
  expect(run.stderr.match(/^(error|warning).*$/gm)).toEqual([
    expect.stringMatching(
      /^warning\[validators\]: discriminator-implicit\.yaml:\d+:\d+: this discriminator is left out of the validators: it stands beside an anyOf .*#\/components\/schemas\/Either\/discriminator\)$/,
    ),
  ]);
  validators = (await import(path.join(out, "validators/index.js"))) as Record<string, Validate>;
}, 60_000);

test("the tag lists are what OpenAPI gives each branch: its name, its mapping keys, its allOf const", () => {
  const types = readFileSync(path.join(out, "types.ts"), "utf8");
  const tags = (constant: string): unknown =>
    JSON.parse(
      /= (\[[^\]]*\]) as const/
        .exec(types.slice(types.indexOf(`export const ${constant} `)))![1]!
        .replace(/,\s*\]/, "]"),
    );
  expect(tags("PET_PET_TYPES")).toEqual(["Cat", "Dog"]);
  expect(tags("ANIMAL_PET_TYPES")).toEqual(["cat", "dog"]);
  expect(tags("CREATURE_PET_TYPES")).toEqual(["kitty", "Dog"]);
  expect(tags("SHAPE_KINDS")).toEqual(["circle", "square"]);
});

test.each([
  ["validatePet", { Cat: true, Dog: true, cat: false, Bird: false }],
  ["validateAnimal", { cat: true, dog: true, Cat: false, Dog: false }],
  ["validateCreature", { kitty: true, Dog: true, Cat: false, dog: false }],
])("%s picks the branch by its tag", (name, verdicts) => {
  for (const [petType, valid] of Object.entries(verdicts))
    expect([petType, validators[name]!({ petType, meows: true })]).toEqual([petType, valid]);
  // The tag is required (OpenAPI: the discriminator property is present).
  expect(validators[name]!({ meows: true })).toBe(false);
});

test("a branch component alone still takes any string as its tag (the union's tag is stated on the union's branch, not on Cat)", () => {
  expect(validators.validateCat!({ petType: "anything" })).toBe(true);
});

test("a tag stated in an allOf picks its branch", () => {
  expect(validators.validateShape!({ kind: "circle", radius: 1 })).toBe(true);
  expect(validators.validateShape!({ kind: "square", side: 2 })).toBe(true);
  expect(validators.validateShape!({ kind: "triangle" })).toBe(false);
});

test("a discriminator beside allOf or anyOf (no oneOf) is a hint: the schemas validate as JSON Schema says", () => {
  expect(validators.validateCar!({ vehicleType: "Car", doors: 4 })).toBe(true);
  expect(validators.validateCar!({ doors: 4 })).toBe(false);
  expect(validators.validateEither!({ petType: "Cat" })).toBe(true);
  expect(validators.validateEvent!({ discriminator: "x" })).toBe(true);
  expect(validators.validateEvent!({ discriminator: 1 })).toBe(false);
});
