/**
 * The components the received ones reach (generator/emit/validators/
 * reachable-components.ts): the only ones whose receive level is made for a
 * document without the fixture suite. Missing one would leave a `$ref` of a
 * receive-level validator unresolved; so would a schema found by `$id`.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { reachableComponents } from "../../generator/emit/validators/reachable-components.js";
import { receiveFile, receiveName } from "../../generator/emit/validators/names.js";
import { genQuietly, writeTree } from "../generator/support.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("reachableComponents", () => {
  const schemas = {
    Pet: { type: "object", properties: { owner: { $ref: "#/components/parameters/owner/schema" }, tag: ref("Tag") } },
    Tag: { type: "object", properties: { parent: { $ref: "#/components/schemas/Tag/properties/name" }, name: {} } },
    Owner: { type: "object", properties: { address: ref("Address") } },
    Address: { type: "string" },
    Shape: {
      oneOf: [ref("Circle"), ref("Square")],
      discriminator: { propertyName: "kind", mapping: { circle: "Circle", square: "#/components/schemas/Square" } },
    },
    Circle: { type: "object" },
    Square: { type: "object" },
    Alone: { type: "object", properties: { pet: ref("Pet") } },
  };
  const document = {
    components: { schemas, parameters: { owner: { name: "owner", in: "query", schema: ref("Owner") } } },
  };

  it("follows $refs, into places inside components and through schemas elsewhere in the document", () => {
    expect(reachableComponents(document, schemas, ["Pet"])).toEqual(["Address", "Owner", "Pet", "Tag"]);
  });

  it("follows discriminator mappings, by pointer and by a component's bare name", () => {
    expect(reachableComponents(document, schemas, ["Shape"])).toEqual(["Circle", "Shape", "Square"]);
  });

  it("reads schemas, not data or names: a `$ref` in an example, a property named `$id`", () => {
    const own = {
      ...schemas,
      Pet: { properties: { $id: { type: "string" } }, examples: [{ $ref: "#/components/schemas/Owner" }] },
    };
    expect(reachableComponents({ components: { schemas: own } }, own, ["Pet"])).toEqual(["Pet"]);
  });

  it("is every component's business only where a schema is found other than by pointer: then it cannot tell", () => {
    const by = (extra: Record<string, unknown>) => ({ ...schemas, Pet: { ...schemas.Pet, ...extra } });
    for (const extra of [
      { $id: "https://example.com/pet" },
      { properties: { x: { $dynamicRef: "#node" } } },
      { properties: { x: { $ref: "other.json#/Pet" } } },
      { properties: { x: { $ref: "#" } } },
      { properties: { x: { $ref: "#/components/schemas" } } },
    ])
      expect(reachableComponents({ components: { schemas: by(extra) } }, by(extra), ["Pet"])).toBeUndefined();
  });
});

describe("a document's receive-level validators, made from the components the received ones reach", () => {
  it("validate what clients read, through a parameter's schema, and no file is made for the rest", async () => {
    const dir = writeTree({
      "openapi.yaml": [
        "openapi: 3.1.0",
        "info: { title: Pets, version: '1' }",
        "paths:",
        "  /pets/{id}:",
        "    get:",
        "      operationId: getPet",
        "      parameters: [{ $ref: '#/components/parameters/id' }]",
        "      responses:",
        "        '200':",
        "          description: A pet",
        "          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }",
        "    put:",
        "      operationId: putPet",
        "      parameters: [{ $ref: '#/components/parameters/id' }]",
        "      requestBody:",
        "        content: { application/json: { schema: { $ref: '#/components/schemas/NewPet' } } }",
        "      responses: { '204': { description: Stored } }",
        "components:",
        "  parameters:",
        "    id: { name: id, in: path, required: true, schema: { $ref: '#/components/schemas/PetId' } }",
        "  schemas:",
        "    PetId: { type: integer, minimum: 1 }",
        "    Pet:",
        "      type: object",
        "      required: [id, name]",
        "      additionalProperties: false",
        "      properties:",
        "        id: { $ref: '#/components/parameters/id/schema' }",
        "        name: { type: string, maxLength: 3 }",
        "    NewPet: { type: object, required: [name], properties: { name: { type: string } } }",
        "",
      ].join("\n"),
    });
    const out = await genQuietly(path.join(dir, "openapi.yaml"));
    const file = (name: string) => path.join(out, "validators", `${receiveFile(name)}.js`);
    expect(existsSync(file("NewPet"))).toBe(false);
    const validate = ((await import(pathToFileURL(file("Pet")).href)) as Record<string, (data: unknown) => boolean>)[
      receiveName("Pet")
    ]!;
    // The type's promise holds (an integer id, a string name); the strict-only rules do not stop a read.
    expect(validate({ id: 0, name: "Rex the fourth", extra: true })).toBe(true);
    expect(validate({ id: "1", name: "Rex" })).toBe(false);
    expect(validate({ name: "Rex" })).toBe(false);
  });
});
